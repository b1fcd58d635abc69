/**
 * Subscription product terms and their price text (SPEC §3, §5, §9).
 * Text: "{price} every week" / "every N weeks", plus "for N weeks" or, when the total
 * number of periods makes whole years, "for 1 year" / "for N years". A plan is indefinite
 * only when numBillingCycles is 0.
 */
import { ProductType } from "./availability.js";

export type BillingUnit = "WEEK" | "MONTH" | "YEAR";

export interface BillingPeriod {
  value: number;
  unit: BillingUnit;
}

export interface SubscriptionPlan {
  billingPeriod: BillingPeriod;
  /** Number of charges; 0 (or missing) means indefinite. */
  numBillingCycles?: number;
}

/** How many periods of each unit make a year. */
export const PERIODS_PER_YEAR: Readonly<Record<BillingUnit, number>> = { WEEK: 52, MONTH: 12, YEAR: 1 };

const UNITS: readonly BillingUnit[] = ["WEEK", "MONTH", "YEAR"];

/** Parses a billing unit case-insensitively ("week", "MONTH"); `undefined` when unknown. */
export function parseBillingUnit(value: unknown): BillingUnit | undefined {
  if (typeof value !== "string") return undefined;
  const unit = value.trim().toUpperCase();
  return (UNITS as readonly string[]).includes(unit) ? (unit as BillingUnit) : undefined;
}

function integer(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

/**
 * Reads a plan from JSON ({billingPeriod: {value, unit}, numBillingCycles}); `undefined`
 * when there is no usable billing period.
 */
export function parseSubscriptionPlan(value: unknown): SubscriptionPlan | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const period = raw.billingPeriod as Record<string, unknown> | undefined;
  if (typeof period !== "object" || period === null) return undefined;
  const unit = parseBillingUnit(period.unit);
  if (!unit) return undefined;
  return {
    billingPeriod: { value: integer(period.value), unit },
    numBillingCycles: integer(raw.numBillingCycles),
  };
}

/** Only physical products and services can be sold as subscriptions. */
export function canBeSubscription(type: ProductType | undefined): boolean {
  return type === ProductType.PHYSICAL || type === ProductType.SERVICE;
}

/** True only when numBillingCycles is 0 (a missing count reads as 0). */
export function isIndefinite(plan: SubscriptionPlan): boolean {
  return (plan.numBillingCycles ?? 0) === 0;
}

export interface SubscriptionDuration {
  value: number;
  unit: BillingUnit;
}

/**
 * Total length of a finite plan: periods × cycles in the billing unit, converted to years
 * when that total divides evenly into years. `undefined` for an indefinite plan.
 */
export function subscriptionDuration(plan: SubscriptionPlan): SubscriptionDuration | undefined {
  if (isIndefinite(plan)) return undefined;
  const { value, unit } = plan.billingPeriod;
  const total = value * (plan.numBillingCycles ?? 0);
  const perYear = PERIODS_PER_YEAR[unit];
  if (total > 0 && total % perYear === 0) return { value: total / perYear, unit: "YEAR" };
  return { value: total, unit };
}

function lower(unit: BillingUnit): string {
  return unit.toLowerCase();
}

function capitalized(unit: BillingUnit): string {
  return unit.charAt(0) + unit.slice(1).toLowerCase();
}

/**
 * The English message pattern of a plan, with the placeholders `{price}`,
 * `{billingPeriodValue}` and `{duration}`:
 * "{price} every {billingPeriodValue} weeks for {duration} years".
 */
export function subscriptionPricePattern(plan: SubscriptionPlan, options: { from?: boolean } = {}): string {
  const { value, unit } = plan.billingPeriod;
  const plural = value > 1;
  let text = `${options.from ? "from " : ""}{price} every ${plural ? "{billingPeriodValue} " : ""}${lower(unit)}${plural ? "s" : ""}`;
  if (!isIndefinite(plan)) {
    const duration = subscriptionDuration(plan) as SubscriptionDuration;
    text += ` for {duration} ${lower(duration.unit)}${duration.value === 1 ? "" : "s"}`;
  }
  return text;
}

/**
 * The key of the localized pattern of a plan, e.g. "productPrice__singlePrice__1Weekly__indefinite"
 * or "productPrice__multiplePrices__nMonthly__limited__1Years".
 */
export function subscriptionMessageKey(plan: SubscriptionPlan, multiplePrices: boolean): string {
  const { value, unit } = plan.billingPeriod;
  const head = `productPrice__${multiplePrices ? "multiplePrices" : "singlePrice"}__${value === 1 ? "1" : "n"}${capitalized(unit)}ly__`;
  const duration = subscriptionDuration(plan);
  if (!duration) return `${head}indefinite`;
  return `${head}limited__${duration.value === 1 ? "1" : "n"}${capitalized(duration.unit)}s`;
}

/** The values of the pattern's placeholders other than the price. */
export function subscriptionMessageArgs(plan: SubscriptionPlan): {
  billingPeriodValue: number;
  duration: number;
} {
  return { billingPeriodValue: plan.billingPeriod.value, duration: subscriptionDuration(plan)?.value ?? 0 };
}

/** Replaces `{name}` placeholders by their values; unknown placeholders are left as they are. */
export function fillPattern(pattern: string, args: Readonly<Record<string, string | number>>): string {
  return pattern.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(args, name) ? String(args[name]) : whole,
  );
}

/**
 * The full price text: `subscriptionPriceText("$10.00", {billingPeriod: {value: 2, unit: "WEEK"},
 * numBillingCycles: 26})` is "$10.00 every 2 weeks for 1 year".
 */
export function subscriptionPriceText(
  price: string,
  plan: SubscriptionPlan,
  options: { from?: boolean } = {},
): string {
  return fillPattern(subscriptionPricePattern(plan, options), { price, ...subscriptionMessageArgs(plan) });
}
