import { describe, expect, it } from "vitest";
import { RENEWAL_RETRY_DELAYS_DAYS, afterFailedRenewal, billingDate, hasMoreCycles } from "./renewals.js";

describe("subscription renewals", () => {
  const anchor = new Date("2026-01-31T15:30:00Z");

  it("adds weeks, months and years from the first charge", () => {
    expect(billingDate(anchor, { value: 2, unit: "WEEK" }, 1).toISOString()).toBe("2026-02-14T15:30:00.000Z");
    expect(billingDate(anchor, { value: 1, unit: "MONTH" }, 1).toISOString()).toBe(
      "2026-02-28T15:30:00.000Z",
    );
    // Counted from the anchor, so month ends come back to the 31st.
    expect(billingDate(anchor, { value: 1, unit: "MONTH" }, 2).toISOString()).toBe(
      "2026-03-31T15:30:00.000Z",
    );
    expect(billingDate(anchor, { value: 1, unit: "MONTH" }, 13).toISOString()).toBe(
      "2027-02-28T15:30:00.000Z",
    );
    expect(billingDate(new Date("2028-02-29T00:00:00Z"), { value: 1, unit: "YEAR" }, 1).toISOString()).toBe(
      "2029-02-28T00:00:00.000Z",
    );
    expect(billingDate(anchor, { value: 3, unit: "MONTH" }, 0).getTime()).toBe(anchor.getTime());
    expect(() => billingDate(anchor, { value: 0, unit: "MONTH" }, 1)).toThrow(RangeError);
  });

  it("knows when a plan is done (0 cycles never ends)", () => {
    expect(hasMoreCycles(0, 500)).toBe(true);
    expect(hasMoreCycles(3, 2)).toBe(true);
    expect(hasMoreCycles(3, 3)).toBe(false);
  });

  it("retries failed renewals, then marks them past due", () => {
    const now = new Date("2026-03-01T00:00:00Z");
    let failed = 0;
    for (const days of RENEWAL_RETRY_DELAYS_DAYS) {
      const r = afterFailedRenewal(now, failed);
      expect(r).toEqual({
        status: "retry",
        retryAt: new Date(now.getTime() + days * 86_400_000),
        failedAttempts: failed + 1,
      });
      failed += 1;
    }
    expect(afterFailedRenewal(now, failed)).toEqual({ status: "past_due", failedAttempts: failed + 1 });
  });
});
