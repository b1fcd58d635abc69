import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProductType } from "./availability.js";
import { priceCheckout } from "./checkout-pricing.js";
import {
  type AutomaticDiscount,
  type DiscountLineInput,
  allocateProRata,
  applicableDiscounts,
  buyXGetYDiscount,
  discountAmount,
  discountScheduled,
  percentOf,
  zonedTimeToInstant,
} from "./discounts.js";
import { formatMinorUnits } from "./money.js";
import type { ShippingRule } from "./shipping.js";

const PHYSICAL = ProductType.PHYSICAL;

function discount(over: Partial<AutomaticDiscount> = {}): AutomaticDiscount {
  return {
    id: "d1",
    name: "Ten off",
    kind: "order_percentage",
    value: 10,
    appliesTo: { productIds: [], categoryIds: [] },
    conditions: { minSubtotalCents: 0, minQuantity: 0, firstOrderOnly: false },
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    perCustomerLimit: null,
    timesUsed: 0,
    combinesWithCoupons: false,
    active: true,
    ...over,
  };
}

const line = (
  itemId: string,
  unitPriceCents: number,
  quantity = 1,
  categories: string[] = [],
): DiscountLineInput => ({
  itemId,
  unitPriceCents,
  quantity,
  productType: PHYSICAL,
  categories,
});

const ctx = { now: new Date("2026-11-28T12:00:00Z"), timeZone: "America/New_York" };

describe("rounding in minor units", () => {
  // Amounts are minor units whatever the currency: yen have none below the unit, dinars three digits.
  it.each([
    // currency, its fraction digits, subtotal (minor units), percent, discount, shown
    ["JPY", 0, 999, 10, 100, "100"],
    ["JPY", 0, 995, 15, 149, "149"],
    ["JPY", 0, 1, 50, 1, "1"],
    ["KWD", 3, 1005, 15, 151, "0.151"],
    ["KWD", 3, 3333, 33, 1100, "1.100"],
    ["BHD", 3, 19_999, 12, 2400, "2.400"],
    ["USD", 2, 1999, 15, 300, "3.00"],
  ])("%s (%i digits): %i × %i %% = %i", (_currency, fractionDigits, subtotal, pct, off, shown) => {
    const d = discount({ value: pct });
    expect(discountAmount(d, [line("a", subtotal)])).toBe(off);
    expect(formatMinorUnits(off, { fractionDigits })).toBe(shown);
    // The order is charged the subtotal less the discount, in the same minor units.
    const p = priceCheckout({
      lines: [{ itemId: "a", unitPriceCents: subtotal, quantity: 1, productType: PHYSICAL }],
      currency: _currency,
      now: ctx.now,
      shippingRules: [],
      taxRules: [],
      coupons: [],
      couponCodes: [],
      automaticDiscounts: [d],
    });
    expect([p.discountCents, p.grandTotalCents]).toEqual([off, subtotal - off]);
  });

  it("never takes more than the goods, always a whole number of minor units", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ p: fc.integer({ min: 0, max: 1_000_000 }), q: fc.integer({ min: 1, max: 20 }) }),
          {
            minLength: 1,
            maxLength: 8,
          },
        ),
        fc.constantFrom("order_percentage", "order_amount", "product_percentage", "product_amount"),
        fc.integer({ min: 0, max: 100 }),
        (items, kind, value) => {
          const lines = items.map((x, i) => line(`p${i}`, x.p, x.q));
          const total = lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);
          const off = discountAmount(
            discount({ kind, value: kind.endsWith("amount") ? value * 37 : value }),
            lines,
          );
          expect(Number.isSafeInteger(off)).toBe(true);
          expect(off).toBeGreaterThanOrEqual(0);
          expect(off).toBeLessThanOrEqual(total);
        },
      ),
    );
  });

  it("splits a discount over lines exactly (pro rata, largest remainders)", () => {
    expect(allocateProRata(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocateProRata(7, [0, 500, 250])).toEqual([0, 5, 2]);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 12 }),
        (amount, weights) => {
          const total = weights.reduce((s, w) => s + w, 0);
          const parts = allocateProRata(amount, weights);
          expect(parts.reduce((s, x) => s + x, 0)).toBe(total > 0 ? amount : 0);
          parts.forEach((x, i) => {
            expect(Number.isInteger(x)).toBe(true);
            if (total > 0) expect(Math.abs(x - (amount * weights[i]!) / total)).toBeLessThan(1);
          });
        },
      ),
    );
  });

  it("percentOf rounds half up", () => {
    expect(percentOf(5, 10)).toBe(1);
    expect(percentOf(4, 10)).toBe(0);
    expect(percentOf(1000, 100)).toBe(1000);
  });
});

