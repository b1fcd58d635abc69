/**
 * The `date` formatter's strftime-style patterns (`{t|date %A, %B %e %Y}`) and the same-day
 * test, computed in the website's time zone through Julian days (see julian.ts).
 */
import type { CLDR } from "@phensley/cldr";
import type { ZoneInfo } from "@phensley/timezone";
import { type DateFields, dateFields, fillDateFields, weekOfYear } from "./julian.js";
import { zoneAt } from "./timezone.js";

/** Month and weekday names used by the patterns. */
interface DateNames {
  /** 12 abbreviated month names, January first. */
  monthsShort: readonly string[];
  monthsLong: readonly string[];
  /** 7 abbreviated weekday names, Sunday first. */
  weekdaysShort: readonly string[];
  weekdaysLong: readonly string[];
}

export const ENGLISH_NAMES: DateNames = {
  monthsShort: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  monthsLong: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
  weekdaysShort: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
  weekdaysLong: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
};

const namesCache = new WeakMap<CLDR, DateNames>();
/** The names asked for last (renders ask again and again for the same locale). */
let lastNames: [CLDR | null, DateNames] = [null, ENGLISH_NAMES];

/** Month and weekday names of a CLDR locale (format context, Gregorian calendar). */
export function cldrDateNames(cldr: CLDR): DateNames {
  if (cldr === lastNames[0]) return lastNames[1];
  let names = namesCache.get(cldr);
  if (names === undefined) {
    const list = (obj: Record<string, string>, n: number, fallback: readonly string[]): string[] => {
      const out: string[] = [];
      for (let i = 1; i <= n; i++) out.push(obj[String(i)] || fallback[i - 1]);
      return out;
    };
    const C = cldr.Calendars;
    names = {
      monthsShort: list(C.months({ width: "abbreviated" }), 12, ENGLISH_NAMES.monthsShort),
      monthsLong: list(C.months({ width: "wide" }), 12, ENGLISH_NAMES.monthsLong),
      weekdaysShort: list(C.weekdays({ width: "abbreviated" }), 7, ENGLISH_NAMES.weekdaysShort),
      weekdaysLong: list(C.weekdays({ width: "wide" }), 7, ENGLISH_NAMES.weekdaysLong),
    };
    namesCache.set(cldr, names);
  }
  lastNames = [cldr, names];
  return names;
}

/** "00" to "99" and " 0" to "99": two-digit fields without building strings. */
const ZERO_PADDED = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));
const SPACE_PADDED = Array.from({ length: 100 }, (_, i) => (i < 10 ? ` ${i}` : String(i)));

const pad = (n: number, width: number, fill = "0"): string => {
  // The common case first: a two-digit field.
  if (width === 2 && n >= 0 && n < 100 && (n | 0) === n) {
    if (fill === "0") return ZERO_PADDED[n];
    if (fill === " ") return SPACE_PADDED[n];
  }
  const s = String(Math.abs(n));
  const padded = s.length >= width ? s : fill.repeat(width - s.length) + s;
  return n < 0 ? `-${padded}` : padded;
};

/** Formats an offset in minutes as ±hh:mm. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

interface Instant {
  epochMs: number;
  /** The zone info the fields were computed with. */
  zone: ZoneInfo | null;
  f: DateFields;
  offsetMinutes: number;
  zoneAbbr: string;
  names: DateNames;
}

const SCRATCH: Instant = {
  epochMs: Number.NaN,
  zone: null,
  f: dateFields(0, 0),
  offsetMinutes: 0,
  zoneAbbr: "",
  names: ENGLISH_NAMES,
};

const hour12 = (f: DateFields): number => (f.hour % 12 === 0 ? 12 : f.hour % 12);
const ampm = (f: DateFields): string => (f.hour < 12 ? "AM" : "PM");

/** Expands one conversion character; `undefined` when it is not a known conversion. */
function convert(c: number, t: Instant): string | undefined {
  const { f, names } = t;
  switch (c) {
    case 97: // a
      return names.weekdaysShort[f.weekday];
    case 65: // A
      return names.weekdaysLong[f.weekday];
    case 98: // b
    case 104: // h
      return names.monthsShort[f.month - 1];
    case 66: // B
      return names.monthsLong[f.month - 1];
    case 99: // c
      return (
        `${names.weekdaysShort[f.weekday]}, ${names.monthsShort[f.month - 1]} ${f.day}, ${f.year} ` +
        `${hour12(f)}:${pad(f.minute, 2)}:${pad(f.second, 2)} ${ampm(f)} ${t.zoneAbbr}`
      );
    case 67: // C
      return pad(Math.floor(f.year / 100), 2);
    case 100: // d
      return pad(f.day, 2);
    case 68: // D
      return `${pad(f.month, 2)}/${pad(f.day, 2)}/${pad(((f.year % 100) + 100) % 100, 2)}`;
    case 101: // e
      return pad(f.day, 2, " ");
    case 70: // F
      return `${f.year}-${pad(f.month, 2)}-${pad(f.day, 2)}`;
    case 103: // g
      return pad(((weekOfYear(f, 1, 4).year % 100) + 100) % 100, 2);
    case 71: // G
      return String(weekOfYear(f, 1, 4).year);
    case 72: // H
      return pad(f.hour, 2);
    case 73: // I
      return pad(hour12(f), 2);
    case 106: // j
      return pad(f.dayOfYear, 3);
    case 107: // k
      return pad(f.hour, 2, " ");
    case 108: // l
      return pad(hour12(f), 2, " ");
    case 109: // m
      return pad(f.month, 2);
    case 77: // M
      return pad(f.minute, 2);
    case 110: // n
      return "\n";
    case 78: // N
      return pad(f.millis * 1_000_000, 9);
    case 112: // p
      return ampm(f);
    case 80: // P
      return ampm(f).toLowerCase();
    case 113: // q
      return String(Math.floor((f.month - 1) / 3) + 1);
    case 114: // r
      return `${hour12(f)}:${pad(f.minute, 2)}:${pad(f.second, 2)} ${ampm(f)}`;
    case 82: // R
      return `${pad(f.hour, 2)}:${pad(f.minute, 2)}`;
    case 115: // s
      return String(Math.floor(t.epochMs / 1000));
    case 83: // S
      return pad(f.second, 2);
    case 116: // t
      return "\t";
    case 84: // T
      return `${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}`;
    case 117: // u
      return String(f.weekday === 0 ? 7 : f.weekday);
    case 85: // U
      return pad(weekOfYear(f, 0, 1).week, 2);
    case 118: // v
      return `${pad(f.day, 2, " ")}-${names.monthsShort[f.month - 1]}-${f.year}`;
    case 86: // V
      return pad(weekOfYear(f, 1, 4).week, 2);
    case 119: // w
      return String(f.weekday);
    case 87: // W
      return pad(weekOfYear(f, 1, 1).week, 2);
    case 120: // x
      return `${pad(f.month, 2)}/${pad(f.day, 2)}/${f.year}`;
    case 88: // X
      return `${pad(hour12(f), 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)} ${ampm(f)}`;
    case 121: // y
      return pad(((f.year % 100) + 100) % 100, 2);
    case 89: // Y
      return String(f.year);
    case 122: // z
      return formatOffset(t.offsetMinutes);
    case 90: // Z
      return t.zoneAbbr;
    default:
      return undefined;
  }
}

