/** A visitor of the demo shop: puts a candle in the cart and fills in the checkout page by its labels. */
import type { Locator, Page } from "playwright-core";
import { inject } from "vitest";

export async function addCandle(page: Page, quantity = 1, base = inject("baseUrl")) {
  await page.goto(`${base}/shop/p/beeswax-candle`);
  await page.waitForSelector('.sqs-add-to-cart-button[data-ready="true"]');
  await page.getByRole("combobox", { name: "Select Height" }).selectOption("4 in");
  if (quantity > 1) await page.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await page.getByRole("button", { name: "Add To Cart" }).click();
  await page.waitForFunction(
    () => document.querySelector(".sqs-add-to-cart-button")?.getAttribute("data-state") === "added",
  );
}

/** Fills in an address group of the checkout page: Ada Lovelace of 12 Mercer Street, in `place`. */
export async function fillAddress(
  group: Locator,
  place = { city: "New York", state: "NY", postalCode: "10013" },
) {
  await group.getByLabel("First name", { exact: true }).fill("Ada");
  await group.getByLabel("Last name", { exact: true }).fill("Lovelace");
  await group.getByLabel("Address", { exact: true }).fill("12 Mercer Street");
  await group.getByLabel("City", { exact: true }).fill(place.city);
  await group.getByLabel("State", { exact: true }).fill(place.state);
  await group.getByLabel("ZIP or postal code", { exact: true }).fill(place.postalCode);
  await group.getByLabel("Country", { exact: true }).selectOption("US");
}

/** Fills in the card's number, expiry and CVC on the checkout page. */
export async function fillCard(page: Page, cardNumber: string) {
  await page.getByLabel("Card number", { exact: true }).fill(cardNumber);
  await page.getByLabel("Expiry", { exact: true }).fill("12 / 34");
  await page.getByLabel("CVC", { exact: true }).fill("123");
}

export async function fillCheckout(page: Page, cardNumber: string, email = "visitor@example.com") {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await fillAddress(page.getByRole("group", { name: "Shipping address" }));
  // The options and the New York tax arrive with the quote for the address.
  await page.getByText("New York sales tax (8.88%)").waitFor();
  await page.getByRole("radio", { name: /Standard/ }).check();
  await fillCard(page, cardNumber);
}
