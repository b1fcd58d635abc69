import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type TaxRule, basisPointsToPercent, computeTax, taxAtBasisPoints, taxRuleApplies } from "./tax.js";

const rules: TaxRule[] = [
  { id: "ny", name: "New York", country: "US", region: "NY", rateBasisPoints: 888, appliesToShipping: true },
  {
    id: "ca",
    name: "California",
    country: "US",
    region: "CA",
    rateBasisPoints: 725,
    appliesToShipping: false,
  },
  { id: "gst", name: "GST", country: "CA", region: null, rateBasisPoints: 500, appliesToShipping: true },
  {
    id: "pst",
    name: "PST (BC)",
    country: "CA",
    region: "BC",
    rateBasisPoints: 700,
    appliesToShipping: false,
  },
];

describe("tax rules", () => {
  it("writes basis points as percent", () => {
    expect(basisPointsToPercent(825)).toBe("8.25");
    expect(basisPointsToPercent(888)).toBe("8.88");
    expect(basisPointsToPercent(2000)).toBe("20");
    expect(basisPointsToPercent(750)).toBe("7.5");
    expect(basisPointsToPercent(5)).toBe("0.05");
    expect(() => basisPointsToPercent(-1)).toThrow(RangeError);
  });

  it("rounds half up to the cent", () => {
    expect(taxAtBasisPoints(1000, 825)).toBe(83); // 82.5
    expect(taxAtBasisPoints(1000, 824)).toBe(82); // 82.4
    expect(taxAtBasisPoints(0, 825)).toBe(0);
    expect(taxAtBasisPoints(Number.MAX_SAFE_INTEGER, 1)).toBe(Math.round(Number.MAX_SAFE_INTEGER / 10000));
    expect(() => taxAtBasisPoints(-5, 825)).toThrow(RangeError);
  });

  it("matches country, then region unless the rule has none", () => {
    expect(taxRuleApplies(rules[0]!, "us", "ny")).toBe(true);
    expect(taxRuleApplies(rules[0]!, "US", "CA")).toBe(false);
    expect(taxRuleApplies(rules[2]!, "CA", "ON")).toBe(true);
    expect(taxRuleApplies(rules[2]!, "CA", undefined)).toBe(true);
    expect(taxRuleApplies(rules[2]!, undefined, undefined)).toBe(false);
  });

  it("adds every matching rule, each rounded on its own, shipping where the rule says", () => {
    const bc = computeTax(rules, { taxableCents: 10005, shippingCents: 1000, country: "CA", state: "BC" });
    expect(bc.applicableTaxRules.map((r) => [r.id, r.ratePercent, r.taxCents])).toEqual([
      ["gst", "5", 550], // 5% of 11005 = 550.25
      ["pst", "7", 700], // 7% of 10005 = 700.35
    ]);
    expect(bc.taxCents).toBe(1250);
    const ny = computeTax(rules, { taxableCents: 5000, shippingCents: 800, country: "US", state: "NY" });
    expect(ny.taxCents).toBe(515); // 8.88% of 5800 = 515.04
    expect(computeTax(rules, { taxableCents: 5000, shippingCents: 0, country: "FR" })).toEqual({
      taxCents: 0,
      applicableTaxRules: [],
    });
  });

  it("never taxes a negative amount", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.nat(10_000), (amount, ship) => {
        const r = computeTax(rules, {
          taxableCents: amount,
          shippingCents: ship,
          country: "CA",
          state: "BC",
        });
        return r.taxCents >= 0 && r.taxCents === r.applicableTaxRules.reduce((s, x) => s + x.taxCents, 0);
      }),
    );
  });
});
