import { describe, expect, it } from "vitest";
import {
  addToCartButtonLabel,
  CART_COUNT_CAP,
  cartCountLabel,
  findVariant,
  isCartPillVisible,
  isQuantityInputHidden,
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_QUANTITY_NOT_A_NUMBER,
  MSG_QUANTITY_NOT_WHOLE,
  MSG_QUANTITY_OUT_OF_RANGE,
  MSG_VARIANT_UNAVAILABLE,
  optionNames,
  QUANTITY_MAX,
  QUANTITY_MIN,
  quantityLabel,
  selectOptionsMessage,
  validateAddToCart,
  validateQuantity,
} from "./cart-validation.js";

const shirt = {
  variantOptionOrdering: ["Size", "Color"],
  structuredContent: {
    productType: 1,
    variants: [
      { id: "v1", sku: "S-R", attributes: { Size: "S", Color: "Red" }, qtyInStock: 2 },
      { id: "v2", sku: "M-R", attributes: { Size: "M", Color: "Red" }, qtyInStock: 0 },
      { id: "v3", sku: "M-B", attributes: { Size: "M", Color: "Blue" }, unlimited: true },
    ],
  },
};

describe("messages", () => {
  it("has the SPEC's words", () => {
    expect(MSG_VARIANT_UNAVAILABLE).toBe(
      "Sorry, that item variant is unavailable. Please select another variant.",
    );
    expect(MSG_NOT_ENOUGH_STOCK).toBe("Sorry, we do not have enough of that item available.");
    expect(MSG_QUANTITY_NOT_A_NUMBER).toBe("Quantity must be a number.");
    expect(MSG_QUANTITY_NOT_WHOLE).toBe("Quantity must be a whole number");
    expect(MSG_GIFT_CARD_DENOMINATION).toBe("Select a denomination for the Gift Card");
  });
  it("lists unselected options", () => {
    expect(selectOptionsMessage([])).toBe("");
    expect(selectOptionsMessage(["Size"])).toBe("Please select the Size option.");
    expect(selectOptionsMessage(["Size", "Color"])).toBe("Please select the Size and Color options.");
    expect(selectOptionsMessage(["Size", "Color", "Fit"])).toBe(
      "Please select the Size, Color and Fit options.",
    );
    expect(selectOptionsMessage(["A", "B", "C", "D"])).toBe("Please select the A, B, C and D options.");
  });
});

describe("quantity", () => {
  it("accepts whole numbers from 1 to 9999", () => {
    expect([QUANTITY_MIN, QUANTITY_MAX]).toEqual([1, 9999]);
    expect(validateQuantity("3")).toEqual({ ok: true, quantity: 3 });
    expect(validateQuantity(9999)).toEqual({ ok: true, quantity: 9999 });
    expect(validateQuantity("abc")).toEqual({ ok: false, error: MSG_QUANTITY_NOT_A_NUMBER });
    expect(validateQuantity("")).toEqual({ ok: false, error: MSG_QUANTITY_NOT_A_NUMBER });
    expect(validateQuantity("1.5")).toEqual({ ok: false, error: MSG_QUANTITY_NOT_WHOLE });
    expect(validateQuantity(0)).toEqual({ ok: false, error: MSG_QUANTITY_OUT_OF_RANGE });
    expect(validateQuantity(10000)).toEqual({ ok: false, error: MSG_QUANTITY_OUT_OF_RANGE });
  });
  it("labels and hides the quantity input", () => {
    expect(quantityLabel(undefined)).toBe("Quantity");
    expect(quantityLabel("")).toBe("Quantity");
    expect(quantityLabel("Menge")).toBe("Menge");
    expect(
      isQuantityInputHidden({ structuredContent: { productType: 1, variants: [{ qtyInStock: 1 }] } }),
    ).toBe(true);
    expect(
      isQuantityInputHidden({ structuredContent: { productType: 1, variants: [{ qtyInStock: 2 }] } }),
    ).toBe(false);
    expect(isQuantityInputHidden(shirt)).toBe(false);
  });
});

