/**
 * Date interval formatting (`datetime-interval`) in a time zone.
 */
import type { CLDR, DateIntervalFormatOptions } from "@phensley/cldr";

/** Skeleton used when the dates differ in a date field and no skeleton is given. */
export const DEFAULT_DATE_SKELETON = "yMMMd";
/** Skeleton used when only the time differs and no skeleton is given: hours, minutes, zone. */
export const DEFAULT_TIME_SKELETON = "hmv";

const TIME_FIELDS = /[aBbhHkKjJCmsSAzZOvVXx]/;
const DATE_FIELDS = new Set(["G", "y", "M", "d"]);

const fallbackPatterns = new WeakMap<CLDR, string>();

/** The locale's interval fallback pattern, "{0} – {1}" in English. */
function fallbackPattern(cldr: CLDR): string {
  let p = fallbackPatterns.get(cldr);
  if (p === undefined) {
    try {
      p = cldr.Schema.Gregorian.intervalFormatFallback.get(cldr.General.bundle()) || "{0} – {1}";
    } catch {
      p = "{0} – {1}";
    }
    fallbackPatterns.set(cldr, p);
  }
  return p;
}

/**
 * Formats the interval between two instants (epoch milliseconds) in a zone. With no skeleton,
 * dates that differ by day or more use "yMMMd" and times within a day use "hmv". A date-only
 * skeleton for two times on the same day shows both dates joined by the fallback pattern.
 */
export function formatInterval(
  cldr: CLDR,
  start: number,
  end: number,
  zoneId: string,
  options: DateIntervalFormatOptions,
): string {
  const C = cldr.Calendars;
  const s = C.toGregorianDate({ date: start, zoneId });
  const e = C.toGregorianDate({ date: end, zoneId });
  const opts: DateIntervalFormatOptions = { ...options };
  if (opts.skeleton === undefined && opts.date === undefined && opts.time === undefined) {
    opts.date = DEFAULT_DATE_SKELETON;
    opts.time = DEFAULT_TIME_SKELETON;
  }
  const skeleton = opts.skeleton;
  if (skeleton !== undefined && !TIME_FIELDS.test(skeleton)) {
    const fovd = C.fieldOfVisualDifference(s, e);
    if (fovd === undefined || !DATE_FIELDS.has(fovd)) {
      const dateOpts = { skeleton, ca: opts.ca, context: opts.context };
      const a = C.formatDate(s, dateOpts);
      if (fovd === undefined) return a;
      const b = C.formatDate(e, dateOpts);
      return fallbackPattern(cldr)
        .replace("{0}", () => a)
        .replace("{1}", () => b);
    }
  }
  return C.formatDateInterval(s, e, opts);
}
