/**
 * Calendar fields from epoch milliseconds through the Julian day number, the way the
 * reference date code computes them: the Gregorian calendar from its cutover
 * (October 15, 1582) on, the proleptic Julian calendar before it, and a supported range of
 * Julian day 0 (January 1, 4713 BC) to 4881503 (December 31, 8652 AD).
 */

export const JD_MIN = 0;
export const JD_MAX = 4881503;
/** Julian day of the Unix epoch, Thursday January 1, 1970. */
export const JD_UNIX_EPOCH = 2440588;
/** Julian day of the first Gregorian date, October 15, 1582. */
export const JD_GREGORIAN_CUTOVER = 2299161;
const GREGORIAN_CUTOVER_YEAR = 1582;
/** Julian day of January 1, 1 AD (Gregorian). */
const JD_GREGORIAN_EPOCH = 1721426;

const ONE_DAY_MS = 86_400_000;

export class JulianDayRangeError extends RangeError {
  readonly julianDay: number;
  constructor(julianDay: number) {
    super(
      `Julian day ${julianDay} is outside the supported range ${JD_MIN} to ${JD_MAX} ` +
        "(January 1, 4713 BC to December 31, 8652 AD)",
    );
    this.name = "JulianDayRangeError";
    this.julianDay = julianDay;
  }
}

/** Local calendar fields of an instant. Months and days are 1-based. */
export interface DateFields {
  /** Julian day number of the local date. */
  julianDay: number;
  /** Extended year: 1 BC is 0, 2 BC is -1. */
  year: number;
  month: number;
  day: number;
  dayOfYear: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  millis: number;
  leap: boolean;
}

/** Cumulative days before each month, [common, leap]. */
const MONTH_START: ReadonlyArray<readonly [number, number]> = [
  [0, 0],
  [31, 31],
  [59, 60],
  [90, 91],
  [120, 121],
  [151, 152],
  [181, 182],
  [212, 213],
  [243, 244],
  [273, 274],
  [304, 305],
  [334, 335],
];

/** Leap year test, Julian rules before the cutover year and Gregorian rules from it. */
export function isLeapYear(year: number): boolean {
  const julianLeap = ((year % 4) + 4) % 4 === 0;
  if (year < GREGORIAN_CUTOVER_YEAR) return julianLeap;
  return julianLeap && (year % 100 !== 0 || year % 400 === 0);
}

/** Throws {@link JulianDayRangeError} when a Julian day is outside the supported range. */
export function checkJulianDay(jd: number): void {
  if (!(jd >= JD_MIN && jd <= JD_MAX)) throw new JulianDayRangeError(jd);
}

type Civil = Pick<DateFields, "year" | "month" | "day" | "dayOfYear" | "leap">;

/** Year, month, day and day of year of a Julian day number. */
export function civilFromJulianDay(jd: number): Civil {
  const out: Civil = { year: 0, month: 0, day: 0, dayOfYear: 0, leap: false };
  fillCivil(out, jd);
  return out;
}

/** Writes the civil date of a Julian day number into `out`. */
function fillCivil(out: Civil, jd: number): void {
  checkJulianDay(jd);
  let year: number;
  let doy: number; // 0-based
  if (jd >= JD_GREGORIAN_CUTOVER) {
    // Every quantity here is a non-negative int32: `(a / b) | 0` is the floor.
    const days = jd - JD_GREGORIAN_EPOCH;
    const n400 = (days / 146097) | 0;
    let rem = days - n400 * 146097;
    const n100 = (rem / 36524) | 0;
    rem -= n100 * 36524;
    const n4 = (rem / 1461) | 0;
    rem -= n4 * 1461;
    const n1 = (rem / 365) | 0;
    rem -= n1 * 365;
    year = 400 * n400 + 100 * n100 + 4 * n4 + n1;
    if (n100 === 4 || n1 === 4) {
      doy = 365; // December 31 of a leap year
    } else {
      year += 1;
      doy = rem;
    }
  } else {
    // Proleptic Julian calendar: day 0 of year 1 is Julian day JD_GREGORIAN_EPOCH - 2.
    const days = jd - (JD_GREGORIAN_EPOCH - 2);
    year = Math.floor((4 * days + 1464) / 1461);
    const jan1 = 365 * (year - 1) + Math.floor((year - 1) / 4);
    doy = days - jan1;
  }
  const leap = isLeapYear(year);
  const marchCorrection = doy >= (leap ? 60 : 59) ? (leap ? 1 : 2) : 0;
  const month0 = ((12 * (doy + marchCorrection) + 6) / 367) | 0;
  out.year = year;
  out.month = month0 + 1;
  out.day = doy - MONTH_START[month0][leap ? 1 : 0] + 1;
  out.dayOfYear = doy + 1;
  out.leap = leap;
}

