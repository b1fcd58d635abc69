/**
 * axe-core's WCAG 2.2 A and AA rules over every dashboard screen (signed in as the demo's owner,
 * at 1440 and 390 px) and every page type of the published demo in all six themes (1280 and
 * 432 px), in the states people reach: dialogs open, a form showing its errors, the phone menu
 * open, the cart with an item, the checkout after a declined card. Served by an app started here
 * on its own embedded database with the demo, so themes can change without touching the shared
 * server. Every problem found is listed (rule, element, page) and fails the test; the list is
 * also written to e2e/screenshots/axe-*.txt.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { websites } from "../apps/server/src/db/schema.js";
import { updateDesign } from "../apps/server/src/modules/design/service.js";
import { THEME_NAMES } from "../apps/server/src/render/themes.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { axeViolations, describeViolations } from "./axe.js";
import { PHONE, browser, scaled } from "./browser.js";
import { inviteByEmail, ownerLogIn } from "./owner.js";
import { useOwnServer } from "./own-server.js";
import { fillCheckout } from "./shopper.js";

const server = useOwnServer("a11y", (database, config) =>
  seedDemoIfEmpty(database.db, config, { now: () => new Date() }),
);
const base = () => `http://localhost:${server.port}`;

const DASHBOARD_SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];
const SITE_SIZES = [{ width: 1280, height: 900 }, PHONE];

/** Runs axe on the page as it is and adds what it finds to `found`. */
async function audit(found: string[], page: Page, label: string) {
  await page.waitForLoadState("networkidle");
  const where = `${label} ${new URL(page.url()).pathname}`;
  found.push(...describeViolations(await axeViolations(page), where));
}

/** Brings the page to a state and audits it; a state that cannot be reached is a problem too. */
async function auditState(found: string[], page: Page, label: string, reach: () => Promise<unknown>) {
  try {
    await reach();
    await audit(found, page, label);
  } catch (e) {
    found.push(`${label}: could not reach this state: ${(e as Error).message.split("\n")[0]}`);
  }
}

/** Writes the list beside the screenshots, for people, then fails the test if it is not empty. */
function report(found: string[], name: string) {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `axe-${name}.txt`), found.join("\n"));
  expect(found, `axe found ${found.length} problem(s)`).toEqual([]);
}

/**
 * Runs `walk` for every item at once and waits for all; fails with the first failure, once all
 * have finished (no walk is left running into the next test).
 */