describe("buy X get Y", () => {
  const rule = (
    buy: number,
    get: number,
    percentOff = 100,
    productIds: string[] = [],
    getProductIds: string[] = [],
  ) => ({
    buyQuantity: buy,
    getQuantity: get,
    productIds,
    categoryIds: [],
    getProductIds,
    getCategoryIds: [],
    percentOff,
  });

  it.each([
    // lines, buy, get, percent, off
    [[line("a", 1000, 3)], 2, 1, 100, 1000],
    [[line("a", 1000, 2)], 2, 1, 100, 0],
    [[line("a", 3000), line("b", 2000), line("c", 1000)], 2, 1, 100, 1000],
    [[line("a", 3000), line("b", 2000), line("c", 1000), line("d", 500)], 1, 1, 100, 1500],
    [[line("a", 3000), line("b", 2000), line("c", 1000), line("d", 500)], 1, 1, 50, 750],
    [[line("a", 999, 6)], 2, 1, 50, 999],
    [[line("mug", 1200, 4), line("cup", 800, 2)], 2, 1, 100, 1600],
  ])("%j buy %i get %i at %i %% off → %i", (lines, buy, get, pct, off) => {
    expect(buyXGetYDiscount(lines, rule(buy, get, pct))).toBe(off);
  });

  it("gives the cheapest of the chosen products when bought and given products differ", () => {
    const lines = [line("mug", 1500, 2), line("coaster", 400, 1), line("coaster-fancy", 700, 1)];
    // Buy 2 mugs, get 1 coaster free: the cheaper coaster.
    expect(buyXGetYDiscount(lines, rule(2, 1, 100, ["mug"], ["coaster", "coaster-fancy"]))).toBe(400);
    // Buy 1 mug, get 1 coaster: two mugs give both coasters.
    expect(buyXGetYDiscount(lines, rule(1, 1, 100, ["mug"], ["coaster", "coaster-fancy"]))).toBe(1100);
  });

  it("never gives away more than the given units cost, and a unit is never both bought and given", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ p: fc.integer({ min: 1, max: 10_000 }), q: fc.integer({ min: 1, max: 6 }) }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 3 }),
        (items, buy, get) => {
          const lines = items.map((x, i) => line(`p${i}`, x.p, x.q));
          const units = lines
            .flatMap((l) => Array(l.quantity).fill(l.unitPriceCents) as number[])
            .sort((a, b) => a - b);
          const groups = Math.floor(units.length / (buy + get));
          const off = buyXGetYDiscount(lines, rule(buy, get));
          // At most the `groups × get` cheapest units, at least nothing.
          const cheapest = units.slice(0, groups * get).reduce((s, x) => s + x, 0);
          expect(off).toBeGreaterThanOrEqual(groups > 0 ? units[0]! : 0);
          expect(off).toBeLessThanOrEqual(cheapest);
        },
      ),
    );
  });
});

describe("free shipping with several options", () => {
  const rules: ShippingRule[] = [
    {
      id: "std",
      name: "Standard",
      kind: "flat",
      priceCents: 500,
      perKgCents: 0,
      minSubtotalCents: 0,
      countries: [],
    },
    {
      id: "exp",
      name: "Express",
      kind: "flat",
      priceCents: 1500,
      perKgCents: 0,
      minSubtotalCents: 0,
      countries: [],
    },
  ];
  const price = (subtotal: number, optionId: string, shippingOptionIds: string[] = []) =>
    priceCheckout({
      lines: [{ itemId: "a", unitPriceCents: subtotal, quantity: 1, productType: PHYSICAL }],
      currency: "USD",
      now: ctx.now,
      timeZone: ctx.timeZone,
      location: { country: "US" },
      shippingRules: rules,
      shippingOptionId: optionId,
      taxRules: [],
      coupons: [],
      couponCodes: [],
      automaticDiscounts: [
        discount({
          name: "Free shipping over $50",
          kind: "free_shipping",
          value: 0,
          appliesTo: { productIds: [], categoryIds: [], shippingOptionIds },
          conditions: { minSubtotalCents: 5000, minQuantity: 0, firstOrderOnly: false },
        }),
      ],
    });

  it.each([
    // subtotal, option, covered options, shipping charged, discount line
    [6000, "std", [], 0, { name: "Free shipping over $50", amountCents: 0, shippingCents: 500 }],
    [6000, "exp", [], 0, { name: "Free shipping over $50", amountCents: 0, shippingCents: 1500 }],
    [6000, "std", ["std"], 0, { name: "Free shipping over $50", amountCents: 0, shippingCents: 500 }],
    [6000, "exp", ["std"], 1500, undefined],
    [4999, "std", [], 500, undefined],
  ])("%i with %s (covers %j) ships for %i", (subtotal, option, covered, shipping, line0) => {
    const p = price(subtotal, option, covered);
    expect(p.shippingCostCents).toBe(shipping);
    expect(p.grandTotalCents).toBe(subtotal + shipping);
    expect(
      p.discounts[0] && {
        name: p.discounts[0].name,
        amountCents: p.discounts[0].amountCents,
        shippingCents: p.discounts[0].shippingCents,
      },
    ).toEqual(line0);
  });

  it("lists the covered options at no cost, the others at their price", () => {
    const p = price(6000, "exp", ["std"]);
    expect(p.shippingOptions.map((o) => [o.id, o.costCents])).toEqual([
      ["std", 0],
      ["exp", 1500],
    ]);
  });
});

