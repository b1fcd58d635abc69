/**
 * What a site's own templates (developer mode) cost a published page: `/shop` and `/` rendered
 * on every request (PAGE_CACHE=false) by two apps in one process, each on its own embedded
 * database with the demo site: one without overrides (the baseline), one with the footer and the
 * product card overridden; alternating rounds, so both see the same machine load:
 *
 *   npm run templates -w bench            (BENCH_SECONDS=S per page and mode, default 4)
 *
 * Requests go through the Fastify app in process (inject), on an embedded database.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { websites } from "../apps/server/src/db/schema.js";
import { saveTemplate } from "../apps/server/src/modules/templates/service.js";
import { Themes } from "../apps/server/src/render/themes.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const ROUND_MS = 250;
const PAGES = ["/shop", "/"];

process.env.PAGE_CACHE = "false";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-templates-"));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  PUBLIC_URL: "http://localhost",
});

async function demoApp(withOverrides: boolean) {
  const database = await openDatabase({ dataDir: "memory://" });
  const app = await buildApp({ config, database, logger: false });
  await seedDemoIfEmpty(database.db, config, { now: () => new Date() });
  await app.ready();
  if (withOverrides) {
    const [site] = await database.db.select().from(websites);
    const theme = new Themes().forSite(site!);
    await saveTemplate(
      database.db,
      site!.id,
      theme,
      "footer",
      theme.templates.footer!.replace("</footer>", "<p>Made by hand.</p></footer>"),
    );
    await saveTemplate(
      database.db,
      site!.id,
      theme,
      "product-card",
      `{# our own card #}${theme.templates["product-card"]}`,
    );
    for (;;) {
      if ((await app.inject({ url: "/" })).body.includes("Made by hand.")) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return { app, database };
}

const apps = { base: await demoApp(false), own: await demoApp(true) };

async function round(mode: "base" | "own", url: string, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    const res = await apps[mode].app.inject({ url });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    n++;
  }
  return n;
}

console.log(`templates bench: ${seconds}s per page and mode, ${ROUND_MS} ms rounds, page cache off`);
console.log("| page | theme only (req/s) | with overrides (req/s) | ratio |");
console.log("|---|---:|---:|---:|");
for (const url of PAGES) {
  const done = { base: 0, own: 0 };
  const time = { base: 0, own: 0 };
  // Warm both.
  await round("base", url, 500);
  await round("own", url, 500);
  for (let spent = 0; spent < seconds * 1000; spent += ROUND_MS) {
    for (const mode of ["base", "own"] as const) {
      const t0 = performance.now();
      done[mode] += await round(mode, url, ROUND_MS);
      time[mode] += performance.now() - t0;
    }
  }
  const rate = (m: "base" | "own") => (done[m] / time[m]) * 1000;
  console.log(
    `| ${url} | ${rate("base").toFixed(1)} | ${rate("own").toFixed(1)} | ${(rate("own") / rate("base")).toFixed(2)} |`,
  );
}
for (const { app, database } of Object.values(apps)) {
  await app.close();
  await database.close();
}
rmSync(dataDir, { recursive: true, force: true });