async function inParallel<T>(items: T[], walk: (item: T) => Promise<void>): Promise<void> {
  const results = await Promise.allSettled(items.map(walk));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** Waits for a dashboard screen's main heading (the screen has loaded its data). */
async function screenLoaded(page: Page) {
  await page
    .locator("h1")
    .first()
    .waitFor()
    .catch(() => {
      throw new Error(`no heading on ${page.url()}`);
    });
  await page.waitForLoadState("networkidle");
  await page
    .getByText(/^Loading|^Opening/)
    .first()
    .waitFor({ state: "hidden" });
}

interface OwnerPage {
  id: string;
  kind: string;
  fullUrl: string;
}

/** The dashboard's routes for the demo site, from its pages and first rows of its lists. */
async function dashboardRoutes(page: Page, siteId: string): Promise<string[]> {
  const res = await page.request.get(`${base()}/api/owner/sites/${siteId}/pages`);
  const { pages } = (await res.json()) as { pages: OwnerPage[] };
  const home = pages.find((p) => p.kind === "page")!;
  const blog = pages.find((p) => p.kind === "blog")!;
  const s = `/sites/${siteId}`;
  return [
    "/",
    s,
    ...["", "/products", "/funnel", "/traffic"].map((t) => `${s}/analytics${t}`),
    `${s}/pages`,
    `${s}/pages/${home.id}`,
    `${s}/pages/${home.id}/edit`,
    `${s}/collections/${blog.id}`,
    `${s}/collections/${blog.id}/items/new`,
    `${s}/products`,
    `${s}/products/new`,
    `${s}/inventory`,
    `${s}/media`,
    ...["general", "shipping", "tax", "coupons", "discounts"].map((t) => `${s}/store/${t}`),
    `${s}/settings`,
    `${s}/settings/billing`,
    `${s}/settings/url-mappings`,
    `${s}/settings/domains`,
    `${s}/settings/export`,
    `${s}/settings/permissions`,
    `${s}/api-keys`,
    `${s}/settings/developers/webhooks`,
    `${s}/settings/activity`,
    `${s}/marketing/abandoned-checkouts`,
    `${s}/marketing/announcements`,
    `${s}/marketing/campaigns`,
    `${s}/marketing/campaigns/new`,
    "/account",
    `${s}/design/styles`,
    `${s}/design/themes`,
    `${s}/design/identity`,
    `${s}/design/css`,
    `${s}/design/templates`,
    `${s}/forms`,
    `${s}/ops/orders`,
    `${s}/ops/restock`,
    `${s}/ops/forms`,
    `${s}/ops/site-users`,
    `${s}/ops/outbox`,
  ];
}

/** Opens the first row's link of the list screen at `route` and audits the record's screen. */
async function auditFirstRow(found: string[], page: Page, route: string, label: string) {
  await auditState(found, page, label, async () => {
    await page.goto(`${base()}/config${route}`);
    await screenLoaded(page);
    await page.locator("main table a, main .list a").first().click();
    await screenLoaded(page);
  });
}

describe("accessibility (axe, WCAG 2.2 A and AA)", () => {
  it("finds nothing on the published demo's page types in every theme", {
    timeout: scaled(900_000),
  }, async () => {
    const found: string[] = [];
    const site = (await server.database.db.select().from(websites).where(eq(websites.isDefault, true)))[0]!;
    const pageTypes = [
      "/",
      "/shop",
      "/shop/p/beeswax-candle",
      "/blog",
      "/blog/a-week-at-the-wheel",
      "/events",
      "/events/spring-open-studio",
      "/gallery",
      "/contact",
      "/search?q=linen",
      "/no-such-page",
    ];
    for (const theme of THEME_NAMES) {
      await updateDesign(server.database.db, site, { theme });
      // Both sizes at once, each in its own context (cookies, cart): most of a walk is waiting for
      // the network to go quiet, so two walks take little longer than one.
      await inParallel(SITE_SIZES, async (viewport) => {
        const label = `${theme} ${viewport.width}px`;
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        for (const url of pageTypes) {
          await page.goto(base() + url);
          await audit(found, page, label);
        }
        await auditState(found, page, `${label} form errors`, async () => {
          // The contact form, sent empty, shows its errors.
          await page.goto(`${base()}/contact`);
          await page.locator("form button[type=submit], form input[type=submit]").first().click();
          await page.locator("[aria-invalid=true], [role=alert]").first().waitFor();
        });
        await auditState(found, page, `${label} added to cart`, async () => {
          await page.goto(`${base()}/shop/p/beeswax-candle`);
          await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
          await page.getByRole("combobox", { name: "Select Height" }).selectOption("4 in");
          // Screen readers hear the chosen variant's price, then that it is in the cart.
          await page.waitForFunction(() =>
            /\d\.\d\d/.test(document.querySelector(".atelier-announcer")?.textContent ?? ""),
          );
          await page.getByRole("button", { name: "Add To Cart" }).click();
          await page.waitForFunction(
            () => document.querySelector(".atelier-announcer")?.textContent === "Added to cart.",
          );
        });
        await auditState(found, page, `${label} cart`, () => page.goto(`${base()}/cart`));
        await auditState(found, page, `${label} checkout declined`, async () => {
          await page.goto(`${base()}/checkout`);
          await fillCheckout(page, "4000 0000 0000 0002");
          await page.getByRole("button", { name: /^Pay \$/ }).click();
          await page.waitForFunction(
            () => document.querySelector(".checkout-message")?.textContent === "Your card was declined.",
          );
        });
        if (viewport === PHONE) {
          await auditState(found, page, `${label} menu open`, async () => {
            await page.goto(`${base()}/`);
            await page.getByRole("button", { name: "Menu" }).click();
            await page.waitForTimeout(400);
          });
        }
        await context.close();
      });
    }
    await updateDesign(server.database.db, site, { theme: "commerce" });
    report(found, "site");
  });

  it("finds nothing on every dashboard screen, its dialogs and its errors", {
    timeout: scaled(900_000),
  }, async () => {
    const found: string[] = [];
    // Both sizes at once, as the site walk does; each invites its own address.
    await inParallel(DASHBOARD_SIZES, async (viewport) => {
      const label = `dashboard ${viewport.width}px`;
      const login = await browser.newPage({ viewport });
      await login.goto(`${base()}/config/login`);
      await login.getByLabel("Email").waitFor();
      await audit(found, login, label);
      await login.close();
      const { context, page } = await ownerLogIn(browser, base(), viewport);
      const siteId = (
        (await (await page.request.get(`${base()}/api/owner/sites`)).json()) as { sites: { id: string }[] }
      ).sites[0]!.id;
      for (const route of await dashboardRoutes(page, siteId)) {
        await auditState(found, page, label, async () => {
          await page.goto(`${base()}/config${route}`);
          await screenLoaded(page);
        });
      }
      const s = `/sites/${siteId}`;
      await auditFirstRow(found, page, `${s}/products`, `${label} product`);
      await auditFirstRow(found, page, `${s}/forms`, `${label} form`);
      // Dialogs, and a dialog's form showing its errors.
      await page.goto(`${base()}/config/`);
      await screenLoaded(page);
      await auditState(found, page, `${label} create site dialog`, async () => {
        await page.getByRole("button", { name: "Create a site" }).first().click();
        await page.getByRole("dialog").waitFor();
      });
      await auditState(found, page, `${label} create site errors`, async () => {
        await page.getByRole("dialog").getByLabel("Site title").fill("   ");
        await page.getByRole("button", { name: "Create site" }).click();
        await page.getByRole("dialog").locator("[aria-invalid=true], [role=alert]").first().waitFor();
        // Focus goes to the first field in error, which names its error through aria-describedby.
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-invalid")))
          .toBe("true");
      });
      await page.keyboard.press("Escape");
      await page.goto(`${base()}/config${s}/pages`);
      await screenLoaded(page);
      await auditState(found, page, `${label} add page dialog`, async () => {
        await page.getByRole("button", { name: "Add page" }).click();
        await page.getByRole("dialog").waitFor();
      });
      await page.keyboard.press("Escape");
      await page.goto(`${base()}/config${s}/settings/permissions`);
      await screenLoaded(page);
      await auditState(found, page, `${label} invite dialog`, async () => {
        await page.getByRole("button", { name: "Invite a person" }).click();
        await page.getByRole("dialog").waitFor();
      });
      await page.keyboard.press("Escape");
      // The page an invitation email opens: a new account's form, and a link that no longer works.
      // An address of its own per attempt: CI runs a failed test once more, on the same server.
      const email = `a11y-${viewport.width}-${Date.now().toString(36)}@example.com`;
      const link = await inviteByEmail(page, base(), siteId, email, ["website_editor"]);
      const invited = await browser.newPage({ viewport });
      for (const [what, url] of [
        ["invitation", link],
        ["invitation link refused", "/config/invitations/accept?token=not-a-token"],
      ]) {
        await auditState(found, invited, `${label} ${what}`, async () => {
          await invited.goto(`${base()}${url}`);
          await screenLoaded(invited);
        });
      }
      await invited.close();
      await page.goto(`${base()}/config${s}/api-keys`);
      await screenLoaded(page);
      await auditState(found, page, `${label} API key dialog`, async () => {
        await page.getByRole("button", { name: "Create API key" }).click();
        await page.getByRole("dialog").waitFor();
      });
      await page.keyboard.press("Escape");
      if (viewport.width < 700) {
        await auditState(found, page, `${label} menu open`, async () => {
          await page.getByRole("button", { name: "Menu" }).click();
          await page.waitForTimeout(400);
        });
      }
      await context.close();
    });
    report(found, "dashboard");
  });

  it("turns transitions off in the dashboard and the themes when reduced motion is asked for", async () => {
    const transition = (page: Page, selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).transitionDuration);
    const { context, page } = await ownerLogIn(browser, base());
    await page.goto(`${base()}/config/`);
    await screenLoaded(page);
    // Polled: a screen's stylesheet may still be applying when its first button shows.
    await expect.poll(() => transition(page, ".btn")).not.toBe("0s");
    await page.emulateMedia({ reducedMotion: "reduce" });
    await expect.poll(() => transition(page, ".btn")).toBe("0s");
    await page.goto(`${base()}/contact`);
    await page.locator("form input").first().waitFor();
    await expect.poll(() => transition(page, "form input")).toBe("0s");
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await expect.poll(() => transition(page, "form input")).not.toBe("0s");
    await context.close();
  });
});
