/**
 * Locale (i18n) formatters: dates and times, numbers, money, messages, plurals, units.
 * They format with the CLDR data of the render locale, which must be loaded first
 * (`loadLocale` in ../i18n/cldr.ts); dates use the website's time zone.
 */
import type { CLDR, Decimal } from "@phensley/cldr";
import {
  cldrDateNames,
  compileStrftime,
  ENGLISH_NAMES,
  formatStrftime,
  type StrftimePattern,
} from "../i18n/date.js";
import { cldrFor, contextCldr } from "../i18n/cldr.js";
import { formatInterval } from "../i18n/interval.js";
import { JulianDayRangeError } from "../i18n/julian.js";
import { epochOf, formatMessage, messageArgs } from "../i18n/message.js";
import { formatLegacyMoney, formatMoney, moneyParts, useCldrMoneyFormat } from "../i18n/money.js";
import { decimalFormatArgs, formatDecimal, toDecimal } from "../i18n/number.js";
import { datetimeOptions, intervalOptions } from "../i18n/options.js";
import { formatRelativeTime, humanizeDuration, timeSince } from "../i18n/relative.js";
import { resolveZoneId, usableZoneId, websiteTimeZone } from "../i18n/timezone.js";
import { formatUnits, unitArgs } from "../i18n/units.js";
import type { Formatter, FormatterTable, RenderContext } from "../types.js";
import { legacy } from "../util/compat.js";
import { asNumber, asString, isNumber, numberValue } from "../util/values.js";

const isAbsent = (v: unknown): boolean => v === undefined || v === null;

/** The website's zone, or the fallback zone (with a warning) when there is no data for it. */
function zoneOf(ctx: RenderContext): string {
  return usableZoneId(websiteTimeZone(ctx), (m) => ctx.error(m));
}

/** Compiled strftime patterns by the (frozen) argument list of a `date` call site. */
const PATTERNS = new WeakMap<readonly string[], StrftimePattern>();

/** `{t|date %A, %B %e}`: strftime-style formatting of epoch milliseconds in the website's zone. */
const date: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  const v = first.value;
  if (isAbsent(v)) {
    first.value = undefined;
    return;
  }
  const ms = epochOf(v);
  if (!Number.isFinite(ms)) {
    first.value = "Invalid Date";
    return;
  }
  if (args.length === 0) {
    first.value = "";
    return;
  }
  const cldr = cldrFor(ctx.locale || "en-US");
  const names = cldr === undefined ? ENGLISH_NAMES : cldrDateNames(cldr);
  // The engine passes each call site's frozen argument list: its compiled pattern is kept.
  let pattern = PATTERNS.get(args);
  if (pattern === undefined) {
    pattern = compileStrftime(args.join(" "));
    if (Object.isFrozen(args)) PATTERNS.set(args, pattern);
  }
  try {
    const zone = websiteTimeZone(ctx);
    // A warning callback is only needed when the zone has no data (it then falls back to UTC).
    const warn = resolveZoneId(zone) === undefined ? (m: string) => ctx.error(m) : undefined;
    first.value = formatStrftime(pattern, ms, zone, names, warn);
  } catch (e) {
    if (!(e instanceof JulianDayRangeError)) throw e;
    ctx.error(e.message);
    first.value = "";
  }
};

/** `{t|datetime date:long time:short}`: CLDR date/time formatting in the website's zone. */
const datetime: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  const ms = epochOf(first.value);
  const cldr = Number.isFinite(ms) ? contextCldr(ctx) : undefined;
  if (cldr === undefined) {
    first.value = "";
    return;
  }
  first.value = cldr.Calendars.formatDate({ date: ms, zoneId: zoneOf(ctx) }, datetimeOptions(args));
};

/** `{start, end|datetime-interval yMMMd}`: a CLDR date interval in the website's zone. */
const datetimeInterval: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  const start = epochOf(first.value);
  const end = vars.length > 1 ? epochOf(vars[1].value) : Number.NaN;
  const cldr = Number.isFinite(start) && Number.isFinite(end) ? contextCldr(ctx) : undefined;
  if (cldr === undefined) {
    first.value = "";
    return;
  }
  first.value = formatInterval(cldr, start, end, zoneOf(ctx), intervalOptions(args));
};

/**
 * A formatter of a number with the locale's CLDR data: `format` gives the text; the value is
 * missing when it is not a number (or no locale is loaded).
 */
