import { describe, expect, it } from "vitest";
import { ProductType } from "./availability.js";
import {
  canBeSubscription,
  fillPattern,
  isIndefinite,
  PERIODS_PER_YEAR,
  parseSubscriptionPlan,
  type SubscriptionPlan,
  subscriptionDuration,
  subscriptionMessageKey,
  subscriptionPriceText,
} from "./subscription.js";

const plan = (
  value: number,
  unit: "WEEK" | "MONTH" | "YEAR",
  numBillingCycles?: number,
): SubscriptionPlan => ({
  billingPeriod: { value, unit },
  numBillingCycles,
});

describe("subscription price text", () => {
  it("has the periods per year", () => {
    expect(PERIODS_PER_YEAR).toEqual({ WEEK: 52, MONTH: 12, YEAR: 1 });
  });
  it("describes indefinite plans", () => {
    expect(subscriptionPriceText("$10.00", plan(1, "WEEK", 0))).toBe("$10.00 every week");
    expect(subscriptionPriceText("$10.00", plan(1, "MONTH"))).toBe("$10.00 every month");
    expect(subscriptionPriceText("$10.00", plan(1, "YEAR", 0))).toBe("$10.00 every year");
    expect(subscriptionPriceText("$10.00", plan(2, "WEEK", 0))).toBe("$10.00 every 2 weeks");
    expect(subscriptionPriceText("$10.00", plan(3, "MONTH", 0))).toBe("$10.00 every 3 months");
    expect(subscriptionPriceText("$10.00", plan(2, "YEAR", 0))).toBe("$10.00 every 2 years");
  });
  it("describes finite plans, in years when they make whole years", () => {
    expect(subscriptionPriceText("$1", plan(2, "WEEK", 26))).toBe("$1 every 2 weeks for 1 year");
    expect(subscriptionPriceText("$1", plan(2, "WEEK", 6))).toBe("$1 every 2 weeks for 12 weeks");
    expect(subscriptionPriceText("$1", plan(1, "MONTH", 36))).toBe("$1 every month for 3 years");
    expect(subscriptionPriceText("$1", plan(2, "MONTH", 4))).toBe("$1 every 2 months for 8 months");
    expect(subscriptionPriceText("$1", plan(1, "WEEK", 1))).toBe("$1 every week for 1 week");
    expect(subscriptionPriceText("$1", plan(1, "YEAR", 3))).toBe("$1 every year for 3 years");
    expect(subscriptionPriceText("$1", plan(1, "MONTH", 6), { from: true })).toBe(
      "from $1 every month for 6 months",
    );
  });
  it("is indefinite only when numBillingCycles is 0", () => {
    expect(isIndefinite(plan(1, "WEEK", 0))).toBe(true);
    expect(isIndefinite(plan(1, "WEEK", 1))).toBe(false);
    expect(subscriptionDuration(plan(1, "WEEK", 0))).toBeUndefined();
    expect(subscriptionDuration(plan(4, "WEEK", 13))).toEqual({ value: 1, unit: "YEAR" });
    expect(subscriptionDuration(plan(5, "MONTH", 2))).toEqual({ value: 10, unit: "MONTH" });
  });
  it("builds the localized message keys", () => {
    expect(subscriptionMessageKey(plan(1, "WEEK", 0), false)).toBe(
      "productPrice__singlePrice__1Weekly__indefinite",
    );
    expect(subscriptionMessageKey(plan(5, "WEEK", 0), false)).toBe(
      "productPrice__singlePrice__nWeekly__indefinite",
    );
    expect(subscriptionMessageKey(plan(2, "WEEK", 26), true)).toBe(
      "productPrice__multiplePrices__nWeekly__limited__1Years",
    );
    expect(subscriptionMessageKey(plan(1, "MONTH", 6), false)).toBe(
      "productPrice__singlePrice__1Monthly__limited__nMonths",
    );
  });
  it("fills patterns", () => {
    expect(fillPattern("{price} every {n} {x}", { price: "$1", n: 2 })).toBe("$1 every 2 {x}");
  });
  it("parses plans from JSON", () => {
    expect(
      parseSubscriptionPlan({ billingPeriod: { value: "2", unit: "week" }, numBillingCycles: 3 }),
    ).toEqual(plan(2, "WEEK", 3));
    expect(parseSubscriptionPlan({ billingPeriod: { value: 1, unit: "MONTH" } })).toEqual(
      plan(1, "MONTH", 0),
    );
    expect(parseSubscriptionPlan({ billingPeriod: { value: 1, unit: "DAY" } })).toBeUndefined();
    expect(parseSubscriptionPlan({})).toBeUndefined();
  });
  it("allows subscriptions only for physical products and services", () => {
    expect(canBeSubscription(ProductType.PHYSICAL)).toBe(true);
    expect(canBeSubscription(ProductType.SERVICE)).toBe(true);
    expect(canBeSubscription(ProductType.DIGITAL)).toBe(false);
    expect(canBeSubscription(ProductType.GIFT_CARD)).toBe(false);
    expect(canBeSubscription(undefined)).toBe(false);
  });
});
