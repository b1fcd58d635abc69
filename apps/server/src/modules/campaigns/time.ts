/** Times the owner gives in their site's time zone. */

/** Offset of `timeZone` from UTC at `date`, in minutes. */
function offsetMinutes(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(date);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return Math.round((asUtc - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
}

/**
 * An ISO 8601 time: with `Z` or an offset it is that instant; without one (`2026-12-01T09:00`) it
 * is that wall-clock time in `timeZone`. Undefined when it is not a time.
 */
export function zonedTime(value: string, timeZone: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/.exec(
    value.trim(),
  );
  if (!m) return undefined;
  if (m[7]) {
    const d = new Date(value.trim());
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  const wall = Date.UTC(
    Number(m[1]),
    Number(m[2]) - 1,
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6] ?? 0),
  );
  if (Number.isNaN(wall)) return undefined;
  let guess = wall;
  try {
    for (let i = 0; i < 2; i++) guess = wall - offsetMinutes(new Date(guess), timeZone) * 60_000;
  } catch {
    return undefined;
  }
  return new Date(guess);
}
