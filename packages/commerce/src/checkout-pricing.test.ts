import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CheckoutPricingInput, priceCheckout } from "./checkout-pricing.js";
import { MSG_NO_SHIPPING_TO_COUNTRY } from "./shipping.js";

const base: CheckoutPricingInput = {
  lines: [
    { unitPriceCents: 4200, quantity: 2, productType: 1, weightGrams: 600 },
    { unitPriceCents: 1800, quantity: 1, productType: 2 },
  ],
  currency: "USD",
  now: new Date("2026-06-01T00:00:00Z"),
  location: { country: "us", state: "NY" },
  shippingRules: [
    {
      id: "flat",
      name: "Standard",
      kind: "flat",
      priceCents: 800,
      perKgCents: 0,
      minSubtotalCents: 0,
      countries: ["US"],
    },
    {
      id: "free",
      name: "Free",
      kind: "free",
      priceCents: 0,
      perKgCents: 0,
      minSubtotalCents: 15000,
      countries: [],
    },
  ],
  taxRules: [
    { id: "ny", name: "NY", country: "US", region: "NY", rateBasisPoints: 888, appliesToShipping: true },
  ],
  coupons: [
    { id: "c1", code: "TEN", kind: "percent", amount: 10, minSubtotalCents: 0, timesUsed: 0, active: true },
    {
      id: "c2",
      code: "SHIP",
      kind: "free_shipping",
      amount: 0,
      minSubtotalCents: 0,
      timesUsed: 0,
      active: true,
    },
  ],
  couponCodes: [],
};

describe("checkout pricing", () => {
  it("adds subtotal, shipping and tax", () => {
    const p = priceCheckout(base);
    expect(p.subtotalCents).toBe(10200);
    expect(p.selectedShippingOption).toEqual({ id: "flat", name: "Standard", kind: "flat", costCents: 800 });
    expect(p.shippingCostCents).toBe(800);
    expect(p.taxCents).toBe(977); // 8.88% of 11000 = 976.8
    expect(p.grandTotalCents).toBe(10200 + 800 + 977);
    expect(p.amountDueCents).toBe(p.grandTotalCents);
    expect(p.totalWeightGrams).toBe(1200);
    expect(p.shippingLocation).toEqual({ country: "US", state: "NY" });
    expect(p).toMatchObject({
      hasDigital: true,
      purelyDigital: false,
      requiresShipping: true,
      totalQuantity: 3,
    });
  });

  it("applies coupons before free-shipping thresholds and tax", () => {
    const p = priceCheckout({ ...base, couponCodes: ["ten", "SHIP", "BOGUS"] });
    expect(p.discountCents).toBe(1020);
    expect(p.shippingCostCents).toBe(0);
    expect(p.taxCents).toBe(815); // 8.88% of 9180 = 815.18
    expect(p.grandTotalCents).toBe(10200 - 1020 + 815);
    expect(p.validCoupons.map((c) => c.code)).toEqual(["TEN", "SHIP"]);
    expect(p.invalidCoupons).toEqual([{ code: "BOGUS", reason: "This code is not valid." }]);
  });

  it("ships free above the amount", () => {
    const p = priceCheckout({ ...base, lines: [{ unitPriceCents: 16000, quantity: 1, productType: 1 }] });
    expect(p.selectedShippingOption?.id).toBe("free");
    expect(p.shippingOptions.map((o) => o.id)).toEqual(["free", "flat"]);
  });

  it("does not discount or tax gift cards, and digital-only orders ship nothing", () => {
    const p = priceCheckout({
      ...base,
      lines: [
        { unitPriceCents: 5000, quantity: 1, productType: 4 },
        { unitPriceCents: 1000, quantity: 1, productType: "digital" },
      ],
      couponCodes: ["TEN"],
    });
    expect(p.discountCents).toBe(100);
    expect(p.taxCents).toBe(80); // 8.88% of 900 = 79.92
    expect(p).toMatchObject({ requiresShipping: false, purelyDigital: true, shippingCostCents: 0 });
    expect(p.selectedShippingOption).toBeNull();
  });

  it("reports countries it cannot ship to", () => {
    const p = priceCheckout({
      ...base,
      shippingRules: base.shippingRules.filter((r) => r.id === "flat"),
      location: { country: "FR" },
    });
    expect(p.shippingError).toBe(MSG_NO_SHIPPING_TO_COUNTRY);
  });

  it("ships for free when the store has no shipping rules", () => {
    const p = priceCheckout({ ...base, shippingRules: [], location: { country: "FR" } });
    expect(p).toMatchObject({ shippingCostCents: 0, selectedShippingOption: null, shippingOptions: [] });
    expect(p.shippingError).toBeUndefined();
  });

  it("pays with gift cards up to their balance, in order", () => {
    const p = priceCheckout({
      ...base,
      giftCards: [
        { id: "g1", balanceCents: 2500 },
        { id: "g2", balanceCents: 100000 },
        { id: "g3", balanceCents: 5000 },
      ],
    });
    expect(p.appliedGiftCards).toEqual([
      { id: "g1", amountCents: 2500 },
      { id: "g2", amountCents: p.grandTotalCents - 2500 },
    ]);
    expect(p.amountDueCents).toBe(0);
    expect(p.giftCardCents).toBe(p.grandTotalCents);
  });

  it("always balances: grand total = subtotal − discount + shipping + tax = gift cards + amount due", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            unitPriceCents: fc.nat(50_000),
            quantity: fc.integer({ min: 1, max: 20 }),
            productType: fc.constantFrom(1, 2, 3, 4),
            weightGrams: fc.nat(5000),
          }),
          { maxLength: 6 },
        ),
        fc.subarray(["TEN", "SHIP", "X"]),
        fc.array(fc.nat(20_000), { maxLength: 3 }),
        (lines, codes, cards) => {
          const p = priceCheckout({
            ...base,
            lines,
            couponCodes: codes,
            giftCards: cards.map((b, i) => ({ id: String(i), balanceCents: b })),
          });
          return (
            p.grandTotalCents === p.subtotalCents - p.discountCents + p.shippingCostCents + p.taxCents &&
            p.grandTotalCents === p.giftCardCents + p.amountDueCents &&
            p.amountDueCents >= 0 &&
            p.discountCents <= p.subtotalCents
          );
        },
      ),
    );
  });
});
