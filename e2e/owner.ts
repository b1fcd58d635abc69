/**
 * The demo owner in the dashboard. The first call of a test file logs in through the login screen;
 * later calls reuse that session, so a file does not run into the login rate limit (10 a minute).
 * Each browser context also names a client address of its own (browser.ts, ownAddress): the files
 * sharing the demo server sign in one after another, quicker than ten a minute from one address.
 */
import type { APIResponse, Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { expect, inject } from "vitest";
import { DEMO_OWNER } from "../apps/server/test/fixtures.js";
import { DESKTOP, ownAddress } from "./browser.js";

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;
let session: StorageState | undefined;

interface OwnerPage {
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
  const context = await browser.newContext({
    viewport,
    storageState: session,
    extraHTTPHeaders: ownAddress(),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}/config/`);
  if (!session) {
    await page.waitForURL(/\/config\/login/);
    await page.getByLabel("Email").fill(DEMO_OWNER.email);
    await page.getByLabel("Password").fill(DEMO_OWNER.password);
    await page.getByRole("button", { name: "Log in" }).click();
  }
  await sitesListed(page);
  session ??= await context.storageState();
  return { context, page, errors };
}

interface OwnerApiSession {
  context: BrowserContext;
  page: Page;
  /** The crumb header the session's state-changing calls carry. */
  headers: Record<string, string>;
  /** The sign-in's response. */
  login: APIResponse;
}

/**
 * A new browser context (with `options`) that has visited the site for its crumb and signed in
 * as the demo's owner through the owner API, not the dashboard's login screen.
 */
export async function ownerApiSession(
  browser: Browser,
  base: string,
  options: BrowserContextOptions = {},
): Promise<OwnerApiSession> {
  const context = await browser.newContext({
    ...options,
    extraHTTPHeaders: { ...ownAddress(), ...options.extraHTTPHeaders },
  });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  const crumb = (await context.cookies()).find((c) => c.name === "crumb")!.value;
  const headers = { "x-csrf-token": crumb };
  const login = await context.request.post(`${base}/api/owner/session`, { data: DEMO_OWNER, headers });
  return { context, page, headers, login };
}

/** An owner call from the page's session (with the crumb), for set-up and checks; fails on a 4xx or 5xx. */
export async function ownerCall<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const crumb = (await page.context().cookies()).find((c) => c.name === "crumb")?.value ?? "";
  const res = await page.request.fetch(`${inject("baseUrl")}${path}`, {
    method,
    headers: { "x-csrf-token": crumb, "content-type": "application/json" },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(400);
  return (await res.json()) as T;
}

/** The demo site's id (other browser tests add sites of their own, so it is found by its title). */
export async function demoSiteId(page: Page): Promise<string> {
  const { sites } = await ownerCall<{ sites: { id: string; title: string }[] }>(
    page,
    "GET",
    "/api/owner/sites",
  );
  return sites.find((s) => s.title === "Atelier Demo")!.id;
}

/** ownerLogIn, with the demo site's id: the start of most dashboard tests. */
export async function demoOwnerLogIn(
  browser: Browser,
  base: string,
  viewport = DESKTOP,
): Promise<OwnerPage & { siteId: string }> {
  const owner = await ownerLogIn(browser, base, viewport);
  return { ...owner, siteId: await demoSiteId(owner.page) };
}

/** From the sites list, opens the demo site, then its screen `name` from the menu, and waits for its heading. */
export async function openDemoScreen(page: Page, name: string): Promise<void> {
  await page
    .getByRole("link", { name: /Atelier Demo/ })
    .first()
    .click();
  await page.getByRole("link", { name, exact: true }).click();
  await page.getByRole("heading", { name, level: 1 }).waitFor();
}

/** The accept link (path and query) of the newest invitation email to `email`, from the site's outbox. */
export async function invitationLink(page: Page, server: string, siteId: string, email: string) {
  const outbox = await page.request.get(`${server}/api/owner/sites/${siteId}/outbox?limit=50`);
  const { emails } = (await outbox.json()) as { emails: { to: string; text: string }[] };
  const text = emails.find((e) => e.to === email)?.text ?? "";
  const link = /https?:\/\/\S+\/config\/invitations\/accept\?token=[\w%-]+/.exec(text)?.[0];
  expect(link, `an invitation email to ${email}`).toBeTruthy();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

/**
 * Invites `email` to the site with `roles` through the owner API of the page's session (the
 * server at `server`), and answers the accept link the invitation email carries.
 */
export async function inviteByEmail(
  page: Page,
  server: string,
  siteId: string,
  email: string,
  roles: string[],
): Promise<string> {
  const crumb = (await page.context().cookies()).find((c) => c.name === "crumb")?.value ?? "";
  const invited = await page.request.post(`${server}/api/owner/sites/${siteId}/invitations`, {
    headers: { "x-csrf-token": crumb },
    data: { email, roles },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  return invitationLink(page, server, siteId, email);
}
