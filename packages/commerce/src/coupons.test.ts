import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Coupon,
  MSG_COUPON_DUPLICATE,
  MSG_COUPON_EXPIRED,
  MSG_COUPON_INACTIVE,
  MSG_COUPON_NOT_STARTED,
  MSG_COUPON_NO_SHIPPING,
  MSG_COUPON_NOTHING_TO_DISCOUNT,
  MSG_COUPON_ONE_DISCOUNT,
  MSG_COUPON_UNKNOWN,
  MSG_COUPON_USED_UP,
  applyCoupons,
  couponDiscount,
  couponMinimumMessage,
} from "./coupons.js";

const now = new Date("2026-06-01T12:00:00Z");
const coupon = (c: Partial<Coupon> & Pick<Coupon, "code" | "kind">): Coupon => ({
  id: c.code,
  amount: 0,
  minSubtotalCents: 0,
  timesUsed: 0,
  active: true,
  ...c,
});
const store: Coupon[] = [
  coupon({ code: "WELCOME10", kind: "percent", amount: 10 }),
  coupon({ code: "FIVEOFF", kind: "fixed", amount: 500, minSubtotalCents: 3000 }),
  coupon({ code: "SHIPFREE", kind: "free_shipping" }),
  coupon({ code: "OLD", kind: "percent", amount: 50, endsAt: new Date("2026-01-01T00:00:00Z") }),
  coupon({ code: "SOON", kind: "percent", amount: 50, startsAt: new Date("2026-07-01T00:00:00Z") }),
  coupon({ code: "OFF", kind: "fixed", amount: 100, active: false }),
  coupon({ code: "ONCE", kind: "fixed", amount: 100, usageLimit: 1, timesUsed: 1 }),
];
const apply = (codes: string[], discountableCents = 10000, requiresShipping = true) =>
  applyCoupons({ codes, coupons: store, discountableCents, requiresShipping, now, currency: "USD" });

describe("coupons", () => {
  it("computes percent (half up) and fixed discounts, never above the subtotal", () => {
    expect(couponDiscount({ kind: "percent", amount: 10 }, 12345)).toBe(1235); // 1234.5
    expect(couponDiscount({ kind: "percent", amount: 150 }, 1000)).toBe(1000);
    expect(couponDiscount({ kind: "fixed", amount: 500 }, 300)).toBe(300);
    expect(couponDiscount({ kind: "free_shipping", amount: 500 }, 300)).toBe(0);
  });

  it("applies valid codes whatever their case", () => {
    const r = apply([" welcome10 ", "shipfree"]);
    expect(r.discountCents).toBe(1000);
    expect(r.freeShipping).toBe(true);
    expect(r.validCoupons.map((c) => [c.code, c.discountCents])).toEqual([
      ["WELCOME10", 1000],
      ["SHIPFREE", 0],
    ]);
    expect(r.invalidCoupons).toEqual([]);
  });

  it("explains every refusal", () => {
    const r = apply(["nope", "OLD", "SOON", "OFF", "ONCE", "WELCOME10", "welcome10", "FIVEOFF"], 2000);
    expect(r.invalidCoupons).toEqual([
      { code: "NOPE", reason: MSG_COUPON_UNKNOWN },
      { code: "OLD", reason: MSG_COUPON_EXPIRED },
      { code: "SOON", reason: MSG_COUPON_NOT_STARTED },
      { code: "OFF", reason: MSG_COUPON_INACTIVE },
      { code: "ONCE", reason: MSG_COUPON_USED_UP },
      { code: "WELCOME10", reason: MSG_COUPON_DUPLICATE },
      { code: "FIVEOFF", reason: "This coupon requires an order of at least $30.00." },
    ]);
    expect(r.validCoupons.map((c) => c.code)).toEqual(["WELCOME10"]);
    expect(r.discountCents).toBe(200);
  });

  it("takes one discount per order", () => {
    const r = apply(["FIVEOFF", "WELCOME10"]);
    expect(r.discountCents).toBe(500);
    expect(r.invalidCoupons).toEqual([{ code: "WELCOME10", reason: MSG_COUPON_ONE_DISCOUNT }]);
  });

  it("refuses free shipping without shipping and discounts on nothing", () => {
    expect(apply(["SHIPFREE"], 5000, false).invalidCoupons).toEqual([
      { code: "SHIPFREE", reason: MSG_COUPON_NO_SHIPPING },
    ]);
    expect(apply(["WELCOME10"], 0).invalidCoupons).toEqual([
      { code: "WELCOME10", reason: MSG_COUPON_NOTHING_TO_DISCOUNT },
    ]);
  });

  it("formats the minimum in the store currency", () => {
    expect(couponMinimumMessage(123456, "USD")).toBe("This coupon requires an order of at least $1,234.56.");
    expect(couponMinimumMessage(5000, "JPY")).toBe("This coupon requires an order of at least ¥5,000.");
  });

  it("never discounts more than the discountable subtotal", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.array(fc.constantFrom(...store.map((c) => c.code))),
        (sub, codes) => {
          const r = apply(codes, sub);
          return r.discountCents >= 0 && r.discountCents <= sub;
        },
      ),
    );
  });
});
