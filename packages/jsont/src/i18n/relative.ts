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
const NOW_WINDOW_MS = 60_000;

type SinceUnit = "year" | "month" | "week" | "day" | "hour" | "minute";

/**
 * The unit and count "time since" shows for `deltaMs` (at least a minute): whole years of 365
 * days, else whole months of 30 days, else whole weeks, days, hours, then minutes, the way
 * the published template engines humanize it ("about 70 years ago", never "71 years ago").
 */
function timeSinceUnit(deltaMs: number): { unit: SinceUnit; count: number } {
  const seconds = deltaMs / 1000;
  const days = Math.trunc(seconds / 86_400);
  const buckets: Array<[SinceUnit, number]> = [
    ["year", Math.trunc(days / 365)],
    ["month", Math.trunc(days / 30)],
    ["week", Math.trunc(days / 7)],
    ["day", days],
    ["hour", Math.trunc(seconds / 3600)],
  ];
  for (const [unit, count] of buckets) if (count > 0) return { unit, count };
  return { unit: "minute", count: Math.max(1, Math.trunc(seconds / 60)) };
}

/** "about a year ago", "about an hour ago", "about 3 weeks ago". */
function englishTimeSince(unit: SinceUnit, count: number): string {
  if (count !== 1) return `about ${count} ${unit}s ago`;
  return `about ${unit === "hour" ? "an" : "a"} ${unit} ago`;
}

/**
 * How long ago `instant` was, seen from `now`: "now" within a minute or in the future (SPEC),
 * else the largest whole unit, "about 2 years ago" in English as the reference engines
 * print it, and the CLDR relative time of the same unit and count in other languages
 * ("vor 2 Jahren").
 */
export function timeSince(cldr: CLDR, instant: number, now: number): string {
  const delta = now - instant;
  const C = cldr.Calendars;
  if (!(delta >= NOW_WINDOW_MS)) {
    return C.formatRelativeTimeField(0, "second", { width: "wide", alwaysNow: true });
  }
  const { unit, count } = timeSinceUnit(delta);
  if (cldr.General.locale().tag.language() === "en") return englishTimeSince(unit, count);
  return C.formatRelativeTimeField(-count, unit, { width: "wide" });
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
