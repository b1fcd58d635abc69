/**
 * Parsing of the `key:value` option arguments the i18n formatters accept, e.g.
 * `{n|decimal style:short maxfrac:2}` or `{t|datetime date:full calendar:japanese}`,
 * into `@phensley/cldr` option objects.
 */
import type {
  CalendarType,
  ContextType,
  CurrencyFormatOptions,
  CurrencyFormatStyleType,
  CurrencySymbolWidthType,
  DateFieldWidthType,
  DateFormatOptions,
  DateIntervalFormatOptions,
  DecimalFormatOptions,
  DecimalFormatStyleType,
  FormatWidthType,
  NumberFormatOptions,
  RelativeTimeFormatOptions,
  RoundingModeType,
} from "@phensley/cldr";

/** Digit options (integer, fraction and significant digits) are clamped to this range. */
const DIGITS_MIN = 0;
const DIGITS_MAX = 50;

/** An argument split at its first ':' (or '=' when `allowEquals`): `["style", "short"]`, `["group", ""]`. */
export function splitOption(arg: string, allowEquals = false): [string, string] {
  let i = arg.indexOf(":");
  if (allowEquals) {
    const j = arg.indexOf("=");
    if (j !== -1 && (i === -1 || j < i)) i = j;
  }
  return i === -1 ? [arg, ""] : [arg.slice(0, i), arg.slice(i + 1)];
}

const DECIMAL_STYLES: ReadonlySet<string> = new Set<DecimalFormatStyleType>([
  "decimal",
  "short",
  "long",
  "scientific",
  "percent",
  "percent-scaled",
  "permille",
  "permille-scaled",
]);
const CURRENCY_STYLES: ReadonlySet<string> = new Set<CurrencyFormatStyleType>([
  "symbol",
  "accounting",
  "code",
  "name",
  "short",
]);
const SYMBOL_WIDTHS: ReadonlySet<string> = new Set<CurrencySymbolWidthType>(["default", "narrow"]);
const ROUNDING: ReadonlySet<string> = new Set<RoundingModeType>([
  "up",
  "down",
  "ceiling",
  "floor",
  "half-up",
  "half-down",
  "half-even",
]);
const FORMAT_WIDTHS: ReadonlySet<string> = new Set<FormatWidthType>(["short", "medium", "long", "full"]);
const CONTEXTS: ReadonlySet<string> = new Set<ContextType>([
  "middle-of-text",
  "begin-sentence",
  "standalone",
  "ui-list-or-menu",
]);
const FIELD_WIDTHS: ReadonlySet<string> = new Set<DateFieldWidthType>(["short", "narrow", "wide"]);
const RELATIVE_FIELDS: ReadonlySet<string> = new Set([
  "year",
  "month",
  "week",
  "day",
  "hour",
  "minute",
  "second",
  "millis",
]);

/** Parses an integer digit count and clamps it to 0–50 (unparsable counts read as 0). */
function digits(value: string): number {
  const n = Number.parseInt(value, 10);
  if (!Number.isFinite(n)) return DIGITS_MIN;
  return Math.max(DIGITS_MIN, Math.min(n, DIGITS_MAX));
}

/** The digit-count options by every name they go by: the full name, then two short ones. */
const DIGIT_OPTIONS: ReadonlyMap<string, keyof NumberFormatOptions & `${string}Digits`> = new Map(
  (
    [
      ["minimumIntegerDigits", "minint", "minInt"],
      ["maximumFractionDigits", "maxfrac", "maxFrac"],
      ["minimumFractionDigits", "minfrac", "minFrac"],
      ["maximumSignificantDigits", "maxsig", "maxSig"],
      ["minimumSignificantDigits", "minsig", "minSig"],
    ] as const
  ).flatMap((names) => names.map((name) => [name, names[0]] as const)),
);

const truthyFlag = (value: string): boolean => value === "" || value === "true";

/**
 * Applies a generic number option (grouping, rounding, digit counts, formatting mode).
 * Returns false when the key is not a number option.
 */
export function numberOption(key: string, value: string, opts: NumberFormatOptions): boolean {
  switch (key) {
    case "group":
    case "grouping":
      opts.group = truthyFlag(value);
      return true;
    case "no-group":
    case "no-grouping":
      opts.group = false;
      return true;
    case "round":
    case "rounding":
      if (value === "ceil") opts.round = "ceiling";
      else if (value === "truncate") opts.round = "down";
      else if (ROUNDING.has(value)) opts.round = value as RoundingModeType;
      return true;
    case "mode":
    case "formatMode":
      // Read by the callers that support digit modes (see number.ts).
      return true;
    default: {
      const digitOption = DIGIT_OPTIONS.get(key);
      if (digitOption === undefined) return false;
      opts[digitOption] = digits(value);
      return true;
    }
  }
}

