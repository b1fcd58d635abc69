/**
 * `npm run docs:screenshots`: the README's pictures, made from the running product. Starts the
 * real server as `npm start` does (scripts/start.mjs, which builds what is missing) on a fresh
 * embedded database with the demo site, then photographs in Debian's Chromium, at 1440 × 900:
 * the demo store's home and shop, and the dashboard (the demo site's home and its products) after
 * logging in through the login screen as the demo owner. Writes PNG files to docs/images/.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Page } from "playwright-core";
import { DEFAULT_DEMO_OWNER_EMAIL, DEFAULT_DEMO_OWNER_PASSWORD } from "../apps/server/src/config.js";
import { root, startServer } from "../bench/server.js";

const outDir = path.join(root, "docs/images");
const viewport = { width: 1440, height: 900 };

const server = await startServer({
  args: [path.join(root, "scripts/start.mjs")],
  env: { LOG_LEVEL: "warn" },
  host: "localhost",
  stdout: "inherit",
  name: "docs-shots",
});
const base = `http://localhost:${server.port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});

/** Waits for the page's network, fonts and images to settle, then saves it. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready);
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`docs/images/${name}.png`);
}

try {
  mkdirSync(outDir, { recursive: true });
  const store = await browser.newPage({ viewport });
  await store.goto(`${base}/`);
  await shoot(store, "demo-store");
  await store.goto(`${base}/shop`);
  await shoot(store, "demo-shop");
  await store.close();

  const owner = await browser.newPage({ viewport });
  await owner.goto(`${base}/config/`);
  await owner.waitForURL(/\/config\/login/);
  await owner.getByLabel("Email").fill(DEFAULT_DEMO_OWNER_EMAIL);
  await owner.getByLabel("Password").fill(DEFAULT_DEMO_OWNER_PASSWORD);
  await owner.getByRole("button", { name: "Log in" }).click();
  await owner.getByRole("heading", { name: "Your sites", exact: true }).waitFor();
  const sites = await owner.evaluate(async () => (await fetch("/api/owner/sites")).json());
  const siteId = (sites as { sites: { id: string }[] }).sites[0]?.id;
  if (!siteId) throw new Error("the demo owner has no site");
  await owner.goto(`${base}/config/sites/${siteId}`);
  await shoot(owner, "dashboard");
  await owner.goto(`${base}/config/sites/${siteId}/products`);
  await shoot(owner, "dashboard-products");
  await owner.close();
} finally {
  await browser.close();
  await server.stop();
}
