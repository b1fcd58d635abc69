/**
 * A visitor's account in a browser: sign up (with an error first), see the orders placed from
 * their cart, sign out, sign in again (a wrong password first), and keep an address book.
 */
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { orderBody } from "../apps/server/test/fixtures.js";
import { DESKTOP, PHONE, screenshotFromTop as screenshot, browser, useBrowser } from "./browser.js";

const base = inject("baseUrl");

useBrowser();

/** A call from the page, with the crumb as the storefront sends it. */
async function call(page: Page, path: string, method: string, body?: unknown) {
  return page.evaluate(
    async ({ path, method, body }) => {
      const crumb = /(?:^|;\s*)crumb=([^;]+)/.exec(document.cookie)?.[1] ?? "";
      const res = await fetch(path, {
        method,
        headers: { "content-type": "application/json", "x-csrf-token": decodeURIComponent(crumb) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { path, method, body },
  );
}

async function addToCart(page: Page) {
  await page.goto(`${base}/shop/p/linen-work-apron`);
  const product = await (await page.request.get(`${base}/shop/p/linen-work-apron?format=json`)).json();
  const variant = product.item.structuredContent.variants[0];
  const added = await call(page, "/api/commerce/shopping-cart/entries", "POST", {
    itemId: product.item.id,
    sku: variant.sku,
    quantity: 1,
  });
  expect(added.status).toBe(200);
  return product.item.title as string;
}

async function signUp(page: Page, email: string, name: string) {
  await page.goto(`${base}/account`);
  await page.waitForURL(/\/account\/login\?redirect=%2Faccount$/);
  await page.getByRole("link", { name: "Create an account" }).click();
  await page.waitForURL(/\/account\/register/);
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password (8 or more characters)").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Password must be at least 8 characters.").waitFor();
  await screenshot(page, `account-register-error-${name}`);
  await page.getByLabel("Password (8 or more characters)").fill("correct horse battery");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.waitForURL(`${base}/account`);
  await page.getByText(`Signed in as Ada Lovelace (${email}).`).waitFor();
}

describe("site users in a browser", () => {
  it("signs up, sees their orders, signs out and back in (desktop)", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const email = "ada.account@example.com";

    const product = await addToCart(page);
    await signUp(page, email, "desktop");
    await expect(page.getByText("You have no orders yet.").isVisible()).resolves.toBe(true);
    await screenshot(page, "account-overview-empty-desktop");

    // An order placed from the cart the visitor brought to their account.
    const placed = await call(
      page,
      "/api/commerce/orders",
      "POST",
      orderBody({ email, idempotencyKey: "e2e-site-user-order-1" }),
    );
    expect(placed.status).toBe(201);
    const orderNumber = placed.body.order.orderNumber as number;

    await page.goto(`${base}/account/orders`);
    await page.getByText(`Order #${orderNumber}`).waitFor();
    await expect(page.getByText(product, { exact: false }).first().isVisible()).resolves.toBe(true);
    await screenshot(page, "account-orders-desktop");

    // Sign out: the account is refused until the visitor signs in again.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/`);
    await page.goto(`${base}/account/orders`);
    await page.waitForURL(/\/account\/login\?redirect=%2Faccount%2Forders$/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("The email or password is incorrect.").waitFor();
    await screenshot(page, "account-login-error-desktop");
    await page.getByLabel("Password").fill("correct horse battery");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(`${base}/account/orders`);
    await page.getByText(`Order #${orderNumber}`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps an address book and signs out (phone)", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/account/login`);
    await page.getByRole("button", { name: "Sign in" }).waitFor();
    await screenshot(page, "account-login-phone");
    await signUp(page, "grace.account@example.com", "phone");
    await screenshot(page, "account-overview-phone");

    await page.getByRole("link", { name: "Manage addresses" }).click();
    await page.waitForURL(`${base}/account/addresses`);
    await page.getByRole("button", { name: "Add an address" }).click();
    await page.getByLabel("First name").fill("Grace");
    await page.getByRole("button", { name: "Save address" }).click();
    await page.getByText("Please correct the highlighted fields.").waitFor();
    await expect(page.locator(".account-field-error", { hasText: "Required" }).count()).resolves.toBe(5);
    await screenshot(page, "account-address-errors-phone");
    await page.getByLabel("Last name").fill("Hopper");
    await page.getByLabel("Address 1").fill("1 Navy Yard");
    await page.getByLabel("City").fill("Arlington");
    await page.getByLabel("State/Province").fill("VA");
    await page.getByLabel("ZIP/Postal code").fill("22202");
    await page.getByLabel("Country").fill("US");
    await page.getByRole("button", { name: "Save address" }).click();
    await page.locator("address", { hasText: "1 Navy Yard" }).waitFor();
    await screenshot(page, "account-addresses-phone");
    await page.reload();
    await page.locator("address", { hasText: "1 Navy Yard" }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${base}/`);
    const account = await call(page, "/api/site-users/account", "GET");
    expect(account.status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
