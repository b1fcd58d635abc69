/** Debian's Chromium driven by playwright-core (never a downloaded browser), with a fresh profile each launch. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, type Locator, type Page, chromium } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const PHONE = { width: 432, height: 900 };
export const DESKTOP = { width: 1280, height: 900 };
/** The two screens a browser test looks at, by name. */
export const DEVICES = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

/**
 * CI runs both groups of browser tests beside the PostgreSQL suite on two cores, on a machine whose
 * speed varies up to threefold from one run to the next: every wait is given three times as long
 * there (Playwright's default wait here, and the long tests' own limits through `scaled`).
 */
export const SLOWDOWN = process.env.CI ? 3 : 1;
export const scaled = (ms: number) => ms * SLOWDOWN;

export async function launch(): Promise<Browser> {
  const launched = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  // Browser.newPage makes its context through newContext, so every page gets the scaled waits.
  const newContext = launched.newContext.bind(launched);
  launched.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(scaled(30_000));
    return context;
  };
  return launched;
}

/** The test file's Chromium, launched by useBrowser. */
export let browser: Browser;

/** Launches Chromium before the file's tests and closes it after them. */
export function useBrowser(): void {
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(() => browser?.close());
}

/** A new page of the file's Chromium that collects its uncaught errors (tests expect none). */
export async function openPage(
  viewport = DESKTOP,
  extraHTTPHeaders?: Record<string, string>,
): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport, extraHTTPHeaders });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, errors };
}

/**
 * A new page for a visitor of their own, at a client address of their own (the test servers trust
 * X-Forwarded-For from this machine, TRUST_PROXY=loopback, as behind a local nginx). Per-address limits, such as ten form submissions in ten
 * minutes, then count each test's visitor apart, as they would count real visitors.
 */
export async function visitorPage(viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  return openPage(viewport, ownAddress());
}

/**
 * Headers that give a browser context or request a client address of its own (X-Forwarded-For, see
 * visitorPage). Owner sign-ins use one each: the shared server allows ten a minute per address,
 * and the files of a group run one after another within that minute.
 */
export function ownAddress(): Record<string, string> {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return { "x-forwarded-for": `198.51.${octet()}.${octet()}` };
}

/** Scrolls through the page so lazy images and islands load, then back to the top. */
export async function settle(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 40));
    }
    window.scrollTo(0, 0);
  });
  await page.waitForLoadState("networkidle");
}

const shotsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

/**
 * Screenshots are for people to look at, so CI, where nobody does, skips them unless
 * E2E_SCREENSHOTS=1: a run takes about 300, each a few hundred milliseconds of Chromium's CPU on
 * a machine the browser tests share with the PostgreSQL suite.
 */
const TAKE_SCREENSHOTS = !process.env.CI || process.env.E2E_SCREENSHOTS === "1";

/**
 * Saves a screenshot under e2e/screenshots (ignored by git) for people to look at: the full page,
 * or with `fullPage: false` what the window shows (an open dialog, a fixed layer).
 */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  const file = path.join(shotsDir, `${name}.png`);
  if (!TAKE_SCREENSHOTS) return file;
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: file, fullPage });
  return file;
}

/** A full-page screenshot from the top (a sticky header would otherwise land mid-page). */
export async function screenshotFromTop(page: Page, name: string): Promise<string> {
  await page.evaluate(() => window.scrollTo(0, 0));
  return screenshot(page, name);
}

/** The text an input's aria-describedby points to (its error, or else its help). */
export async function described(page: Page, input: Locator): Promise<string | null> {
  const id = await input.getAttribute("aria-describedby");
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}
