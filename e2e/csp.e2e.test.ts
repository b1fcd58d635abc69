/**
 * Content-Security-Policy in Chromium: a script injected into a published page or into the
 * dashboard does not run, while the storefront (islands, cart, checkout), the dashboard and its
 * editing frame work with no policy violation at all.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, browser, useBrowser } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";

const base = inject("baseUrl");
useBrowser();

/** Policy violations the browser reports on the console. */
function violationsOf(page: Page): string[] {
  const out: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) out.push(m.text());
  });
  return out;
}

const INJECTED =
  '<script>window.__injected = "inline"</script><img src="/nothing.png" alt="" onerror="window.__injected = \'handler\'">';

/** Serves the document at `url` with markup injected after <body…>, as an injection bug would. */
async function injectInto(page: Page, url: string) {
  await page.route(url, async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/<body[^>]*>/, (m) => m + INJECTED);
    await route.fulfill({ response, body: html });
  });
}

describe("the Content-Security-Policy", () => {
  it("stops a script injected into a published page; the page's own scripts still run", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const violations = violationsOf(page);
    await injectInto(page, `${base}/shop/p/linen-work-apron`);
    await page.goto(`${base}/shop/p/linen-work-apron`);
    await page.locator("[data-island-mounted]").first().waitFor({ state: "attached" });
    expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBeUndefined();
    expect(violations.length).toBeGreaterThanOrEqual(2);
    await page.close();
  });

  it("lets a buyer browse, add to the cart and reach checkout with no violation", async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    const violations = violationsOf(page);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    for (const path of ["/", "/shop", "/blog", "/events"]) {
      await page.goto(`${base}${path}`);
      await page.waitForLoadState("networkidle");
    }
    await page.goto(`${base}/shop/p/beeswax-candle`);
    await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
    await page.getByRole("combobox", { name: "Select Height" }).selectOption("4 in");
    await page.getByRole("button", { name: "Add To Cart" }).click();
    await expect
      .poll(() => page.locator(".header-cart [data-cart-count]").first().innerText(), { timeout: 15_000 })
      .toBe("1");
    await page.goto(`${base}/cart`);
    await page.waitForLoadState("networkidle");
    await page.goto(`${base}/checkout`);
    await page.getByRole("button", { name: /^Pay \$/ }).waitFor();
    expect(violations).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("stops a script injected into the dashboard; the dashboard and its editing frame work", async () => {
    const { context, page, errors, siteId } = await demoOwnerLogIn(browser, base);
    const violations = violationsOf(page);
    const { pages } = await ownerCall<{ pages: { id: string; isHome: boolean }[] }>(
      page,
      "GET",
      `/api/owner/sites/${siteId}/pages`,
    );
    for (const path of ["products", "ops/orders", "store", "settings"]) {
      await page.goto(`${base}/config/sites/${siteId}/${path}`);
      await page.locator("h1").first().waitFor();
    }
    await page.goto(`${base}/config/sites/${siteId}/pages/${pages.find((p) => p.isHome)!.id}/edit`);
    await page.locator("[data-overlay-for]").first().waitFor();
    expect(violations).toEqual([]);

    await injectInto(page, `${base}/config/sites/${siteId}/products`);
    await page.goto(`${base}/config/sites/${siteId}/products`);
    await page.locator("h1").first().waitFor();
    expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBeUndefined();
    expect(violations.length).toBeGreaterThanOrEqual(2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