/** Options of the `decimal` formatter. */
export function decimalOptions(args: readonly string[]): DecimalFormatOptions {
  const opts: DecimalFormatOptions = {};
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    if (key === "style") {
      if (DECIMAL_STYLES.has(value)) opts.style = value as DecimalFormatStyleType;
      else if (value === "standard") opts.style = "decimal";
    } else {
      numberOption(key, value, opts);
    }
  }
  return opts;
}

/** Options of the `money` formatter and the message `money` / `currency` tags. */
export function currencyOptions(args: readonly string[]): CurrencyFormatOptions {
  const opts: CurrencyFormatOptions = {};
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    if (key === "style") {
      if (CURRENCY_STYLES.has(value)) opts.style = value as CurrencyFormatStyleType;
      else if (value === "standard") opts.style = "symbol";
    } else if (key === "symbol") {
      if (SYMBOL_WIDTHS.has(value)) opts.symbolWidth = value as CurrencySymbolWidthType;
    } else {
      numberOption(key, value, opts);
    }
  }
  return opts;
}

function calendar(value: string): CalendarType | undefined {
  switch (value) {
    case "gregorian":
    case "gregory":
      return "gregory";
    case "buddhist":
    case "iso8601":
    case "japanese":
    case "persian":
      return value;
    default:
      return undefined;
  }
}

/**
 * Applies an option `datetime` and `datetime-interval` read alike (`calendar`, `context`,
 * `skeleton`); false for any other key.
 */
function dateOption(
  key: string,
  value: string,
  opts: DateFormatOptions | DateIntervalFormatOptions,
): boolean {
  switch (key) {
    case "calendar": {
      const ca = calendar(value);
      if (ca !== undefined) opts.ca = ca;
      return true;
    }
    case "context":
      if (CONTEXTS.has(value)) opts.context = value as ContextType;
      return true;
    case "skeleton":
      opts.skeleton = value;
      return true;
    default:
      return false;
  }
}

/**
 * Options of the `datetime` formatter. A bare width (`full`) sets both date and time; bare
 * `date` / `time` mean the short width; other bare words are skeleton fields (`yMMMd`).
 */
export function datetimeOptions(args: readonly string[]): DateFormatOptions {
  const opts: DateFormatOptions = {};
  const addSkeleton = (s: string) => {
    opts.skeleton = opts.skeleton === undefined ? s : opts.skeleton + s;
  };
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    if (value === "") {
      if (key === "date") opts.date = "short";
      else if (key === "time") opts.time = "short";
      else if (FORMAT_WIDTHS.has(key)) opts.datetime = key as FormatWidthType;
      else if (key !== "") addSkeleton(key);
      continue;
    }
    if (dateOption(key, value, opts)) continue;
    switch (key) {
      case "date":
      case "time":
      case "datetime":
        if (FORMAT_WIDTHS.has(value)) opts[key] = value as FormatWidthType;
        else addSkeleton(value);
        break;
      case "wrap":
      case "wrapper":
      case "wrapped":
        if (FORMAT_WIDTHS.has(value)) opts.wrap = value as FormatWidthType;
        break;
      default:
        break;
    }
  }
  if (opts.ca === undefined) opts.ca = "gregory";
  return opts;
}

/** Options of `datetime-interval`: a bare word is the skeleton; `date:` / `time:` skeletons. */
export function intervalOptions(args: readonly string[]): DateIntervalFormatOptions {
  const opts: DateIntervalFormatOptions = {};
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    if (value === "") {
      if (key !== "" && key !== "context" && key !== "skeleton" && key !== "date" && key !== "time") {
        opts.skeleton = key;
      }
      continue;
    }
    if (dateOption(key, value, opts)) continue;
    if (key === "date") opts.date = value;
    else if (key === "time") opts.time = value;
  }
  if (opts.ca === undefined) opts.ca = "gregory";
  return opts;
}

/** The `relative-time` options that are flags, on when set to `true`. */
const RELATIVE_FLAGS = ["dayOfWeek", "numericOnly", "allowWeeks", "alwaysNow"] as const;
type RelativeFlag = (typeof RELATIVE_FLAGS)[number];

/** Options of `relative-time`. */
export function relativeTimeOptions(args: readonly string[]): RelativeTimeFormatOptions {
  const opts: RelativeTimeFormatOptions = {};
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    switch (key) {
      case "context":
        if (CONTEXTS.has(value)) opts.context = value as ContextType;
        break;
      case "field":
        if (RELATIVE_FIELDS.has(value)) opts.field = value as RelativeTimeFormatOptions["field"];
        break;
      case "width":
        if (FIELD_WIDTHS.has(value)) opts.width = value as DateFieldWidthType;
        break;
      default:
        if ((RELATIVE_FLAGS as readonly string[]).includes(key)) opts[key as RelativeFlag] = value === "true";
        else numberOption(key, value, opts);
        break;
    }
  }
  if (opts.ca === undefined) opts.ca = "gregory";
  return opts;
}
