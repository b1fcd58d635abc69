/** One formatter per time zone: making one costs far more than using it, and hot paths need one per event. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A date of the site's calendar (YYYY-MM-DD) at `at` in `timeZone`. */
export function localDay(at: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    });
    dayFormats.set(timeZone, format);
  }
  return format.format(at);
}
