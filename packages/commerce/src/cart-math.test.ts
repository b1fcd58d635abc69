import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeCartTotals, taxOn } from "./cart-math.js";

describe("cart math", () => {
  it("is all zero for an empty cart", () => {
    expect(computeCartTotals([])).toEqual({
      subtotalCents: 0,
      taxCents: 0,
      shippingCostCents: 0,
      discountCents: 0,
      grandTotalCents: 0,
      totalQuantity: 0,
      hasDigital: false,
      purelyDigital: false,
      requiresShipping: false,
    });
  });
  it("totals a mixed cart", () => {
    const totals = computeCartTotals(
      [
        { unitPriceCents: 1999, quantity: 2, productType: 1 },
        { unitPriceCents: 500, quantity: 1, productType: "digital" },
      ],
      { shippingCostCents: 700, discountCents: 498, taxRatesPercent: ["8.875"] },
    );
    expect(totals).toEqual({
      subtotalCents: 4498,
      taxCents: 355, // 4000 × 8.875% = 355
      shippingCostCents: 700,
      discountCents: 498,
      grandTotalCents: 4498 - 498 + 700 + 355,
      totalQuantity: 3,
      hasDigital: true,
      purelyDigital: false,
      requiresShipping: true,
    });
  });
  it("charges no shipping when nothing is physical", () => {
    const totals = computeCartTotals(
      [
        { unitPriceCents: 500, quantity: 1, productType: 2 },
        { unitPriceCents: 2500, quantity: 1, productType: 4 },
      ],
      { shippingCostCents: 700 },
    );
    expect(totals).toMatchObject({
      shippingCostCents: 0,
      purelyDigital: true,
      hasDigital: true,
      requiresShipping: false,
    });
    const service = computeCartTotals([{ unitPriceCents: 100, quantity: 1, productType: 3 }], {
      shippingCostCents: 1,
    });
    expect(service).toMatchObject({
      shippingCostCents: 0,
      purelyDigital: false,
      hasDigital: false,
      requiresShipping: false,
    });
  });
  it("caps discounts at the subtotal and can tax shipping", () => {
    const totals = computeCartTotals([{ unitPriceCents: 1000, quantity: 1, productType: 1 }], {
      discountCents: 5000,
      shippingCostCents: 1000,
      taxRatesPercent: [10, "0.5"],
      taxShipping: true,
    });
    expect(totals).toMatchObject({ discountCents: 1000, taxCents: 105, grandTotalCents: 1105 });
  });
  it("rounds tax half away from zero, exactly", () => {
    expect(taxOn(1000, "8.875")).toBe(89); // 88.75
    expect(taxOn(1, "50")).toBe(1); // 0.5
    expect(taxOn(333, "0")).toBe(0);
    expect(() => taxOn(1, "-1")).toThrow(RangeError);
  });
  it("rejects non-integer amounts", () => {
    expect(() => computeCartTotals([{ unitPriceCents: 1.5, quantity: 1, productType: 1 }])).toThrow(
      RangeError,
    );
    expect(() => computeCartTotals([{ unitPriceCents: 1, quantity: -1, productType: 1 }])).toThrow(
      RangeError,
    );
  });
  it("keeps the grand total consistent", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            unitPriceCents: fc.nat(100000),
            quantity: fc.integer({ min: 1, max: 99 }),
            productType: fc.constantFrom(1, 2, 3, 4),
          }),
        ),
        fc.nat(10000),
        fc.nat(100000),
        (entries, shipping, discount) => {
          const t = computeCartTotals(entries, {
            shippingCostCents: shipping,
            discountCents: discount,
            taxRatesPercent: ["7.25"],
          });
          expect(Number.isInteger(t.grandTotalCents)).toBe(true);
          expect(t.grandTotalCents).toBe(
            t.subtotalCents - t.discountCents + t.shippingCostCents + t.taxCents,
          );
          expect(t.grandTotalCents).toBeGreaterThanOrEqual(0);
          expect(t.totalQuantity).toBe(entries.reduce((n, e) => n + e.quantity, 0));
        },
      ),
    );
  });
});
