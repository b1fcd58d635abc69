/**
 * Relative times and durations: `relative-time` (CLDR "in 2 hours", "11 hours ago"),
 * `timesince` (the "time since" span of comments and posts) and `humanizeDuration` (m:ss).
 */
import type { CLDR } from "@phensley/cldr";
import { relativeTimeOptions } from "./options.js";

/** Formats the time from `start` to `end` (epoch milliseconds) the CLDR way, in UTC. */
export function formatRelativeTime(cldr: CLDR, start: number, end: number, args: readonly string[]): string {
  const C = cldr.Calendars;
  const s = C.toGregorianDate({ date: start, zoneId: "UTC" });
  const e = C.toGregorianDate({ date: end, zoneId: "UTC" });
  return C.formatRelativeTime(s, e, relativeTimeOptions(args));
}

/** Within this many milliseconds of now (or in the future), a time shows as "now". */
export const NOW_WINDOW_MS = 60_000;

/**
 * How long ago `instant` was, seen from `now`: "now" within a minute or in the future,
 * else the largest whole unit ("5 minutes ago", "2 days ago"), in the locale's words.
 */
export function timeSince(cldr: CLDR, instant: number, now: number): string {
  const delta = now - instant;
  const C = cldr.Calendars;
  if (delta < NOW_WINDOW_MS) {
    return C.formatRelativeTimeField(0, "second", { width: "wide", alwaysNow: true });
  }
  const s = C.toGregorianDate({ date: now, zoneId: "UTC" });
  const e = C.toGregorianDate({ date: instant, zoneId: "UTC" });
  return C.formatRelativeTime(s, e, {
    width: "wide",
    maximumFractionDigits: 0,
    group: true,
    allowWeeks: true,
  });
}

/** A duration in milliseconds as minutes and zero-padded seconds ("2:05"); minutes are not wrapped. */
export function humanizeDuration(ms: number): string {
  const totalSeconds = Math.trunc(ms / 1000);
  const negative = totalSeconds < 0;
  const abs = Math.abs(totalSeconds);
  const minutes = Math.floor(abs / 60);
  const seconds = abs % 60;
  return `${negative ? "-" : ""}${minutes}:${seconds < 10 ? "0" : ""}${seconds}`;
}
