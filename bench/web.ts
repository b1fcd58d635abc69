/**
 * Web performance of published pages: Lighthouse (mobile and desktop) on the demo's home, shop,
 * a product, a blog post, an event and the cart page, driving Debian's Chromium (never a
 * downloaded browser). One run, one machine:
 *
 *   npm run bench:web      (CHROMIUM_PATH to use another Chromium; BENCH_WEB_URL=http://… to
 *                           measure a server that is already running instead of starting one;
 *                           BENCH_WEB_FORMS=mobile to run one form factor;
 *                           BENCH_WEB_PAGES=product,shop to measure some of the pages)
 *
 * The server is started as `npm start` starts it (scripts/start.mjs) on a fresh embedded
 * database with the demo site. Each page is loaded once before it is measured, so the page
 * cache is warm, as it is for every visitor but the first after a change.
 */
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

import { root, startServer } from "./server.js";

const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const forms = (process.env.BENCH_WEB_FORMS ?? "mobile,desktop").split(",") as ("mobile" | "desktop")[];

/** The server as `npm start` starts it, addressed as `localhost` (as a visitor's browser would). */
async function startWebServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const server = await startServer({
    args: [path.join(root, "scripts/start.mjs")],
    host: "localhost",
    stdout: "inherit",
  });
  return { base: `http://localhost:${server.port}`, stop: server.stop };
}

/** The first item's address of a collection page, read from its JSON context. */
async function firstItem(base: string, collectionPath: string): Promise<string> {
  const ctx = (await (await fetch(`${base}${collectionPath}?format=json`)).json()) as {
    items?: { fullUrl?: string }[];
  };
  const url = ctx.items?.find((i) => i.fullUrl)?.fullUrl;
  if (!url) throw new Error(`${collectionPath} has no items`);
  return url;
}

interface Row {
  page: string;
  form: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  scriptBytes: number;
}

async function main() {
  const external = process.env.BENCH_WEB_URL;
  const server = external
    ? { base: external.replace(/\/$/, ""), stop: async () => {} }
    : await startWebServer();
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const rows: Row[] = [];
  try {
    const only = process.env.BENCH_WEB_PAGES?.split(",");
    const all = [
      { name: "home", path: "/" },
      { name: "shop", path: "/shop" },
      { name: "product", path: await firstItem(server.base, "/shop") },
      { name: "blog post", path: await firstItem(server.base, "/blog") },
      { name: "event", path: await firstItem(server.base, "/events") },
      { name: "cart", path: "/cart" },
    ];
    const pages = only ? all.filter((p) => only.includes(p.name)) : all;
    console.log(`bench:web: Lighthouse on ${server.base}, ${os.cpus().length} CPUs, load ${os.loadavg()[0]}`);
    for (const page of pages) {
      const url = server.base + page.path;
      await fetch(url); // warm the page cache
      for (const form of forms) {
        const result = await lighthouse(
          url,
          {
            port: chrome.port,
            output: "json",
            logLevel: "error",
            onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
          },
          form === "desktop" ? desktopConfig : undefined,
        );
        if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
        const lhr = result.lhr;
        if (lhr.runtimeError)
          console.log(
            `    Lighthouse could not measure: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
          );
        const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
        const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
        const items = (lhr.audits["resource-summary"]?.details as { items?: Record<string, unknown>[] })
          ?.items;
        const scriptBytes = Number(items?.find((i) => i.resourceType === "script")?.transferSize ?? 0);
        const row: Row = {
          page: `${page.name} (\`${page.path}\`)`,
          form,
          performance: score("performance"),
          accessibility: score("accessibility"),
          bestPractices: score("best-practices"),
          seo: score("seo"),
          lcp: audit("largest-contentful-paint"),
          tbt: audit("total-blocking-time"),
          cls: audit("cumulative-layout-shift"),
          bytes: audit("total-byte-weight"),
          scriptBytes,
        };
        rows.push(row);
        console.log(
          `${page.name.padEnd(10)} ${form.padEnd(8)} perf ${row.performance} a11y ${row.accessibility} bp ${row.bestPractices} seo ${row.seo}  LCP ${(row.lcp / 1000).toFixed(2)} s  TBT ${Math.round(row.tbt)} ms  CLS ${row.cls.toFixed(3)}  ${(row.bytes / 1024).toFixed(1)} KB (JS ${(row.scriptBytes / 1024).toFixed(1)} KB)`,
        );
        if (row.tbt > 100) {
          // Where the blocking time comes from: the longest main-thread tasks and what they ran.
          const tasks = (lhr.audits["long-tasks"]?.details as { items?: { url: string; duration: number }[] })
            ?.items;
          for (const t of (tasks ?? []).slice(0, 5)) {
            console.log(`    long task ${Math.round(t.duration)} ms  ${t.url.replace(server.base, "")}`);
          }
          const work = (
            lhr.audits["mainthread-work-breakdown"]?.details as {
              items?: { groupLabel: string; duration: number }[];
            }
          )?.items;
          console.log(
            `    main thread: ${(work ?? [])
              .slice(0, 5)
              .map((w) => `${w.groupLabel} ${Math.round(w.duration)} ms`)
              .join(", ")}`,
          );
        }
        for (const id of ["performance", "accessibility", "best-practices", "seo"]) {
          const cat = lhr.categories[id];
          if (!cat || (cat.score ?? 0) >= 1) continue;
          const failing = cat.auditRefs
            .filter((r) => r.weight > 0 && (lhr.audits[r.id]?.score ?? 1) < 0.9)
            .map((r) => r.id);
          if (failing.length) console.log(`    ${id}: ${failing.join(", ")}`);
        }
      }
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  console.log(
    "\n| page | form | performance | accessibility | best practices | SEO | LCP | TBT | CLS | transferred | of it JS |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    console.log(
      `| ${r.page} | ${r.form} | ${r.performance} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${(r.lcp / 1000).toFixed(2)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${(r.bytes / 1024).toFixed(1)} KB | ${(r.scriptBytes / 1024).toFixed(1)} KB |`,
    );
  }
}

await main();