describe("the single best discount, and coupons", () => {
  const base = {
    currency: "USD",
    now: ctx.now,
    timeZone: ctx.timeZone,
    shippingRules: [],
    taxRules: [],
  };
  const coupon = {
    id: "c1",
    code: "SAVE5",
    kind: "fixed",
    amount: 500,
    minSubtotalCents: 0,
    timesUsed: 0,
    active: true,
  };
  const lines = [{ itemId: "a", unitPriceCents: 10_000, quantity: 1, productType: PHYSICAL }];

  it("takes the discount that saves most", () => {
    const p = priceCheckout({
      ...base,
      lines,
      coupons: [],
      couponCodes: [],
      automaticDiscounts: [
        discount({ id: "a", name: "Ten percent", value: 10 }),
        discount({ id: "b", name: "Fifteen off", kind: "order_amount", value: 1500 }),
      ],
    });
    expect(p.discounts).toEqual([
      { name: "Fifteen off", amountCents: 1500, shippingCents: 0, discountId: "b" },
    ]);
    expect(p.grandTotalCents).toBe(8500);
  });

  it("adds a coupon only where the discount combines with coupons", () => {
    const combined = priceCheckout({
      ...base,
      lines,
      coupons: [coupon],
      couponCodes: ["save5"],
      automaticDiscounts: [discount({ combinesWithCoupons: true })],
    });
    expect(combined.discountCents).toBe(1500);
    expect(combined.discounts.map((d) => d.name)).toEqual(["Ten off", "Discount (SAVE5)"]);

    const alone = priceCheckout({
      ...base,
      lines,
      coupons: [coupon],
      couponCodes: ["save5"],
      automaticDiscounts: [discount()],
    });
    expect(alone.discountCents).toBe(1000);
    expect(alone.invalidCoupons).toEqual([
      { code: "SAVE5", reason: "This code cannot be combined with “Ten off”, which saves you more." },
    ]);

    const couponWins = priceCheckout({
      ...base,
      lines,
      coupons: [{ ...coupon, amount: 2000 }],
      couponCodes: ["SAVE5"],
      automaticDiscounts: [discount()],
    });
    expect(couponWins.discountCents).toBe(2000);
    expect(couponWins.automaticDiscount).toBeNull();
  });

  it("keeps conditions: minimum quantity, chosen categories, first order, usage limits", () => {
    const cart = [line("mug", 1000, 2, ["Ceramics"]), line("apron", 3000, 1, ["Linen"])];
    const apply = (
      d: Partial<AutomaticDiscount>,
      customer?: { ordersPlaced?: number; usesByDiscount?: Record<string, number> },
    ) => applicableDiscounts([discount(d)], cart, { ...ctx, customer }).map((x) => x.amountCents);
    expect(
      apply({
        kind: "product_percentage",
        value: 50,
        appliesTo: { productIds: [], categoryIds: ["Ceramics"] },
      }),
    ).toEqual([1000]);
    expect(
      apply({
        conditions: { minSubtotalCents: 0, minQuantity: 3, firstOrderOnly: false },
        appliesTo: { productIds: ["mug"], categoryIds: [] },
      }),
    ).toEqual([]);
    expect(
      apply({
        conditions: { minSubtotalCents: 0, minQuantity: 2, firstOrderOnly: false },
        appliesTo: { productIds: ["mug"], categoryIds: [] },
      }),
    ).toEqual([500]);
    expect(apply({ conditions: { minSubtotalCents: 0, minQuantity: 0, firstOrderOnly: true } })).toEqual([]);
    expect(
      apply(
        { conditions: { minSubtotalCents: 0, minQuantity: 0, firstOrderOnly: true } },
        { ordersPlaced: 0 },
      ),
    ).toEqual([500]);
    expect(
      apply(
        { conditions: { minSubtotalCents: 0, minQuantity: 0, firstOrderOnly: true } },
        { ordersPlaced: 1 },
      ),
    ).toEqual([]);
    expect(apply({ usageLimit: 5, timesUsed: 5 })).toEqual([]);
    expect(apply({ usageLimit: 5, timesUsed: 4 })).toEqual([500]);
    expect(apply({ perCustomerLimit: 1 }, { usesByDiscount: { d1: 1 } })).toEqual([]);
    expect(
      apply({ kind: "product_amount", value: 1500, appliesTo: { productIds: ["mug"], categoryIds: [] } }),
    ).toEqual([2000]);
  });
});

