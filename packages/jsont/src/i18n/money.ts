/**
 * Money formatting: the CLDR `money` formatter and the legacy `i18n-money-format`.
 */
import type { CLDR, CurrencyType, Decimal } from "@phensley/cldr";
import { isObject, isTruthy } from "../util/values.js";
import { toDecimal } from "./number.js";
import { currencyOptions } from "./options.js";

/** The amount and currency of a money object. */
interface MoneyParts {
  amount: Decimal;
  currency: string;
}

function field(obj: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(obj, name) ? obj[name] : undefined;
}

/**
 * Reads `{decimalValue, currencyCode}`, or `{value, currency}` when `allowValueCurrency`.
 * `undefined` when the object is not money or its amount is not a number.
 */
export function moneyParts(v: unknown, allowValueCurrency: boolean): MoneyParts | undefined {
  if (!isObject(v)) return undefined;
  let amount = field(v, "decimalValue");
  let currency = field(v, "currencyCode");
  if ((amount === undefined || currency === undefined) && allowValueCurrency) {
    amount = field(v, "value");
    currency = field(v, "currency");
  }
  if (amount === undefined || currency === undefined || typeof currency !== "string") return undefined;
  const d = toDecimal(amount);
  if (d === undefined) return undefined;
  return { amount: d, currency: currency.trim().toUpperCase() };
}

/** True when the site formats money the CLDR way (`useCLDRMoneyFormat` in the website or its settings). */
export function useCldrMoneyFormat(root: unknown): boolean {
  if (!isObject(root)) return false;
  for (const key of ["website", "websiteSettings"]) {
    const obj = root[key];
    if (isObject(obj) && isTruthy(obj.useCLDRMoneyFormat)) return true;
  }
  return false;
}

/** Formats money with the locale's CLDR currency patterns and the `money` options. */
export function formatMoney(cldr: CLDR, money: MoneyParts, args: readonly string[]): string {
  return cldr.Numbers.formatCurrency(money.amount, money.currency as CurrencyType, currencyOptions(args));
}

// ---------------------------------------------------------------------------------------
// Legacy `i18n-money-format`: a fixed "#,##0.00" pattern with the currency's fraction
// digits, the platform's grouping and decimal symbols for the locale, a house symbol for
// the common currencies and a symbol placement per locale.

const LEGACY_SYMBOLS: Record<string, string> = {
  AUD: "A$",
  CAD: "C$",
  DKK: "kr",
  EUR: "€",
  GBP: "£",
  JPY: "¥",
  NOK: "kr",
  SEK: "kr",
  USD: "$",
};

/** Locales that put the symbol after the amount; all others put it before. */
const SYMBOL_AFTER = new Set(["da-DK", "de-DE", "fr-FR", "sv-SE"]);

const LEGACY_DEFAULT_LOCALE = "en-US";
const LEGACY_DEFAULT_CURRENCY = "USD";

/** "en_us" / "en-US" → "en-US" (language lower case, region upper case). */
export function normalizeLocaleTag(tag: string): string {
  const parts = tag.trim().replace(/_/g, "-").split("-");
  return parts
    .map((p, i) => (i === 0 ? p.toLowerCase() : p.length === 2 ? p.toUpperCase() : p))
    .filter((p) => p !== "")
    .join("-");
}

interface LegacySymbols {
  group: string;
  decimal: string;
}

const symbolsCache = new Map<string, LegacySymbols>();

function numberSymbols(locale: string): LegacySymbols {
  let s = symbolsCache.get(locale);
  if (s === undefined) {
    let group = ",";
    let decimal = ".";
    try {
      for (const part of new Intl.NumberFormat(locale).formatToParts(1234567.5)) {
        if (part.type === "group") group = part.value;
        else if (part.type === "decimal") decimal = part.value;
      }
    } catch {
      // An unknown locale keeps the defaults.
    }
    // The legacy platform data used a no-break space where CLDR now has a narrow one.
    if (group === "\u202f") group = "\u00a0";
    s = { group, decimal };
    symbolsCache.set(locale, s);
  }
  return s;
}