describe("cart count and labels", () => {
  it("caps the count at 100", () => {
    expect(CART_COUNT_CAP).toBe(100);
    expect(cartCountLabel(0)).toBe("0");
    expect(cartCountLabel(100)).toBe("100");
    expect(cartCountLabel(101)).toBe("100+");
    expect(isCartPillVisible(0)).toBe(false);
    expect(isCartPillVisible(1)).toBe(true);
  });
  it("falls back to Add To Cart or Subscribe", () => {
    expect(addToCartButtonLabel({})).toBe("Add To Cart");
    expect(addToCartButtonLabel({ isSubscribable: true })).toBe("Subscribe");
    expect(addToCartButtonLabel({ isSubscribable: "true", subscribeText: "SUBSCRIBE" })).toBe("SUBSCRIBE");
    expect(addToCartButtonLabel({ addToCartText: "ADD ITEM" })).toBe("ADD ITEM");
    expect(addToCartButtonLabel({ useCustomAddButtonText: true, customAddButtonText: "Add This" })).toBe(
      "Add This",
    );
    expect(addToCartButtonLabel({ useCustomAddButtonText: false, customAddButtonText: "Add This" })).toBe(
      "Add To Cart",
    );
  });
});

describe("add to cart", () => {
  it("derives option names", () => {
    expect(optionNames(shirt)).toEqual(["Size", "Color"]);
    expect(
      optionNames({
        structuredContent: { variants: [{ attributes: { A: "1" } }, { attributes: { B: "2" } }] },
      }),
    ).toEqual(["A", "B"]);
  });
  it("matches variants by attributes", () => {
    expect(findVariant(shirt.structuredContent.variants, { Size: "M", Color: "Blue" })?.id).toBe("v3");
    expect(findVariant(shirt.structuredContent.variants, { Size: "S", Color: "Blue" })).toBeUndefined();
    expect(findVariant(shirt.structuredContent.variants, { Size: "M" })).toBeUndefined();
  });
  it("asks for every missing option", () => {
    expect(validateAddToCart({ product: shirt, selection: {} })).toEqual({
      ok: false,
      error: "Please select the Size and Color options.",
    });
    expect(validateAddToCart({ product: shirt, selection: { Size: "M", Color: "" } })).toEqual({
      ok: false,
      error: "Please select the Color option.",
    });
  });
  it("rejects unavailable variants, bad quantities and missing stock", () => {
    expect(validateAddToCart({ product: shirt, selection: { Size: "S", Color: "Blue" } })).toEqual({
      ok: false,
      error: MSG_VARIANT_UNAVAILABLE,
    });
    expect(
      validateAddToCart({ product: shirt, selection: { Size: "S", Color: "Red" }, quantity: "x" }),
    ).toEqual({
      ok: false,
      error: MSG_QUANTITY_NOT_A_NUMBER,
    });
    expect(validateAddToCart({ product: shirt, selection: { Size: "M", Color: "Red" } })).toEqual({
      ok: false,
      error: MSG_NOT_ENOUGH_STOCK,
    });
    expect(
      validateAddToCart({ product: shirt, selection: { Size: "S", Color: "Red" }, quantity: 3 }),
    ).toEqual({
      ok: false,
      error: MSG_NOT_ENOUGH_STOCK,
    });
    expect(
      validateAddToCart({
        product: shirt,
        selection: { Size: "S", Color: "Red" },
        quantity: 1,
        alreadyInCart: 2,
      }),
    ).toEqual({ ok: false, error: MSG_NOT_ENOUGH_STOCK });
  });
  it("accepts a valid request", () => {
    const ok = validateAddToCart({
      product: shirt,
      selection: { Size: "M", Color: "Blue" },
      quantity: "500",
    });
    expect(ok).toMatchObject({ ok: true, quantity: 500, variant: { id: "v3" } });
    const single = { structuredContent: { productType: 1, variants: [{ id: "only", qtyInStock: 5 }] } };
    expect(validateAddToCart({ product: single })).toMatchObject({
      ok: true,
      quantity: 1,
      variant: { id: "only" },
    });
  });
  it("needs a gift card denomination", () => {
    const card = {
      structuredContent: {
        productType: 4,
        variants: [
          { id: "g25", sku: "GC25" },
          { id: "g50", sku: "GC50" },
        ],
      },
    };
    expect(validateAddToCart({ product: card })).toEqual({ ok: false, error: MSG_GIFT_CARD_DENOMINATION });
    expect(validateAddToCart({ product: card, giftCardDenomination: "GC50" })).toMatchObject({
      ok: true,
      variant: { id: "g50" },
    });
  });
});
