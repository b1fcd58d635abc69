/**
 * Date interval formatting (`datetime-interval`) in a time zone.
 */
import type { CLDR, DateIntervalFormatOptions } from "@phensley/cldr";

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
 * CLDR's defaults: "yMMMd" when the dates differ by a day or more, "hm" for times within a day.
 * The zone is printed only when the template's skeleton asks for it (a "v" or "z" field): both
 * reference engines print none by default ("10:00 AM – 12:00 PM", "1:48 – 1:49 PM"). A date-only
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
