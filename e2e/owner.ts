/**
 * The demo owner in the dashboard. The first call of a test file logs in through the login screen;
 * later calls reuse that session, so a file does not run into the login rate limit (10 a minute).
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { DESKTOP } from "./browser.js";

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let session: StorageState | undefined;

export interface OwnerPage {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors of the page, which tests expect to stay empty. */
  errors: string[];
}

/** Waits for the sites list, or fails with what the screen says instead (a refused login, say). */
async function sitesListed(page: Page): Promise<void> {
  const heading = page.getByRole("heading", { name: "Your sites", exact: true });
  const problem = page.locator('[role="alert"], .error').first();
  const which = await Promise.race([
    heading.waitFor().then(() => "sites"),
    problem.waitFor().then(() => "problem"),
  ]);
  if (which === "problem") throw new Error(`the dashboard said: ${await problem.textContent()}`);
}

export async function ownerLogIn(browser: Browser, base: string, viewport = DESKTOP): Promise<OwnerPage> {
  const context = await browser.newContext({ viewport, storageState: session });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}/config/`);
  if (!session) {
    await page.waitForURL(/\/config\/login/);
    await page.getByLabel("Email").fill("owner@atelier.test");
    await page.getByLabel("Password").fill("atelier-demo");
    await page.getByRole("button", { name: "Log in" }).click();
  }
  await sitesListed(page);
  session ??= await context.storageState();
  return { context, page, errors };
}