/**
 * Local calendar fields of epoch milliseconds shifted by a zone offset (milliseconds east of
 * UTC). Throws {@link JulianDayRangeError} outside the supported range.
 */
export function dateFields(epochMs: number, offsetMs: number): DateFields {
  return fillDateFields(undefined, epochMs, offsetMs);
}

/**
 * {@link dateFields} written into `into` (a new object when it is undefined), for callers
 * that format many instants in a row; returns the object written.
 */
export function fillDateFields(into: DateFields | undefined, epochMs: number, offsetMs: number): DateFields {
  const local = epochMs + offsetMs;
  const days = Math.floor(local / ONE_DAY_MS);
  const jd = days + JD_UNIX_EPOCH;
  const f: DateFields =
    into ??
    ({
      julianDay: 0,
      year: 0,
      month: 0,
      day: 0,
      dayOfYear: 0,
      leap: false,
      weekday: 0,
      hour: 0,
      minute: 0,
      second: 0,
      millis: 0,
    } as DateFields);
  fillCivil(f, jd);
  // 0 <= msInDay < 86,400,000 (an int32) when `local` is an integer.
  let msInDay = local - days * ONE_DAY_MS;
  if (Number.isInteger(msInDay)) {
    msInDay |= 0;
    f.millis = msInDay % 1000;
    msInDay = (msInDay / 1000) | 0;
    f.second = msInDay % 60;
    msInDay = (msInDay / 60) | 0;
    f.minute = msInDay % 60;
    f.hour = (msInDay / 60) | 0;
  } else {
    f.millis = msInDay % 1000;
    msInDay = Math.floor(msInDay / 1000);
    f.second = msInDay % 60;
    msInDay = Math.floor(msInDay / 60);
    f.minute = msInDay % 60;
    f.hour = Math.floor(msInDay / 60);
  }
  f.julianDay = jd;
  // Julian day 0 was a Monday.
  f.weekday = (jd + 1) % 7;
  return f;
}

/** Days in a year of the (Julian/Gregorian) calendar. */
function daysInYear(year: number): number {
  return isLeapYear(year) ? 366 : 365;
}

/**
 * Week of the year and the year it belongs to, for weeks starting on `firstDay`
 * (0 = Sunday, 1 = Monday) where week 1 is the first week with at least `minDays` days of
 * the year. ISO 8601 is (1, 4); the US convention is (0, 1).
 */
export function weekOfYear(f: DateFields, firstDay: number, minDays: number): { week: number; year: number } {
  // Offset of this date from the start of its week.
  const rdow = (f.weekday - firstDay + 7) % 7;
  // Weekday (relative to firstDay) of January 1 of this year.
  const jan1 = (((rdow - (f.dayOfYear - 1)) % 7) + 7) % 7;
  let week = Math.floor((f.dayOfYear - 1 + jan1) / 7);
  if (7 - jan1 >= minDays) week += 1;
  let year = f.year;
  if (week === 0) {
    // Belongs to the last week of the previous year.
    const prevLength = daysInYear(f.year - 1);
    const doy = f.dayOfYear + prevLength;
    const prevJan1 = (((rdow - (doy - 1)) % 7) + 7) % 7;
    week = Math.floor((doy - 1 + prevJan1) / 7);
    if (7 - prevJan1 >= minDays) week += 1;
    year -= 1;
  } else {
    const length = daysInYear(f.year);
    // Days from this date's week start to the end of the year.
    const weekStartDoy = f.dayOfYear - rdow;
    const daysInYearFromWeekStart = length - weekStartDoy + 1;
    if (daysInYearFromWeekStart < 7 && 7 - daysInYearFromWeekStart >= minDays) {
      // The week's days in the next year are enough to make it that year's week 1.
      week = 1;
      year += 1;
    }
  }
  return { week, year };
}
