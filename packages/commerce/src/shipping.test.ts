import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MSG_NO_SHIPPING_TO_COUNTRY,
  MSG_UNKNOWN_SHIPPING_OPTION,
  type ShippingRule,
  chargeableKilograms,
  chooseShipping,
  ISO_COUNTRY_CODES,
  isCountryCode,
  ruleCost,
  servesCountry,
  shippingOptions,
} from "./shipping.js";

const rule = (r: Partial<ShippingRule> & Pick<ShippingRule, "id" | "kind">): ShippingRule => ({
  name: r.id,
  priceCents: 0,
  perKgCents: 0,
  minSubtotalCents: 0,
  countries: [],
  ...r,
});

const rules: ShippingRule[] = [
  rule({ id: "standard", kind: "flat", priceCents: 800, countries: ["US"], ordering: 0 }),
  rule({ id: "express", kind: "flat", priceCents: 2500, countries: ["US"], ordering: 1 }),
  rule({
    id: "world",
    kind: "weight",
    priceCents: 1500,
    perKgCents: 900,
    countries: ["CA", "GB"],
    ordering: 2,
  }),
  rule({ id: "free", kind: "free", minSubtotalCents: 15000, countries: ["US"], ordering: 3 }),
];

describe("shipping rules", () => {
  it("charges every started kilogram", () => {
    expect(chargeableKilograms(0)).toBe(0);
    expect(chargeableKilograms(1)).toBe(1);
    expect(chargeableKilograms(1000)).toBe(1);
    expect(chargeableKilograms(1001)).toBe(2);
    expect(() => chargeableKilograms(-1)).toThrow(RangeError);
    expect(() => chargeableKilograms(1.5)).toThrow(RangeError);
  });

  it("serves listed countries, or everywhere without a list, whatever the case", () => {
    expect(servesCountry({ countries: [] }, undefined)).toBe(true);
    expect(servesCountry({ countries: ["US"] }, "us")).toBe(true);
    expect(servesCountry({ countries: ["US"] }, " US ")).toBe(true);
    expect(servesCountry({ countries: ["US"] }, "CA")).toBe(false);
    expect(servesCountry({ countries: ["US"] }, undefined)).toBe(false);
  });

  it("prices flat, weight and free rules", () => {
    const input = { subtotalCents: 5000, weightGrams: 2300, location: { country: "CA" } };
    expect(ruleCost(rules[0]!, { ...input, location: { country: "US" } })).toBe(800);
    expect(ruleCost(rules[2]!, input)).toBe(1500 + 3 * 900);
    expect(ruleCost(rules[3]!, { ...input, location: { country: "US" } })).toBeUndefined();
    expect(ruleCost(rules[3]!, { ...input, subtotalCents: 15000, location: { country: "US" } })).toBe(0);
    expect(ruleCost(rule({ id: "x", kind: "teleport" }), input)).toBeUndefined();
  });

  it("lists the options for a country cheapest first", () => {
    const us = shippingOptions(rules, {
      subtotalCents: 20000,
      weightGrams: 500,
      location: { country: "US" },
    });
    expect(us.map((o) => [o.id, o.costCents])).toEqual([
      ["free", 0],
      ["standard", 800],
      ["express", 2500],
    ]);
    const below = shippingOptions(rules, {
      subtotalCents: 14999,
      weightGrams: 500,
      location: { country: "US" },
    });
    expect(below.map((o) => o.id)).toEqual(["standard", "express"]);
    expect(shippingOptions(rules, { subtotalCents: 1, weightGrams: 1, location: { country: "FR" } })).toEqual(
      [],
    );
  });

  it("chooses the requested option, else the cheapest; refuses unknown options and unserved countries", () => {
    const base = {
      subtotalCents: 5000,
      weightGrams: 500,
      requiresShipping: true,
      location: { country: "US" },
    };
    expect(chooseShipping(rules, base)).toMatchObject({ ok: true, option: { id: "standard" } });
    expect(chooseShipping(rules, { ...base, optionId: "express" })).toMatchObject({
      ok: true,
      option: { id: "express", costCents: 2500 },
    });
    expect(chooseShipping(rules, { ...base, optionId: "world" })).toMatchObject({
      ok: false,
      error: MSG_UNKNOWN_SHIPPING_OPTION,
    });
    expect(chooseShipping(rules, { ...base, location: { country: "FR" } })).toMatchObject({
      ok: false,
      error: MSG_NO_SHIPPING_TO_COUNTRY,
    });
    // No country yet: nothing to choose, and no error either.
    expect(chooseShipping(rules, { ...base, location: {} })).toMatchObject({ ok: true, option: undefined });
    // Orders without physical goods ship nothing.
    expect(chooseShipping(rules, { ...base, requiresShipping: false, optionId: "nope" })).toEqual({
      ok: true,
      option: undefined,
      options: [],
    });
  });

  it("never quotes a negative cost and keeps weight pricing monotonic", () => {
    fc.assert(
      fc.property(fc.nat(100_000), fc.nat(100_000), (a, b) => {
        const r = rules[2]!;
        const lo = ruleCost(r, {
          subtotalCents: 0,
          weightGrams: Math.min(a, b),
          location: { country: "GB" },
        })!;
        const hi = ruleCost(r, {
          subtotalCents: 0,
          weightGrams: Math.max(a, b),
          location: { country: "GB" },
        })!;
        return lo >= 0 && lo <= hi;
      }),
    );
  });
});

describe("country codes", () => {
  it("knows the assigned ISO 3166-1 alpha-2 codes and nothing else", () => {
    expect(ISO_COUNTRY_CODES).toHaveLength(249);
    expect(new Set(ISO_COUNTRY_CODES).size).toBe(249);
    for (const code of ["US", "us", " gb ", "DE", "JP", "BR"]) expect(isCountryCode(code), code).toBe(true);
    for (const code of ["XX", "UK", "EU", "ZZ", "USA", "U1", "", undefined]) {
      expect(isCountryCode(code), String(code)).toBe(false);
    }
  });
});