/** A strftime pattern split once into literal text and conversion characters. */
export interface StrftimePattern {
  /** Literal text around the conversions: one more than `codes`. */
  readonly texts: readonly string[];
  /** The conversion characters' codes (`%Y` is 89). */
  readonly codes: readonly number[];
}

const PATTERN_CACHE = new Map<string, StrftimePattern>();
const PATTERN_CACHE_LIMIT = 500;

/**
 * Splits a strftime pattern into literal text and conversions (cached per pattern): `%%` is a
 * percent sign, unknown conversions and a trailing `%` stay as written.
 */
export function compileStrftime(pattern: string): StrftimePattern {
  const cached = PATTERN_CACHE.get(pattern);
  if (cached !== undefined) return cached;
  const texts: string[] = [];
  const codes: number[] = [];
  let text = "";
  const n = pattern.length;
  for (let i = 0; i < n; i++) {
    const ch = pattern[i];
    if (ch !== "%" || i === n - 1) {
      text += ch;
      continue;
    }
    const c = pattern[++i];
    if (c === "%") {
      text += "%";
    } else if (KNOWN_CONVERSIONS.includes(c)) {
      texts.push(text);
      codes.push(c.charCodeAt(0));
      text = "";
    } else {
      text += `%${c}`;
    }
  }
  texts.push(text);
  const compiled: StrftimePattern = { texts, codes };
  if (PATTERN_CACHE.size >= PATTERN_CACHE_LIMIT) PATTERN_CACHE.clear();
  PATTERN_CACHE.set(pattern, compiled);
  return compiled;
}

/** The conversion characters {@link convert} knows. */
const KNOWN_CONVERSIONS = "aAbhBcCdDeFgGHIjklmMnNpPqrRsStTuUvVwWxXyYzZ";

/**
 * Formats epoch milliseconds with a compiled strftime pattern in a time zone. Throws a
 * JulianDayRangeError for instants outside the supported range.
 */
export function formatStrftime(
  pattern: StrftimePattern,
  epochMs: number,
  zoneId: string,
  names: DateNames = ENGLISH_NAMES,
  warn?: (message: string) => void,
): string {
  const { texts, codes } = pattern;
  const zone = zoneAt(zoneId, epochMs, warn);
  // One instant object is reused (formatting never re-enters itself); its fields are kept
  // when the same instant is formatted again in the same zone (`{t|date %F}` then
  // `{t|date %B %e}`).
  const t = SCRATCH;
  if (epochMs !== t.epochMs || zone !== t.zone) {
    t.epochMs = Number.NaN;
    t.f = fillDateFields(t.f, epochMs, zone.offset);
    t.epochMs = epochMs;
    t.zone = zone;
    t.offsetMinutes = Math.round(zone.offset / 60_000);
    t.zoneAbbr = zone.abbr;
  }
  t.names = names;
  let out = texts[0];
  for (let i = 0; i < codes.length; i++) out += (convert(codes[i], t) as string) + texts[i + 1];
  return out;
}

/**
 * Formats epoch milliseconds with a strftime-style pattern in a time zone. `%%` is a percent
 * sign; unknown conversions are kept as written. Throws a JulianDayRangeError for instants
 * outside the supported range.
 */
export function strftime(
  pattern: string,
  epochMs: number,
  zoneId: string,
  names: DateNames = ENGLISH_NAMES,
  warn?: (message: string) => void,
): string {
  return formatStrftime(compileStrftime(pattern), epochMs, zoneId, names, warn);
}

/** True when two instants fall on the same calendar day in a time zone. */
export function sameDay(a: number, b: number, zoneId: string, warn?: (message: string) => void): boolean {
  const fa = dateFields(a, zoneAt(zoneId, a, warn).offset);
  const fb = dateFields(b, zoneAt(zoneId, b, warn).offset);
  return fa.year === fb.year && fa.month === fb.month && fa.day === fb.day;
}
