/**
 * Checkout in Chromium: a visitor adds a product, fills in the checkout page (every input found
 * by its visible label), pays with the test card and reaches the order-confirmed page; the
 * 3-D Secure test card walks through its challenge (completed, then failed); the page sends
 * the checkout-page-loaded event with the browser's performance metrics. Desktop and phone.
 */
import type { BrowserContext, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import {
  DESKTOP,
  DEVICES,
  PHONE,
  described,
  screenshot,
  screenshotFromTop,
  browser,
  useBrowser,
} from "./browser.js";
import { addCandle, fillAddress, fillCard, fillCheckout } from "./shopper.js";

const base = inject("baseUrl");
useBrowser();

const LABELS = [
  "Email",
  "First name",
  "Last name",
  "Address",
  "City",
  "State",
  "ZIP or postal code",
  "Country",
  "Card number",
  "Expiry",
  "CVC",
];

async function newPage(viewport: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { context, page, errors };
}

/** A new page with a candle in the cart, on the checkout page filled in with the card ("" for none). */
async function filledCheckout(viewport: { width: number; height: number }, cardNumber: string) {
  const opened = await newPage(viewport);
  await addCandle(opened.page);
  await opened.page.goto(`${base}/checkout`);
  await fillCheckout(opened.page, cardNumber);
  return opened;
}

describe("checkout in a browser", () => {
  for (const [name, viewport] of DEVICES) {
    it(`buys with the test card and reaches the order-confirmed page (${name})`, async () => {
      const { context, page, errors } = await newPage(viewport);
      await addCandle(page, 2);
      const loaded = page.waitForRequest(
        (r) => r.url().endsWith("/api/commerce/checkout/events") && r.method() === "POST",
      );
      await page.goto(`${base}/checkout`);
      await page.getByRole("button", { name: /^Pay \$/ }).waitFor();
      for (const label of LABELS) {
        await expect(page.getByLabel(label, { exact: true }).first().isVisible(), label).resolves.toBe(true);
      }
      const event = JSON.parse((await loaded).postData() ?? "{}");
      expect(event.event).toBe("checkout-page-loaded");
      expect(event.data.ttfbMs).toBeGreaterThanOrEqual(0);
      expect(event.data.domContentLoadedMs).toBeGreaterThan(0);

      await fillCheckout(page, "4242 4242 4242 4242");
      await expect(page.getByRole("button", { name: /^Pay \$/ }).innerText()).resolves.toBe("Pay $56.62");
      await screenshot(page, `checkout-${name}`);
      await page.getByRole("button", { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
      await page.getByRole("heading", { name: /^Order #\d+$/ }).waitFor();
      await expect(
        page.getByText("A confirmation was sent to visitor@example.com.", { exact: false }).isVisible(),
      ).resolves.toBe(true);
      await expect(page.getByText("2 × Beeswax Pillar Candle").isVisible()).resolves.toBe(true);
      await screenshot(page, `checkout-confirmed-${name}`);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it("walks the 3-D Secure card through its challenge", async () => {
    const { context, page, errors } = await filledCheckout(DESKTOP, "4000 0027 6000 3184");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your payment" });
    await dialog.waitFor();
    await expect(dialog.innerText()).resolves.toContain("card ending 3184");
    await page.waitForTimeout(500); // the dialog fades in
    await screenshot(page, "checkout-3ds-challenge-desktop", { fullPage: false });
    await dialog.getByRole("button", { name: "Complete authentication" }).click();
    await page.waitForURL(/\/checkout\/order-confirmed\?/);
    await page.getByRole("heading", { name: /^Order #\d+$/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the decline when the challenge fails, and pays with another card after", async () => {
    const { context, page } = await filledCheckout(PHONE, "4000 0027 6000 3184");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your payment" });
    await dialog.waitFor();
    await page.waitForTimeout(500);
    // The challenge as the visitor sees it (a full-page shot misplaces fixed layers).
    await screenshot(page, "checkout-3ds-challenge-phone-viewport", { fullPage: false });
    await dialog.getByRole("button", { name: "Fail authentication" }).click();
    const alert = page.locator(".checkout-message[role=alert]");
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toBe(
      "The extra authentication of your card failed. Please try again or use another card.",
    );
    // A number that cannot be a card is refused on the card's own field, in the server's words,
    // by the browser before any order is sent.
    const orders: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/commerce/orders")) orders.push(r.url());
    });
    const cardField = page.getByLabel("Card number", { exact: true });
    await cardField.fill("4242 4242 4242 4241");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForFunction(
      () =>
        document.querySelector(".checkout-message")?.textContent === "Please check the highlighted fields.",
    );
    await expect(cardField.getAttribute("aria-invalid")).resolves.toBe("true");
    await expect(described(page, cardField)).resolves.toBe("Your card number is incorrect.");
    expect(orders).toEqual([]);
    await screenshotFromTop(page, "checkout-bad-number-phone");
    await page.setViewportSize(DESKTOP);
    await screenshotFromTop(page, "checkout-bad-number-desktop");
    await page.setViewportSize(PHONE);
    await cardField.fill("4000 0000 0000 0002");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForFunction(
      () => document.querySelector(".checkout-message")?.textContent === "Your card was declined.",
    );
    await screenshot(page, "checkout-declined-phone");
    await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/checkout\/order-confirmed\?/);
    await context.close();
  });

  it("takes a coupon and explains a code it cannot take", async () => {
    const { context, page } = await newPage(DESKTOP);
    await addCandle(page, 3);
    await page.goto(`${base}/checkout`);
    const code = page.getByLabel("Coupon or gift card code", { exact: true });
    // Two codes typed at once are two codes: one taken, one explained.
    await code.fill("nope, welcome10");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByText("This code is not valid.").waitFor();
    await page.getByText("Discount (WELCOME10)").waitFor();
    await page.getByRole("button", { name: "Remove WELCOME10" }).waitFor();
    await page.getByRole("button", { name: "Remove NOPE" }).click();
    await expect(page.getByText("This code is not valid.").count()).resolves.toBe(0);
    await screenshot(page, "checkout-coupon-desktop");
    await context.close();
  });

  it("sends a gift card: recipient on the gift card page, then the checkout without shipping", async () => {
    const { context, page, errors } = await newPage(DESKTOP);
    await page.goto(`${base}/shop/p/atelier-gift-card`);
    await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
    await page.getByRole("combobox", { name: "Value" }).selectOption({ label: "$50.00" });
    await page.locator(".sqs-add-to-cart-button").click();
    await page.waitForURL(/\/checkout\/gift-card\?/);
    await page.getByLabel("Recipient email", { exact: true }).fill("friend@example.com");
    await page.getByLabel("Recipient name (optional)", { exact: true }).fill("Grace");
    await page.getByLabel("Message (optional)", { exact: true }).fill("Happy birthday!");
    await screenshot(page, "checkout-gift-card-desktop");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/checkout\?cartToken=/);
    await page.getByRole("button", { name: "Pay $50.00" }).waitFor();
    await expect(page.getByRole("group", { name: "Shipping address" }).count()).resolves.toBe(0);
    await page.getByLabel("Email", { exact: true }).fill("giver@example.com");
    await fillAddress(page.getByRole("group", { name: "Billing address" }), {
      city: "Boston",
      state: "MA",
      postalCode: "02108",
    });
    await fillCard(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: "Pay $50.00" }).click();
    await page.waitForURL(/\/checkout\/order-confirmed\?/);
    await page.getByText("1 × Atelier Gift Card").waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("subscribes from the product page and reaches the subscription-confirmed page (206)", async () => {
    const { context, page, errors } = await newPage(PHONE);
    await page.goto(`${base}/shop/p/single-origin-coffee`);
    await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
    await page.getByRole("combobox", { name: "Select Grind" }).selectOption("Whole Bean");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL(/\/checkout\?cartToken=/);
    await page.locator(".checkout-summary").getByText("$19.00 every month").waitFor();
    await fillCheckout(page, "4242 4242 4242 4242");
    await page.getByRole("button", { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/checkout\/subscription-confirmed\?subscriptionId=/);
    await page.locator(".order-confirmation").getByText("$19.00 every month").first().waitFor();
    await expect(page.locator(".order-confirmation").innerText()).resolves.toMatch(
      /Status: Active · next payment on \w+ \d+, \d{4}/,
    );
    await page.getByRole("heading", { name: /^Order #\d+$/ }).waitFor();
    await screenshot(page, "checkout-subscription-confirmed-phone");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("pays with the test wallet from the express checkout button", async () => {
    const { context, page, errors } = await filledCheckout(DESKTOP, "");
    await page.getByRole("button", { name: "Pay with Apple Pay (test)" }).click();
    await page.waitForURL(/\/checkout\/order-confirmed\?/);
    await page.getByRole("heading", { name: /^Order #\d+$/ }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