function currencyDigits(currency: string): number {
  try {
    const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits;
    return digits ?? 2;
  } catch {
    return 2;
  }
}

function currencySymbol(locale: string, currency: string): string {
  const known = LEGACY_SYMBOLS[currency];
  if (known !== undefined) return known;
  try {
    const parts = new Intl.NumberFormat(locale, { style: "currency", currency }).formatToParts(1);
    const symbol = parts.find((p) => p.type === "currency");
    if (symbol !== undefined) return symbol.value;
  } catch {
    // fall through
  }
  return currency;
}

/** Groups the integer digits of a rounded, unsigned "1234.50" by thousands and joins the fraction. */
function formatDigits(fixed: string, sym: LegacySymbols): string {
  const [int, frac] = fixed.split(".");
  let grouped = "";
  for (let i = 0; i < int.length; i++) {
    if (i > 0 && (int.length - i) % 3 === 0) grouped += sym.group;
    grouped += int[i];
  }
  return frac === undefined ? grouped : grouped + sym.decimal + frac;
}

/** `toFixed` with half-even rounding on the decimal representation of the number. */
function roundHalfEven(value: number, digits: number): string {
  const [int, frac = ""] = value.toFixed(digits + 3).split(".");
  return roundDigitsHalfEven(int, frac, digits);
}

/** Rounds unsigned digits `int.frac` to `digits` fraction digits, ties to even. */
function roundDigitsHalfEven(int: string, frac: string, digits: number): string {
  const kept = frac.slice(0, digits).padEnd(digits, "0");
  const rest = frac.slice(digits);
  let scaled = BigInt((int || "0") + kept);
  if (rest !== "") {
    const half = `5${"0".repeat(rest.length - 1)}`;
    if (rest > half || (rest === half && scaled % 2n === 1n)) scaled += 1n;
  }
  let s = scaled.toString().padStart(digits + 1, "0");
  if (digits > 0) s = `${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
  return s;
}

/**
 * Formats `{decimalValue, currencyCode}` the legacy way for a locale tag (default en-US):
 * "$1,234.56", "1.234,56 kr", "kr -1,234.56". The amount goes through a double (as the old
 * platform did, so 18 significant digits come out rounded) unless `exact`.
 */
export function formatLegacyMoney(node: unknown, localeArg: string | undefined, exact = false): string {
  const locale = normalizeLocaleTag(localeArg && localeArg.trim() !== "" ? localeArg : LEGACY_DEFAULT_LOCALE);
  let currency = LEGACY_DEFAULT_CURRENCY;
  let value = 0;
  let plain: RegExpExecArray | undefined;
  if (isObject(node)) {
    const code = node.currencyCode;
    if (typeof code === "string" && code.trim() !== "") currency = code.trim().toUpperCase();
    const d = toDecimal(node.decimalValue);
    if (d !== undefined) {
      value = Number(d.toString());
      if (exact) plain = /^(-?)(\d*)(?:\.(\d*))?$/.exec(d.toString()) ?? undefined;
    }
  }
  const symbol = currencySymbol(locale, currency);
  const fractionDigits = currencyDigits(currency);
  // Exact: every digit of the decimal value; legacy: the value as a double, as the old platform had it.
  const fixed =
    plain !== undefined
      ? roundDigitsHalfEven(plain[2], plain[3] ?? "", fractionDigits)
      : roundHalfEven(Math.abs(value), fractionDigits);
  const digits = formatDigits(fixed, numberSymbols(locale));
  const negative = (plain !== undefined ? plain[1] === "-" : value < 0) && /[1-9]/.test(digits);
  const letterFirst = /^[A-Za-z]/.test(symbol);
  const letterLast = /[A-Za-z]$/.test(symbol);
  if (SYMBOL_AFTER.has(locale)) {
    const body = letterFirst ? `${digits} ${symbol}` : `${digits}${symbol}`;
    return negative ? `-${body}` : body;
  }
  if (letterLast) return negative ? `${symbol} -${digits}` : `${symbol} ${digits}`;
  return negative ? `-${symbol}${digits}` : `${symbol}${digits}`;
}
