/**
 * Customer subscription renewals (SPEC §3 subscription product terms: billingPeriod {value,
 * unit}, numBillingCycles with 0 meaning indefinite). Dates are computed in UTC; a monthly
 * renewal on the 31st falls on the last day of shorter months and comes back to the 31st.
 */
import type { BillingPeriod, BillingUnit } from "./subscription.js";

const DAY_MS = 86_400_000;

/** Days to wait before retrying a failed renewal; after the last retry fails, it is past due. */
export const RENEWAL_RETRY_DELAYS_DAYS: readonly number[] = [1, 3, 5];

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The date `n` billing periods after `anchor` (the first charge). Counting from the anchor
 * keeps month-end renewals on the anchor's day when the month has it.
 */
export function billingDate(anchor: Date, period: BillingPeriod, n: number): Date {
  if (!Number.isInteger(n) || n < 0) throw new RangeError("n must be a non-negative integer");
  if (!Number.isInteger(period.value) || period.value < 1)
    throw new RangeError("billing period value must be a positive integer");
  const steps = period.value * n;
  const unit: BillingUnit = period.unit;
  if (unit === "WEEK") return new Date(anchor.getTime() + steps * 7 * DAY_MS);
  const months = unit === "MONTH" ? steps : steps * 12;
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const year = y + Math.floor(m / 12);
  const month = ((m % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** Whether another charge is due after `cyclesBilled` charges (0 cycles: never ends). */
export function hasMoreCycles(numBillingCycles: number, cyclesBilled: number): boolean {
  return numBillingCycles === 0 || cyclesBilled < numBillingCycles;
}

export type RenewalFailureOutcome =
  | { status: "retry"; retryAt: Date; failedAttempts: number }
  | { status: "past_due"; failedAttempts: number };

/** What happens after a renewal charge fails: retry later, or past due after the last retry. */
export function afterFailedRenewal(now: Date, failedAttemptsBefore: number): RenewalFailureOutcome {
  const failedAttempts = failedAttemptsBefore + 1;
  const delay = RENEWAL_RETRY_DELAYS_DAYS[failedAttempts - 1];
  if (delay === undefined) return { status: "past_due", failedAttempts };
  return { status: "retry", retryAt: new Date(now.getTime() + delay * DAY_MS), failedAttempts };
}