const amountFormatter =
  (format: (cldr: CLDR, n: Decimal, args: readonly string[]) => string): Formatter =>
  (args, vars, ctx) => {
    const first = vars[0];
    const n = toDecimal(first.value);
    const cldr = n === undefined ? undefined : contextCldr(ctx);
    if (n === undefined || cldr === undefined) {
      first.value = undefined;
      return;
    }
    first.value = format(cldr, n, args);
  };

/** `{n|decimal style:short maxfrac:1}`: CLDR decimal formatting; missing when not a number. */
const decimal = amountFormatter((cldr, n, args) => formatDecimal(cldr, n, decimalFormatArgs(args)));

/** `{msg|message a b name=c}` (and the legacy alias `plural`): an ICU-style message. */
const message: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  const cldr = contextCldr(ctx);
  if (cldr === undefined) {
    first.value = "";
    return;
  }
  const [positional, named] = messageArgs(args, ctx);
  first.value = formatMessage(cldr, asString(first.value), positional, named, zoneOf(ctx));
};

/**
 * `{price|money style:short}`: CLDR currency formatting of `{decimalValue, currencyCode}`,
 * or of `{value, currency}` when the site uses the CLDR money format.
 */
const money: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  const m = moneyParts(first.value, useCldrMoneyFormat(ctx.root()));
  const cldr = m === undefined ? undefined : contextCldr(ctx);
  if (m === undefined || cldr === undefined) {
    first.value = "";
    return;
  }
  first.value = formatMoney(cldr, m, args);
};

/** `{price|i18n-money-format de-DE}`: the legacy money format for a locale (default en-US). */
const i18nMoneyFormat: Formatter = (args, vars, ctx) => {
  vars[0].value = formatLegacyMoney(vars[0].value, args[0], !legacy(ctx, "MONEY_DOUBLE_ROUNDING"));
};

/**
 * `{t|relative-time}` (from now) or `{start, end|relative-time}`: CLDR relative time
 * ("in 2 hours", "11 hours ago"). Missing when a date is missing; "Invalid date." when a
 * date is not a number.
 */
const relativeTime: Formatter = (args, vars, ctx) => {
  const first = vars[0];
  if (isAbsent(first.value) || (vars.length > 1 && isAbsent(vars[1].value))) {
    first.value = undefined;
    return;
  }
  let start = ctx.now;
  let end = epochOf(first.value);
  if (vars.length > 1) {
    start = end;
    end = epochOf(vars[1].value);
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    first.value = "Invalid date.";
    return;
  }
  const cldr = contextCldr(ctx);
  first.value = cldr === undefined ? "" : formatRelativeTime(cldr, start, end, args);
};

/** Epoch milliseconds from a JSON number or a numeric string ("1577987019000"); NaN otherwise. */
function epochMillis(v: unknown): number {
  if (isNumber(v)) return numberValue(v);
  if (typeof v === "string" && v.trim() !== "") return Number(v);
  return Number.NaN;
}

/**
 * `{t|timesince}`: how long ago, in a `<span class="timesince" data-date="…">` ("now" within
 * a minute or in the future, else "about 3 weeks ago"); "Invalid date." when the value is
 * not a number or a numeric string.
 */
const timesince: Formatter = (_args, vars, ctx) => {
  const first = vars[0];
  const ms = epochMillis(first.value);
  if (!Number.isFinite(ms)) {
    first.value = "Invalid date.";
    return;
  }
  const cldr = contextCldr(ctx);
  if (cldr === undefined) {
    first.value = "";
    return;
  }
  first.value = `<span class="timesince" data-date="${ms}">${timeSince(cldr, ms, ctx.now)}</span>`;
};

/** `{ms|humanizeDuration}`: a duration in milliseconds as m:ss. */
const humanize: Formatter = (_args, vars) => {
  const n = asNumber(vars[0].value);
  vars[0].value = humanizeDuration(Number.isFinite(n) ? n : 0);
};

/** `{n|unit in:inch out:centimeter}`: unit conversion and CLDR unit formatting. */
const unit = amountFormatter((cldr, n, args) => formatUnits(cldr, n, unitArgs(args)));

export const i18nFormatters: FormatterTable = {
  date,
  datetime,
  "datetime-interval": datetimeInterval,
  decimal,
  humanizeDuration: humanize,
  "humanize-duration": humanize,
  "i18n-money-format": i18nMoneyFormat,
  message,
  money,
  plural: message,
  "relative-time": relativeTime,
  timesince,
  unit,
  units: unit,
};
