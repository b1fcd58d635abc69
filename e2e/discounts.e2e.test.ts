/**
 * Automatic discounts in Chromium: the owner adds "Free shipping over $50" (on the ceramic planter,
 * which no other browser test buys) in Marketing › Discounts; a shopper who puts a $52
 * planter in the cart sees the discount by name in the cart island, pays without shipping at
 * checkout, and the order (confirmation page and owner API) keeps the discount line. Screenshots
 * of the dashboard screen and the cart at desktop and phone width.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { DESKTOP, PHONE, browser, screenshot, useBrowser, visitorPage } from "./browser.js";
import { demoOwnerLogIn, ownerCall } from "./owner.js";
import { fillAddress, fillCard } from "./shopper.js";

const base = inject("baseUrl");
useBrowser();

/** Resizes the dashboard to a phone and waits until the menu has slid away. */
async function toPhone(page: Page) {
  await page.setViewportSize(PHONE);
  await page.locator("#dashboard-navigation").waitFor({ state: "hidden" });
}

describe("an automatic discount", () => {
  it("is made in the dashboard, shows in the cart island and is kept on the order", async () => {
    const { page: dash, siteId, errors: dashErrors, context } = await demoOwnerLogIn(browser, base, DESKTOP);
    const api = `/api/owner/sites/${siteId}`;
    let discountId: string | undefined;
    try {
      // The old Store settings tab leads to Marketing › Discounts, which the menu lists.
      await dash.goto(`${base}/config/sites/${siteId}/store/discounts`);
      await dash.waitForURL(/\/marketing\/discounts$/);
      await dash.getByRole("heading", { name: "Discounts", level: 1 }).waitFor();
      await dash.getByRole("link", { name: "Discounts", exact: true }).first().waitFor();
      await dash
        .getByRole("navigation", { name: "Discounts" })
        .getByRole("link", { name: "Coupons" })
        .click();
      await dash.waitForURL(/\/marketing\/discounts\/coupons$/);
      await dash.getByRole("button", { name: "Add coupon" }).waitFor();
      await dash.goto(`${base}/config/sites/${siteId}/store/coupons`);
      await dash.waitForURL(/\/marketing\/discounts\/coupons$/);
      await dash.goto(`${base}/config/sites/${siteId}/marketing/discounts`);
      await dash.getByRole("button", { name: "Add discount" }).click();
      const dialog = dash.getByRole("dialog", { name: "Add discount" });
      await dialog.getByLabel("Name", { exact: true }).fill("Free shipping over $50");
      await dialog.getByLabel("Discount", { exact: true }).selectOption("free_shipping");
      await dialog.getByRole("checkbox", { name: "Ceramic Planter" }).check();
      await dialog.getByLabel(/^Minimum subtotal/).fill("50");
      await screenshot(dash, "discounts-form-desktop");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.waitFor({ state: "detached" });
      await dash.getByRole("cell", { name: "Free shipping over $50", exact: true }).first().waitFor();
      await screenshot(dash, "discounts-list-desktop");
      const { discounts } = await ownerCall<{
        discounts: {
          id: string;
          name: string;
          appliesTo: { productIds: string[] };
          conditions: { minSubtotalCents: number };
        }[];
      }>(dash, "GET", `${api}/discounts`);
      const made = discounts.find((d) => d.name === "Free shipping over $50")!;
      discountId = made.id;
      expect(made.conditions.minSubtotalCents).toBe(5000);
      expect(made.appliesTo.productIds).toHaveLength(1);
      await toPhone(dash);
      await screenshot(dash, "discounts-list-phone");
      await dash.getByRole("button", { name: "Edit Free shipping over $50" }).click();
      await dash.getByRole("dialog", { name: "Edit discount" }).waitFor();
      await screenshot(dash, "discounts-form-phone");
      await dash.getByRole("button", { name: "Cancel" }).click();

      // The shopper.
      const { page, errors } = await visitorPage(DESKTOP);
      await page.goto(`${base}/shop/p/ceramic-planter`);
      await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
      await page.getByRole("combobox", { name: "Select Size" }).selectOption("Medium");
      await page.getByRole("button", { name: "Add To Cart" }).click();
      await page.waitForFunction(
        () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "added",
      );
      await page.goto(`${base}/cart`);
      const line = page.locator(".cart-discount");
      await line.waitFor();
      await expect(line.innerText()).resolves.toMatch(/Free shipping over \$50\s+Free shipping/);
      await screenshot(page, "discounts-cart-desktop");
      await page.setViewportSize(PHONE);
      await screenshot(page, "discounts-cart-phone");
      await page.setViewportSize(DESKTOP);

      await page.goto(`${base}/checkout`);
      await page.getByLabel("Email", { exact: true }).fill("planter@example.com");
      await fillAddress(page.getByRole("group", { name: "Shipping address" }));
      await page.getByText("New York sales tax (8.88%)").waitFor();
      await page.getByRole("radio", { name: /Standard/ }).check();
      const totals = page.locator(".checkout-totals");
      await totals.getByText("Free shipping over $50").waitFor();
      await fillCard(page, "4242 4242 4242 4242");
      // $52 planter, no shipping, 8.88% New York tax on $52 ($4.62).
      await expect(page.getByRole("button", { name: /^Pay \$/ }).innerText()).resolves.toBe("Pay $56.62");
      await page.getByRole("button", { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
      const orderId = new URL(page.url()).searchParams.get("orderId")!;
      await page.locator(".order-totals").getByText("Free shipping over $50").waitFor();
      await screenshot(page, "discounts-confirmation-desktop");

      const { order } = await ownerCall<{
        order: {
          shippingCents: number;
          discounts: { name: string; amountCents: number; shippingCents: number }[];
        };
      }>(dash, "GET", `${api}/orders/${orderId}`);
      expect(order.shippingCents).toBe(0);
      expect(order.discounts).toEqual([
        { name: "Free shipping over $50", amountCents: 0, shippingCents: 800 },
      ]);

      // The orders export (Shopify's CSV) keeps the discount; the refund dialog suggests the
      // chosen units' amount after their share of the discounts.
      await dash.setViewportSize(DESKTOP);
      await dash.goto(`${base}/config/sites/${siteId}/ops/orders`);
      const exportLink = dash.getByRole("link", { name: "Export CSV (Shopify format)" });
      await exportLink.waitFor();
      await dash
        .getByRole("link", { name: /^#\d+$/ })
        .first()
        .waitFor();
      await screenshot(dash, "orders-export-desktop");
      const csv = await dash.context().request.get(`${base}${await exportLink.getAttribute("href")}`);
      expect(csv.status()).toBe(200);
      expect(await csv.text()).toContain("Free shipping over $50");
      await toPhone(dash);
      await screenshot(dash, "orders-export-phone");
      await dash.setViewportSize(DESKTOP);
      await dash.goto(`${base}/config/sites/${siteId}/ops/orders/${orderId}`);
      await dash.getByRole("button", { name: "Refund", exact: true }).click();
      const refund = dash.getByRole("dialog", { name: /^Refund order #\d+$/ });
      await refund.getByLabel("Units of Ceramic Planter").fill("1");
      await expect.poll(() => refund.getByLabel(/^Amount to refund/).inputValue()).toBe("56.62");
      await refund.getByText("Refund $56.62").waitFor();
      await screenshot(dash, "refund-dialog-desktop");
      await refund.getByRole("button", { name: "Back" }).click();
      await toPhone(dash);
      await dash.getByRole("button", { name: "Refund", exact: true }).click();
      await refund.getByLabel("Units of Ceramic Planter").fill("1");
      await refund.getByText("Refund $56.62").waitFor();
      await screenshot(dash, "refund-dialog-phone");
      await refund.getByRole("button", { name: "Back" }).click();

      expect(errors).toEqual([]);
      expect(dashErrors).toEqual([]);
      await page.close();
    } finally {
      if (discountId) await ownerCall(dash, "DELETE", `${api}/discounts/${discountId}`);
      await context.close();
    }
  });
});
