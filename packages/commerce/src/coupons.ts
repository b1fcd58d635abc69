/**
 * Coupon codes (SPEC §3 cart: coupons, validCoupons, invalidCoupons, discountCents). A coupon
 * takes a percent off, a fixed amount off, or makes shipping free; it may need a minimum
 * subtotal, have a start and an end, a usage limit, or be switched off. An order takes one
 * discount (percent or fixed) and one free-shipping coupon; every other code is reported
 * invalid with the reason, so the buyer sees why.
 */
import { formatMoney } from "./money.js";

export type CouponKind = "percent" | "fixed" | "free_shipping";
export const COUPON_KINDS: readonly CouponKind[] = ["percent", "fixed", "free_shipping"];

export interface Coupon {
  id: string;
  code: string;
  kind: CouponKind | string;
  /** percent: whole percent 1–100; fixed: cents; free_shipping: unused. */
  amount: number;
  minSubtotalCents: number;
  startsAt?: Date | null;
  endsAt?: Date | null;
  usageLimit?: number | null;
  timesUsed: number;
  active: boolean;
}

export interface ValidCoupon {
  id: string;
  code: string;
  kind: CouponKind;
  amount: number;
  discountCents: number;
  freeShipping: boolean;
}

export interface InvalidCoupon {
  code: string;
  reason: string;
}

export const MSG_COUPON_UNKNOWN = "This code is not valid.";
export const MSG_COUPON_INACTIVE = "This coupon is no longer active.";
export const MSG_COUPON_NOT_STARTED = "This coupon is not active yet.";
export const MSG_COUPON_EXPIRED = "This coupon has expired.";
export const MSG_COUPON_USED_UP = "This coupon has reached its usage limit.";
export const MSG_COUPON_DUPLICATE = "This coupon has already been applied.";
export const MSG_COUPON_ONE_DISCOUNT = "Only one discount can be applied to an order.";
export const MSG_COUPON_NO_SHIPPING = "This order has no shipping to discount.";
export const MSG_COUPON_NOTHING_TO_DISCOUNT = "This order has nothing this coupon can discount.";

/** The message for a coupon whose minimum the order does not reach. */
export function couponMinimumMessage(minSubtotalCents: number, currency: string): string {
  return `This coupon requires an order of at least ${formatMoney(minSubtotalCents, currency)}.`;
}

/** Codes compare without case and surrounding spaces. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** The discount of one coupon on a discountable subtotal (never more than the subtotal). */
export function couponDiscount(coupon: Pick<Coupon, "kind" | "amount">, discountableCents: number): number {
  const base = Math.max(0, discountableCents);
  switch (coupon.kind) {
    case "percent": {
      const pct = Math.min(100, Math.max(0, Math.trunc(coupon.amount)));
      // Exact integer arithmetic, rounded half up.
      return Math.min(base, Number((BigInt(base) * BigInt(pct) + 50n) / 100n));
    }
    case "fixed":
      return Math.min(base, Math.max(0, Math.trunc(coupon.amount)));
    default:
      return 0;
  }
}

export interface CouponInput {
  codes: readonly string[];
  /** Coupons of the store, looked up by normalized code. */
  coupons: readonly Coupon[];
  /** Subtotal the coupons may discount (gift cards excluded), in cents. */
  discountableCents: number;
  requiresShipping: boolean;
  now: Date;
  currency: string;
}

export interface CouponResult {
  validCoupons: ValidCoupon[];
  invalidCoupons: InvalidCoupon[];
  discountCents: number;
  freeShipping: boolean;
}

/** Why a coupon cannot be used on this order, or undefined when it can. */
export function couponProblem(coupon: Coupon, input: Omit<CouponInput, "codes" | "coupons">) {
  if (!coupon.active || !COUPON_KINDS.includes(coupon.kind as CouponKind)) return MSG_COUPON_INACTIVE;
  if (coupon.startsAt && input.now.getTime() < coupon.startsAt.getTime()) return MSG_COUPON_NOT_STARTED;
  if (coupon.endsAt && input.now.getTime() >= coupon.endsAt.getTime()) return MSG_COUPON_EXPIRED;
  if (coupon.usageLimit != null && coupon.timesUsed >= coupon.usageLimit) return MSG_COUPON_USED_UP;
  if (input.discountableCents < coupon.minSubtotalCents)
    return couponMinimumMessage(coupon.minSubtotalCents, input.currency);
  if (coupon.kind === "free_shipping" && !input.requiresShipping) return MSG_COUPON_NO_SHIPPING;
  if (coupon.kind !== "free_shipping" && input.discountableCents <= 0) return MSG_COUPON_NOTHING_TO_DISCOUNT;
  return undefined;
}

/** Applies the codes a buyer entered, in their order. */
export function applyCoupons(input: CouponInput): CouponResult {
  const byCode = new Map(input.coupons.map((c) => [normalizeCode(c.code), c]));
  const seen = new Set<string>();
  const validCoupons: ValidCoupon[] = [];
  const invalidCoupons: InvalidCoupon[] = [];
  let discountCents = 0;
  let freeShipping = false;
  let hasDiscount = false;
  for (const raw of input.codes) {
    const code = normalizeCode(raw);
    if (!code) continue;
    if (seen.has(code)) {
      invalidCoupons.push({ code, reason: MSG_COUPON_DUPLICATE });
      continue;
    }
    seen.add(code);
    const coupon = byCode.get(code);
    if (!coupon) {
      invalidCoupons.push({ code, reason: MSG_COUPON_UNKNOWN });
      continue;
    }
    const problem = couponProblem(coupon, input);
    if (problem) {
      invalidCoupons.push({ code, reason: problem });
      continue;
    }
    if (coupon.kind === "free_shipping") {
      if (freeShipping) {
        invalidCoupons.push({ code, reason: MSG_COUPON_DUPLICATE });
        continue;
      }
      freeShipping = true;
      validCoupons.push({ ...pick(coupon), discountCents: 0, freeShipping: true });
      continue;
    }
    if (hasDiscount) {
      invalidCoupons.push({ code, reason: MSG_COUPON_ONE_DISCOUNT });
      continue;
    }
    hasDiscount = true;
    const discount = couponDiscount(coupon, input.discountableCents);
    discountCents += discount;
    validCoupons.push({ ...pick(coupon), discountCents: discount, freeShipping: false });
  }
  return { validCoupons, invalidCoupons, discountCents, freeShipping };
}

function pick(c: Coupon) {
  return { id: c.id, code: normalizeCode(c.code), kind: c.kind as CouponKind, amount: c.amount };
}