describe("schedules in the site's time zone", () => {
  const ny = "America/New_York";
  it("reads wall-clock times across daylight saving changes", () => {
    expect(zonedTimeToInstant("2026-11-28T09:00", ny).toISOString()).toBe("2026-11-28T14:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01T09:00", ny).toISOString()).toBe("2026-07-01T13:00:00.000Z");
    // 02:30 does not exist on 8 March 2026 in New York: read as 03:30 EDT, an hour on (as Temporal does).
    expect(zonedTimeToInstant("2026-03-08T02:30", ny).toISOString()).toBe("2026-03-08T07:30:00.000Z");
    // 01:30 shows twice on 1 November 2026: the first (EDT) one.
    expect(zonedTimeToInstant("2026-11-01T01:30", ny).toISOString()).toBe("2026-11-01T05:30:00.000Z");
    expect(zonedTimeToInstant("2026-03-29T01:30", "Europe/Berlin").toISOString()).toBe(
      "2026-03-29T00:30:00.000Z",
    );
    expect(zonedTimeToInstant("2026-03-29T02:30", "Europe/Berlin").toISOString()).toBe(
      "2026-03-29T01:30:00.000Z",
    );
    expect(zonedTimeToInstant("2026-03-29T12:00", "UTC").toISOString()).toBe("2026-03-29T12:00:00.000Z");
  });

  it("runs a weekend sale from local midnight to local midnight over the spring-forward night (47 hours)", () => {
    const sale = { startsAt: "2026-03-07T00:00", endsAt: "2026-03-09T00:00" };
    const at = (iso: string) => discountScheduled(sale, new Date(iso), ny);
    expect(at("2026-03-07T04:59:59Z")).toBe(false); // 23:59:59 EST on the 6th
    expect(at("2026-03-07T05:00:00Z")).toBe(true); // midnight EST
    expect(at("2026-03-09T03:59:59Z")).toBe(true); // 23:59:59 EDT on the 8th
    expect(at("2026-03-09T04:00:00Z")).toBe(false); // midnight EDT
    const hours =
      (zonedTimeToInstant(sale.endsAt, ny).getTime() - zonedTimeToInstant(sale.startsAt, ny).getTime()) /
      3_600_000;
    expect(hours).toBe(47);
  });

  it("runs a sale over the fall-back night for 25 hours", () => {
    const sale = { startsAt: "2026-11-01T00:00", endsAt: "2026-11-02T00:00" };
    const hours =
      (zonedTimeToInstant(sale.endsAt, ny).getTime() - zonedTimeToInstant(sale.startsAt, ny).getTime()) /
      3_600_000;
    expect(hours).toBe(25);
    expect(discountScheduled(sale, new Date("2026-11-02T04:59:59Z"), ny)).toBe(true);
    expect(discountScheduled(sale, new Date("2026-11-02T05:00:00Z"), ny)).toBe(false);
  });

  it("is the same instant as the wall time shows in the zone (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }), (ms) => {
        const t = Math.floor(ms / 60_000) * 60_000;
        const parts = new Intl.DateTimeFormat("sv-SE", {
          timeZone: ny,
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        }).format(new Date(t));
        const wall = parts.replace(" ", "T");
        const back = zonedTimeToInstant(wall, ny).getTime();
        // The same instant, or (in the repeated hour) the first of the two.
        expect([t, t - 3_600_000]).toContain(back);
      }),
    );
  });
});
