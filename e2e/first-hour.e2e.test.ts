/**
 * The first hour of a new owner (issue 34, docs/starters.md): sign up, create a site from each
 * starter in turn and look at it at 1280 and 432 px (screenshots in
 * e2e/screenshots/first-hour-*.png), then on the store: the Sample badges, removing the sample
 * content, adding a product, and the setup guide ticking "Add your first product".
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { STARTERS } from "../apps/server/src/modules/starters/catalog.js";
import { DEVICES, browser, screenshot, settle, useBrowser, scaled } from "./browser.js";

useBrowser();
const base = inject("baseUrl");

/** Blocks on the page that take no room or show a placeholder: an empty band, which must not happen. */
function emptyBlocks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>(".block")]
      .filter((b) => !b.matches(".block-spacer, .block-line"))
      .filter((b) => b.matches(".block-placeholder") || b.getBoundingClientRect().height < 8)
      .map((b) => b.className),
  );
}

describe("the first hour of a new owner", () => {
  it("signs up, starts a site from every starter, removes the samples and adds a first product", {
    timeout: scaled(600_000),
  }, async () => {
    const context = await browser.newContext({ viewport: DEVICES[0][1] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/config/`);
    await page.waitForURL(/\/config\/login/);
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.getByLabel("Your name").fill("Nina New");
    await page.getByLabel("Email").fill(`nina-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Your sites", exact: true }).waitFor();

    const sites: { starter: string; url: string; overview: string }[] = [];
    for (const starter of STARTERS) {
      await page.goto(`${base}/config/`);
      await page.getByRole("button", { name: "Create a site" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Create a site" });
      await dialog.getByLabel("Site title").fill(`Nina ${starter.name}`);
      await dialog.getByRole("radio", { name: new RegExp(`^${starter.name}`) }).check();
      await dialog.getByRole("button", { name: "Create site" }).click();
      await page.getByRole("heading", { name: `Nina ${starter.name}` }).waitFor();
      await page.getByRole("heading", { name: "Set up your site" }).waitFor();
      const url = (await page.locator(".page-head a[target=_blank]").first().getAttribute("href"))!;
      sites.push({ starter: starter.id, url, overview: page.url() });

      for (const [device, viewport] of DEVICES) {
        const visitor = await browser.newPage({ viewport });
        const visitorErrors: string[] = [];
        visitor.on("pageerror", (e) => visitorErrors.push(e.message));
        for (const p of starter.pages) {
          const res = await visitor.goto(`${url}${p.isHome ? "/" : `/${p.slug}`}`);
          expect(res?.status(), `${starter.id} ${p.slug}`).toBe(200);
          await settle(visitor);
          expect(await emptyBlocks(visitor), `${starter.id} ${p.slug} ${device}`).toEqual([]);
          // Nothing wider than the screen on a phone.
          const overflow = await visitor.evaluate(() => document.documentElement.scrollWidth - innerWidth);
          expect(overflow, `${starter.id} ${p.slug} ${device}`).toBeLessThanOrEqual(1);
          if (p.isHome || p.kind !== "page")
            await screenshot(visitor, `first-hour-${starter.id}-${p.slug}-${device}`);
        }
        expect(visitorErrors).toEqual([]);
        await visitor.close();
      }
    }

    // The store: its sample products carry the badge in the dashboard and on the live site.
    const store = sites.find((s) => s.starter === "online-store")!;
    await page.goto(store.overview);
    await page.getByRole("navigation").getByRole("link", { name: "Products", exact: true }).click();
    await page.getByRole("link", { name: "Canvas Market Tote" }).waitFor();
    expect(await page.locator(".badge.sample").count()).toBe(6);
    const shop = await browser.newPage();
    await shop.goto(`${store.url}/shop`);
    expect(await shop.locator(".badge-sample").count()).toBe(6);

    // Billing (where a site is published) warns while sample products are left.
    await page.goto(`${store.overview}/settings/billing`);
    await page.getByText("This site still shows 6 sample products from its starter.").waitFor();

    // Remove all sample content from the overview.
    await page.goto(store.overview);
    await page.getByRole("button", { name: "Remove all sample content" }).click();
    await page
      .getByRole("dialog", { name: "Remove all sample content?" })
      .getByRole("button", { name: "Remove sample content" })
      .click();
    await page.getByRole("button", { name: "Remove all sample content" }).waitFor({ state: "detached" });
    const firstProduct = page.locator('li[data-step="first-product"]');
    expect(await firstProduct.getAttribute("class")).not.toContain("done");
    await shop.reload();
    expect(await shop.locator(".badge-sample").count()).toBe(0);
    await shop.goto(`${store.url}/`);
    expect(await emptyBlocks(shop)).toEqual([]);
    expect(await shop.getByText("New in the shop").count()).toBe(0);
    await screenshot(shop, "first-hour-online-store-home-after-removal-desktop");

    // A first real product: the guide ticks "Add your first product".
    await page.getByRole("navigation").getByRole("link", { name: "Products", exact: true }).click();
    await page.getByRole("link", { name: "Add product" }).click();
    await page.getByLabel("Product name").fill("Nina's First Bag");
    await page.getByLabel("Price (USD)", { exact: true }).fill("45");
    await page.getByLabel("Stock", { exact: true }).fill("5");
    await page.getByRole("button", { name: "Save product" }).click();
    await page.getByText("Product saved. It is live in the shop.").waitFor();
    await page.getByRole("navigation").getByRole("link", { name: "Overview" }).click();
    await page.getByRole("heading", { name: "Set up your site" }).waitFor();
    await expect.poll(() => firstProduct.getAttribute("class"), { timeout: 15_000 }).toContain("done");
    await screenshot(page, "first-hour-overview-guide-desktop");
    await shop.goto(`${store.url}/`);
    await shop.getByText("Nina's First Bag").first().waitFor();
    await shop.close();

    // The guide can be hidden and brought back.
    await page.getByRole("button", { name: "Hide the guide" }).click();
    await page.getByRole("button", { name: "Show the setup guide" }).click();
    await page.getByRole("heading", { name: "Set up your site" }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the starters as cards with screenshots in the new-site dialog", async () => {
    const context = await browser.newContext({ viewport: DEVICES[0][1] });
    const page = await context.newPage();
    await page.goto(`${base}/config/login`);
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.getByLabel("Email").fill(`cards-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Your sites", exact: true }).waitFor();
    for (const [device, viewport] of DEVICES) {
      await page.setViewportSize(viewport);
      await page.getByRole("button", { name: "Create a site" }).first().click();
      const dialog = page.getByRole("dialog", { name: "Create a site" });
      await expect.poll(() => dialog.locator(".starter-choice img").count()).toBe(STARTERS.length);
      await expect
        .poll(() =>
          dialog
            .locator(".starter-choice img")
            .evaluateAll((imgs) =>
              (imgs as HTMLImageElement[]).every((i) => i.complete && i.naturalWidth > 0),
            ),
        )
        .toBe(true);
      await screenshot(page, `first-hour-new-site-dialog-${device}`);
      await dialog.getByRole("button", { name: "Cancel" }).click();
    }
    await context.close();
  });
});
