import { describe, expect, it } from "vitest";
import {
  hasVariants,
  hasVariedPrices,
  highestPriceMoney,
  isOnSale,
  isSoldOut,
  jsonEquals,
  moneyAmount,
  lowestPriceMoney,
  lowestSalePriceMoney,
  ProductType,
  parseProductType,
  productTypeName,
  productTypeOf,
  toBoolean,
  toNumber,
  totalStock,
  tracksStock,
  truthy,
  unboxNumber,
  ZERO_MONEY,
} from "./availability.js";

const product = (productType: unknown, variants: unknown[], extra: Record<string, unknown> = {}) => ({
  structuredContent: { productType, variants, ...extra },
});

const money = (value: string) => ({ value, currency: "USD" });

describe("product types", () => {
  it("has the SPEC codes", () => {
    expect([
      ProductType.PHYSICAL,
      ProductType.DIGITAL,
      ProductType.SERVICE,
      ProductType.GIFT_CARD,
      ProductType.PAYWALL,
    ]).toEqual([1, 2, 3, 4, 5]);
  });
  it("parses codes, numeric strings and template names", () => {
    expect(parseProductType(1)).toBe(ProductType.PHYSICAL);
    expect(parseProductType("3")).toBe(ProductType.SERVICE);
    expect(parseProductType("gift-card")).toBe(ProductType.GIFT_CARD);
    expect(parseProductType("digital")).toBe(ProductType.DIGITAL);
    expect(parseProductType("x")).toBeUndefined();
    expect(parseProductType(9)).toBeUndefined();
    expect(productTypeName(ProductType.GIFT_CARD)).toBe("gift-card");
    expect(productTypeName(ProductType.PHYSICAL)).toBe("physical");
    expect(productTypeName(ProductType.PAYWALL)).toBe("paywall");
    expect(parseProductType("paywall")).toBe(ProductType.PAYWALL);
    expect(productTypeOf({ structuredContent: { productType: "2" } })).toBe(ProductType.DIGITAL);
    expect(productTypeOf({ productType: 4 })).toBe(ProductType.GIFT_CARD);
  });
  it("counts stock for physical products and services only", () => {
    const tracked = [ProductType.PHYSICAL, ProductType.SERVICE];
    const untracked = [ProductType.DIGITAL, ProductType.GIFT_CARD, ProductType.PAYWALL, undefined];
    expect(tracked.every(tracksStock)).toBe(true);
    expect(untracked.some(tracksStock)).toBe(false);
  });
});

/** A boxed number like the JSON-T parser's exact numbers (`1.0`). */
class Boxed {
  constructor(
    readonly value: number,
    readonly text: string,
  ) {}
  valueOf(): number {
    return this.value;
  }
  toString(): string {
    return this.text;
  }
}

describe("boxed numbers", () => {
  it("reads them as numbers", () => {
    expect(unboxNumber(new Boxed(2, "2.0"))).toBe(2);
    expect(unboxNumber({ a: 1 })).toEqual({ a: 1 });
    expect(truthy(new Boxed(0, "0.0"))).toBe(false);
    expect(toNumber(new Boxed(3, "3.0"))).toBe(3);
    expect(jsonEquals(new Boxed(100, "100.0"), 100)).toBe(true);
    expect(totalStock(product(1, [{ qtyInStock: new Boxed(2, "2.0") }]))).toBe(2);
    expect(moneyAmount({ value: new Boxed(100, "100.0") })).toEqual({ coefficient: 100n, scale: 0 });
    expect(moneyAmount({ decimalValue: "1.50" })).toEqual({ coefficient: 15n, scale: 1 });
    expect(moneyAmount({ value: null })).toEqual({ coefficient: 0n, scale: 0 });
    expect(toBoolean("true")).toBe(true);
    expect(toBoolean("yes")).toBe(false);
  });
});

describe("availability", () => {
  it("has variants when more than one, never for digital", () => {
    expect(hasVariants(product(1, [{}, {}]))).toBe(true);
    expect(hasVariants(product(1, [{}]))).toBe(false);
    expect(hasVariants(product(2, [{}, {}]))).toBe(false);
    expect(hasVariants({})).toBe(false);
  });
  it("is on sale when any variant is", () => {
    expect(isOnSale(product(1, [{ onSale: false }, { onSale: true }]))).toBe(true);
    expect(isOnSale(product(3, [{ onSale: false }]))).toBe(false);
    expect(isOnSale(product(2, [], { onSale: true }))).toBe(true);
    expect(isOnSale(product(4, [{ onSale: true }]))).toBe(false);
  });
  it("is sold out when no variant is unlimited or in stock", () => {
    expect(isSoldOut(product(1, [{ qtyInStock: 0 }, { qtyInStock: 0 }]))).toBe(true);
    expect(isSoldOut(product(1, [{ qtyInStock: 0 }, { qtyInStock: 2 }]))).toBe(false);
    expect(isSoldOut(product(3, [{ qtyInStock: 0, unlimited: true }]))).toBe(false);
    expect(isSoldOut(product(1, []))).toBe(true);
    expect(isSoldOut(product(2, [{ qtyInStock: 0 }]))).toBe(false);
    expect(isSoldOut(product(4, [{ qtyInStock: 0 }]))).toBe(false);
  });
  it.each([
    { type: 1, variants: [{ price: 100 }, { price: 100 }], varied: false },
    { type: 1, variants: [{ price: 100 }, { price: 200 }], varied: true },
    { type: 1, variants: [{ price: 100, onSale: true }, { price: 100 }], varied: true },
    {
      type: 1,
      variants: [
        { price: 100, onSale: true, salePrice: 50 },
        { price: 100, onSale: true, salePrice: 60 },
      ],
      varied: true,
    },
    {
      type: 1,
      variants: [
        { price: 100, onSale: false, salePrice: 50 },
        { price: 100, onSale: false, salePrice: 60 },
      ],
      varied: false,
    },
    { type: 2, variants: [{ price: 1 }, { price: 2 }], varied: false },
  ])(
    "detects varied prices: type $type, $variants.length variants → $varied",
    ({ type, variants, varied }) => {
      expect(hasVariedPrices(product(type, variants))).toBe(varied);
    },
  );
  it("totals stock", () => {
    expect(totalStock(product(1, [{ qtyInStock: 2 }, { qtyInStock: 3 }]))).toBe(5);
    expect(totalStock(product(1, [{ qtyInStock: 2 }, { unlimited: true }]))).toBe(Number.POSITIVE_INFINITY);
    expect(totalStock(product(2, []))).toBe(Number.POSITIVE_INFINITY);
    expect(totalStock(product(4, [{ qtyInStock: 0 }]))).toBe(Number.POSITIVE_INFINITY);
  });
  it("finds the lowest, highest and sale prices", () => {
    const p = product(1, [
      { priceMoney: money("30"), salePriceMoney: money("10"), onSale: true },
      { priceMoney: money("20") },
      { priceMoney: money("40"), salePriceMoney: money("15"), onSale: true },
    ]);
    expect(lowestPriceMoney(p)).toEqual(money("10"));
    expect(highestPriceMoney(p)).toEqual(money("40"));
    expect(lowestSalePriceMoney(p)).toEqual(money("10"));
    expect(lowestSalePriceMoney(product(1, [{ priceMoney: money("1") }]))).toEqual(ZERO_MONEY);
    expect(lowestPriceMoney(product(2, [], { priceMoney: money("5") }))).toEqual(money("5"));
    expect(highestPriceMoney(product(1, []))).toEqual(ZERO_MONEY);
  });
});
