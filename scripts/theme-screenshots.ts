/**
 * `npm run themes:screenshots`: the gallery's screenshot of every built-in theme, made from the
 * demo site in Debian's Chromium at 1280 px and written to apps/server/themes/<id>/screenshot.jpg.
 *
 * `-- --review` also saves full pages of each theme (home, shop, a product, the blog, a post,
 * events) at 1280 and 432 px under e2e/screenshots/themes/ for people to look at.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import { chromium } from "playwright-core";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { websites } from "../apps/server/src/db/schema.js";
import { THEMES_DIR, THEME_NAMES } from "../apps/server/src/render/themes.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const review = process.argv.includes("--review");
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const reviewDir = path.join(root, "e2e/screenshots/themes");

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-theme-shots-"));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  PORT: "0",
  PUBLIC_URL: "http://localhost",
});
const database = await openDatabase({ dataDir: "memory://" });
const app = await buildApp({ config, database, logger: false });
await seedDemoIfEmpty(database.db, config, { now: () => new Date() });
await app.listen({ port: 0, host: "127.0.0.1" });
const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});

/** The first link on a page that matches, to find a product and a post of the demo. */
async function firstLink(url: string, selector: string): Promise<string | undefined> {
  const page = await browser.newPage();
  await page.goto(url);
  const href = await page
    .locator(selector)
    .first()
    .getAttribute("href")
    .catch(() => null);
  await page.close();
  return href ?? undefined;
}

try {
  const product = await firstLink(`${base}/shop`, "main a[href*='/p/']");
  const post = await firstLink(`${base}/blog`, "main article a[href^='/blog/']");
  const pages = { home: "/", shop: "/shop", product, blog: "/blog", post, events: "/events" };
  for (const theme of THEME_NAMES) {
    if (only.length && !only.includes(theme)) continue;
    // Every write bumps the content version, so the next request renders with the new theme.
    await database.db.update(websites).set({ theme }).where(eq(websites.isDefault, true));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/`, { waitUntil: "networkidle" });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(THEMES_DIR, theme, "screenshot.jpg"),
      type: "jpeg",
      quality: 78,
    });
    await page.close();
    console.log(`${theme}: apps/server/themes/${theme}/screenshot.jpg`);
    if (!review) continue;
    mkdirSync(reviewDir, { recursive: true });
    for (const [width, label] of [
      [1280, "desktop"],
      [432, "phone"],
    ] as const) {
      const p = await browser.newPage({ viewport: { width, height: 900 } });
      for (const [name, url] of Object.entries(pages)) {
        if (!url) continue;
        await p.goto(`${base}${url}`, { waitUntil: "networkidle" });
        await p.evaluate(() => document.fonts.ready);
        await p.screenshot({ path: path.join(reviewDir, `${theme}-${name}-${label}.png`), fullPage: true });
      }
      await p.close();
    }
  }
} finally {
  await browser.close();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
