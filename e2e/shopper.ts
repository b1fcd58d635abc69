/** A visitor of the demo shop: puts a candle in the cart and fills in the checkout page by its labels. */
import type { Page } from "playwright-core";
import { inject } from "vitest";

export async function addCandle(page: Page, quantity = 1) {
  await page.goto(`${inject("baseUrl")}/shop/p/beeswax-candle`);
  await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
  await page.getByRole("combobox", { name: "Select Height" }).selectOption("4 in");
  if (quantity > 1) await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add To Cart" }).click();
  await page.waitForFunction(
    () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "added",
  );
}

export async function fillCheckout(page: Page, cardNumber: string) {
  const shipping = page.getByRole("group", { name: "Shipping address" });
  await page.getByLabel("Email", { exact: true }).fill("visitor@example.com");
  await shipping.getByLabel("First name", { exact: true }).fill("Ada");
  await shipping.getByLabel("Last name", { exact: true }).fill("Lovelace");
  await shipping.getByLabel("Address", { exact: true }).fill("12 Mercer Street");
  await shipping.getByLabel("City", { exact: true }).fill("New York");
  await shipping.getByLabel("State", { exact: true }).fill("NY");
  await shipping.getByLabel("ZIP or postal code", { exact: true }).fill("10013");
  await shipping.getByLabel("Country", { exact: true }).selectOption("US");
  // The options and the New York tax arrive with the quote for the address.
  await page.getByText("New York sales tax (8.88%)").waitFor();
  await page.getByRole("radio", { name: /Standard/ }).check();
  await page.getByLabel("Card number", { exact: true }).fill(cardNumber);
  await page.getByLabel("Expiry", { exact: true }).fill("12 / 34");
  await page.getByLabel("CVC", { exact: true }).fill("123");
}
