/** Time is injected so that expiries, renewals and relative dates are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Milliseconds in a day: for day counts (trials, retries, ages) added to or read from times. */
export const DAY_MS = 86_400_000;
