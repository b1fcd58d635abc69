/** Time is injected so that expiries, renewals and relative dates are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
