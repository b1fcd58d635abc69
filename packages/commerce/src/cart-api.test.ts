import { describe, expect, it } from "vitest";
import { checkoutUrl, giftCardUrl } from "./cart-api.js";

describe("where a purchase goes", () => {
  it("express checkout and subscriptions go to the checkout page with the cart token", () => {
    expect(checkoutUrl()).toBe("/checkout");
    expect(checkoutUrl("abc-_123")).toBe("/checkout?cartToken=abc-_123");
    expect(checkoutUrl("a b&c")).toBe("/checkout?cartToken=a%20b%26c");
  });

  it("gift cards go to the gift card page with the item and the chosen denomination", () => {
    expect(giftCardUrl("item1", "ATEGIFCAR-02")).toBe("/checkout/gift-card?itemId=item1&sku=ATEGIFCAR-02");
    expect(giftCardUrl("i&d", "s/k")).toBe("/checkout/gift-card?itemId=i%26d&sku=s%2Fk");
  });
});
