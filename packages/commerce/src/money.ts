/**
 * Money as an integer of minor units (cents), conversion from and to the two Money shapes
 * of SPEC §3, and Intl-free formatting with the legacy currency templates.
 */
import {
  type CurrencyFormatTemplate,
  DEFAULT_CURRENCY,
  DEFAULT_DECIMAL_SEPARATOR,
  DEFAULT_MAX_INTEGER_PLACES,
  DEFAULT_THOUSANDS_SEPARATOR,
  enUsFormatTemplate,
  fractionDigitsOf,
} from "./currencies.js";
import { type Decimal, movePoint, parseDecimal, type RoundingMode, roundToScale } from "./decimal.js";
import { isRecord } from "./is-record.js";

/** Money as {value, currency}: the shape used when the CLDR money format setting is on. */
export interface ValueMoney {
  value: string | number;
  currency: string;
}

/** Money as {decimalValue, currencyCode}. */
export interface DecimalMoney {
  decimalValue: string | number;
  currencyCode: string;
}

export type Money = ValueMoney | DecimalMoney;

/** An amount in minor units with its currency. */
export interface MinorAmount {
  minor: number;
  currency: string;
}

/** True for {value, currency} or {decimalValue, currencyCode} objects. */
export function isMoney(value: unknown): value is Money {
  if (!isRecord(value)) return false;
  return ("value" in value && "currency" in value) || ("decimalValue" in value && "currencyCode" in value);
}

function toSafeInteger(value: bigint): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError("Amount is too large");
  return n;
}

/**
 * Converts a major-unit decimal ("12.34", 12.34, "100") to minor units of the currency,
 * rounding half away from zero beyond its fraction digits. Throws on non-numbers.
 */
export function toMinorUnits(amount: string | number, currency: string = DEFAULT_CURRENCY): number {
  const d = parseDecimal(amount);
  if (!d) throw new TypeError(`Not a number: ${String(amount)}`);
  return toSafeInteger(roundToScale(d, fractionDigitsOf(currency)));
}

/** Major-unit decimal string of a minor-unit amount with the currency's fraction digits: 12345 → "123.45". */
export function fromMinorUnits(minor: number, currency: string = DEFAULT_CURRENCY): string {
  return formatMinorUnits(minor, { fractionDigits: fractionDigitsOf(currency), thousandsSeparator: "" });
}

/** The amount of either Money shape in minor units. Missing or blank values are 0. */
export function moneyToMinor(money: Money): MinorAmount {
  const currency = ("currency" in money ? money.currency : money.currencyCode) || DEFAULT_CURRENCY;
  const raw = "value" in money ? money.value : money.decimalValue;
  const blank = raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === "");
  return { minor: blank ? 0 : toMinorUnits(raw, currency), currency };
}

/** Builds a {value, currency} Money from minor units. */
export function valueMoney(minor: number, currency: string = DEFAULT_CURRENCY): ValueMoney {
  return { value: fromMinorUnits(minor, currency), currency };
}

/** Builds a {decimalValue, currencyCode} Money from minor units. */
export function decimalMoney(minor: number, currency: string = DEFAULT_CURRENCY): DecimalMoney {
  return { decimalValue: fromMinorUnits(minor, currency), currencyCode: currency };
}

export interface NumberFormatOptions {
  fractionDigits?: number;
  thousandsSeparator?: string;
  decimalSeparator?: string;
  maxIntegerPlaces?: number;
  /** Tie rounding beyond the fraction digits; "half-up" (away from zero) by default. */
  rounding?: RoundingMode;
}

function group(digits: string, separator: string): string {
  if (separator === "" || digits.length <= 3) return digits;
  const head = digits.length % 3;
  const parts = head ? [digits.slice(0, head)] : [];
  for (let i = head; i < digits.length; i += 3) parts.push(digits.slice(i, i + 3));
  return parts.join(separator);
}

/** Formats an exact decimal with fixed fraction digits and grouping. */
export function formatDecimal(value: Decimal, options: NumberFormatOptions = {}): string {
  const digits = options.fractionDigits ?? 2;
  const scaled = roundToScale(value, digits, options.rounding);
  const negative = scaled < 0n;
  const text = (negative ? -scaled : scaled).toString().padStart(digits + 1, "0");
  const intPart = text.slice(0, text.length - digits);
  const fracPart = text.slice(text.length - digits);
  const maxIntegerPlaces = options.maxIntegerPlaces ?? DEFAULT_MAX_INTEGER_PLACES;
  if (intPart.length > maxIntegerPlaces) {
    throw new RangeError(`Amount exceeds ${maxIntegerPlaces} integer places`);
  }
  const grouped = group(intPart, options.thousandsSeparator ?? DEFAULT_THOUSANDS_SEPARATOR);
  const decimalSeparator = options.decimalSeparator ?? DEFAULT_DECIMAL_SEPARATOR;
  return `${negative ? "-" : ""}${grouped}${digits > 0 ? decimalSeparator + fracPart : ""}`;
}

/** Formats minor units as a plain number: 123456 → "1,234.56" (defaults: comma, period, 2 digits). */
export function formatMinorUnits(minor: number, options: NumberFormatOptions = {}): string {
  if (!Number.isSafeInteger(minor)) throw new TypeError(`Minor units must be an integer: ${minor}`);
  const digits = options.fractionDigits ?? 2;
  return formatDecimal(movePoint({ coefficient: BigInt(minor), scale: 0 }, -digits), options);
}

/**
 * The amount inside the legacy money span: comma grouping, ties to even, no integer-digit limit,
 * and the currency's fraction digits (two without a currency; SPEC §9: JPY has none, so ¥9800 is
 * "9,800"). The template formatters and the storefront's product price both print it, so a price
 * the browser redraws matches the one the server rendered.
 */
export function formatLegacyAmount(amount: Decimal, currency?: string): string {
  return formatDecimal(amount, {
    fractionDigits: currency === undefined ? 2 : fractionDigitsOf(currency),
    thousandsSeparator: ",",
    decimalSeparator: ".",
    maxIntegerPlaces: Number.POSITIVE_INFINITY,
    rounding: "half-even",
  });
}

/** `<span class="sqs-money-native">1,234.50</span>` for an amount in major units (see {@link formatLegacyAmount}). */
export function legacyMoneyHtml(amount: Decimal, currency?: string): string {
  return `<span class="sqs-money-native">${formatLegacyAmount(amount, currency)}</span>`;
}

/**
 * Formats minor units with a legacy currency template: `formatMoney(123456, "USD")` is
 * "$1,234.56", `formatMoney(-500, "SEK", nativeFormatTemplate("SEK"))` is "-5.00 kr".
 * The template defaults to the en-US one of the currency.
 */
export function formatMoney(
  minor: number,
  currency: string = DEFAULT_CURRENCY,
  template: CurrencyFormatTemplate = enUsFormatTemplate(currency),
): string {
  const number = formatMinorUnits(Math.abs(minor), {
    fractionDigits: fractionDigitsOf(currency),
    thousandsSeparator: template.thousandsSeparator,
    decimalSeparator: template.decimalSeparator,
    maxIntegerPlaces: template.maxIntegerPlaces,
  });
  const body = template.formatter.replace("%s", () => template.symbol).replace("%v", () => number);
  return minor < 0 ? `-${body}` : body;
}

/** Formats either Money shape with the en-US (or given) template of its currency. */
export function formatMoneyObject(money: Money, template?: CurrencyFormatTemplate): string {
  const { minor, currency } = moneyToMinor(money);
  return formatMoney(minor, currency, template ?? enUsFormatTemplate(currency));
}
