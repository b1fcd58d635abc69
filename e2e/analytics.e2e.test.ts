/**
 * Analytics in Chromium: a scripted visitor opens the shop, views a product, adds it to the cart
 * and pays; the owner then opens Analytics on the demo and finds the visit, the add to cart and
 * the purchase in the funnel, and the order in the sales chart's table. Desktop and phone.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEVICES, browser, screenshot, useBrowser, visitorPage, scaled } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";
import { addCandle, fillCheckout } from "./shopper.js";

const base = inject("baseUrl");
useBrowser();

interface Funnel {
  steps: { key: string; label: string; count: number }[];
}
interface Sales {
  to: string;
  totals: { orders: number };
  series: { period: string; orders: number }[];
}

let owner: Awaited<ReturnType<typeof demoOwnerLogIn>>;
const funnel = () =>
  ownerCall<Funnel>(owner.page, "GET", `/api/owner/sites/${owner.siteId}/analytics/funnel`);
const sales = () => ownerCall<Sales>(owner.page, "GET", `/api/owner/sites/${owner.siteId}/analytics/sales`);
const step = (f: Funnel, key: string) => f.steps.find((s) => s.key === key)!.count;

beforeAll(async () => {
  owner = await demoOwnerLogIn(browser, base);
});
afterAll(() => owner?.context.close());

async function openTab(page: Page, tab: string) {
  await page.goto(`${base}/config/sites/${owner.siteId}/analytics`);
  await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
  await page.getByRole("navigation", { name: "Analytics" }).getByRole("link", { name: tab }).click();
}

describe("analytics", () => {
  it("shows a scripted visit, add to cart and purchase in the funnel and the sales chart's table", {
    timeout: scaled(240_000),
  }, async () => {
    const before = { funnel: await funnel(), sales: await sales() };
    const { page, errors } = await visitorPage();
    await page.goto(`${base}/shop`);
    await addCandle(page);
    await page.goto(`${base}/checkout`);
    await fillCheckout(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/checkout\/order-confirmed\?/);
    await page.close();
    expect(errors).toEqual([]);

    // The job queue rolls the day up within seconds.
    await expect
      .poll(async () => (await sales()).totals.orders, { timeout: 30_000 })
      .toBe(before.sales.totals.orders + 1);
    await expect
      .poll(async () => step(await funnel(), "checkout_started"), { timeout: 30_000 })
      .toBe(step(before.funnel, "checkout_started") + 1);
    const after = await funnel();
    expect(step(after, "add_to_cart")).toBe(step(before.funnel, "add_to_cart") + 1);
    expect(step(after, "purchased")).toBeGreaterThanOrEqual(1);
    expect(step(after, "purchased")).toBeLessThanOrEqual(step(after, "visits"));
    const today = (await sales()).series.find((s) => s.period === before.sales.to)!;

    for (const [name, viewport] of DEVICES) {
      const page = owner.page;
      await page.setViewportSize(viewport);
      await openTab(page, "Purchase funnel");
      const card = page.getByRole("region", { name: "Purchase funnel" });
      await card.getByRole("button", { name: "Show table" }).click();
      const table = card.getByRole("table", { name: "Purchase funnel" });
      for (const key of ["visits", "add_to_cart", "checkout_started", "purchased"]) {
        const s = after.steps.find((x) => x.key === key)!;
        const row = table.getByRole("row", { name: new RegExp(`^${s.label}`) });
        await expect(row.getByRole("cell").first().innerText()).resolves.toBe(
          s.count.toLocaleString("en-US"),
        );
      }
      await screenshot(page, `analytics-funnel-${name}`);

      await openTab(page, "Sales");
      const chart = page.getByRole("region", { name: "Revenue and orders" });
      await chart.locator(".uplot").waitFor();
      await screenshot(page, `analytics-sales-${name}`);
      await chart.getByRole("button", { name: "Show table" }).click();
      const row = chart.getByRole("table").getByRole("row", { name: new RegExp(`^${today.period}`) });
      await expect(row.getByRole("cell").nth(1).innerText()).resolves.toBe(String(today.orders));

      const download = page.waitForEvent("download");
      await chart.getByRole("button", { name: "Export CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^sales-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);

      await openTab(page, "Traffic");
      await page.getByRole("region", { name: "Sources", exact: true }).waitFor();
      await screenshot(page, `analytics-traffic-${name}`);
      await page.goto(`${base}/config/sites/${owner.siteId}`);
      await page.getByRole("region", { name: "Last 30 days" }).getByText("Conversion").waitFor();
      await screenshot(page, `analytics-overview-${name}`);
    }
  });
});
