/**
 * The store's supported currencies (SPEC §9) and their legacy display templates.
 * Pure data plus lookups: no Intl, no I/O.
 */

/** An ISO 4217 currency record. */
export interface CurrencyRecord {
  /** ISO 4217 alphabetic code, e.g. "USD". */
  code: string;
  /** English name of the currency. */
  currencyName: string;
  /** Digits after the decimal point of one major unit (JPY 0, the others 2). */
  fractionDigits: number;
  /** ISO 4217 numeric code, three digits with leading zeros, e.g. "036". */
  numericCode: string;
}

/**
 * The legacy (pre-CLDR) money display template.
 * `formatter` places the symbol and the number: `%s` is the symbol, `%v` the formatted value.
 */
export interface CurrencyFormatTemplate {
  symbol: string;
  formatter: string;
  thousandsSeparator: string;
  decimalSeparator: string;
  maxIntegerPlaces: number;
}

/** Default store currency (SPEC §9). */
export const DEFAULT_CURRENCY = "USD";

/** Fraction digits used for any code we do not know (SPEC §5). */
export const DEFAULT_FRACTION_DIGITS = 2;

export const DEFAULT_THOUSANDS_SEPARATOR = ",";
export const DEFAULT_DECIMAL_SEPARATOR = ".";
export const DEFAULT_MAX_INTEGER_PLACES = 15;
/** Symbol before the amount, no space. */
export const SYMBOL_BEFORE = "%s%v";
/** Symbol before the amount, separated by a space. */
export const SYMBOL_BEFORE_SPACED = "%s %v";
/** Symbol after the amount, separated by a space. */
export const SYMBOL_AFTER_SPACED = "%v %s";

function record(code: string, currencyName: string, numericCode: string, fractionDigits = 2): CurrencyRecord {
  return { code, currencyName, fractionDigits, numericCode };
}

/** The 27 supported currencies, in the order SPEC §9 lists them. */
export const SUPPORTED_CURRENCIES: readonly CurrencyRecord[] = Object.freeze([
  record("EUR", "Euro", "978"),
  record("USD", "US Dollar", "840"),
  record("AUD", "Australian Dollar", "036"),
  record("NOK", "Norwegian Krone", "578"),
  record("CAD", "Canadian Dollar", "124"),
  record("NZD", "New Zealand Dollar", "554"),
  record("DKK", "Danish Krone", "208"),
  record("GBP", "Pound Sterling", "826"),
  record("HKD", "Hong Kong Dollar", "344"),
  record("CHF", "Swiss Franc", "756"),
  record("MXN", "Mexican Peso", "484"),
  record("SGD", "Singapore Dollar", "702"),
  record("SEK", "Swedish Krona", "752"),
  record("CZK", "Czech Koruna", "203"),
  record("ILS", "Israeli New Shekel", "376"),
  record("PHP", "Philippine Peso", "608"),
  record("RUB", "Russian Ruble", "643"),
  record("PLN", "Polish Zloty", "985"),
  record("THB", "Thai Baht", "764"),
  record("MYR", "Malaysian Ringgit", "458"),
  record("ARS", "Argentine Peso", "032"),
  record("BRL", "Brazilian Real", "986"),
  record("COP", "Colombian Peso", "170"),
  record("IDR", "Indonesian Rupiah", "360"),
  record("INR", "Indian Rupee", "356"),
  record("JPY", "Japanese Yen", "392", 0),
  record("ZAR", "South African Rand", "710"),
]);

const BY_CODE = new Map(SUPPORTED_CURRENCIES.map((c) => [c.code, c]));

function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

/** True when `code` is one of the supported currencies (case-insensitive). */
export function isSupportedCurrency(code: string): boolean {
  return BY_CODE.has(normalizeCode(code));
}

/** The record of a supported currency, or `undefined`. */
export function getCurrency(code: string): CurrencyRecord | undefined {
  return BY_CODE.get(normalizeCode(code));
}

/** Fraction digits of a currency: JPY 0, everything else (including unknown codes) 2. */
export function fractionDigitsOf(code: string | undefined): number {
  if (code === undefined) return DEFAULT_FRACTION_DIGITS;
  return BY_CODE.get(normalizeCode(code))?.fractionDigits ?? DEFAULT_FRACTION_DIGITS;
}

/** Symbols for an en-US audience: the dollars other than USD are told apart by a prefix. */
const EN_US_SYMBOLS: Record<string, string> = {
  AUD: "A$",
  CAD: "CA$",
  HKD: "HK$",
  EUR: "€",
  GBP: "£",
  USD: "$",
};

/**
 * Native symbols and their placement (SPEC §9): 'kr' after the amount for DKK, NOK and SEK,
 * '₪' with a space for ILS, every other symbol straight before the amount.
 */
const NATIVE_SYMBOLS: Record<string, { symbol: string; formatter: string }> = {
  USD: { symbol: "$", formatter: SYMBOL_BEFORE },
  AUD: { symbol: "$", formatter: SYMBOL_BEFORE },
  CAD: { symbol: "$", formatter: SYMBOL_BEFORE },
  NZD: { symbol: "$", formatter: SYMBOL_BEFORE },
  HKD: { symbol: "$", formatter: SYMBOL_BEFORE },
  MXN: { symbol: "$", formatter: SYMBOL_BEFORE },
  ARS: { symbol: "$", formatter: SYMBOL_BEFORE },
  EUR: { symbol: "€", formatter: SYMBOL_BEFORE },
  GBP: { symbol: "£", formatter: SYMBOL_BEFORE },
  DKK: { symbol: "kr", formatter: SYMBOL_AFTER_SPACED },
  NOK: { symbol: "kr", formatter: SYMBOL_AFTER_SPACED },
  SEK: { symbol: "kr", formatter: SYMBOL_AFTER_SPACED },
  CZK: { symbol: "Kč", formatter: SYMBOL_BEFORE },
  PLN: { symbol: "zł", formatter: SYMBOL_BEFORE },
  RUB: { symbol: "p.", formatter: SYMBOL_BEFORE },
  ILS: { symbol: "₪", formatter: SYMBOL_BEFORE_SPACED },
  BRL: { symbol: "R$", formatter: SYMBOL_BEFORE },
  IDR: { symbol: "Rp", formatter: SYMBOL_BEFORE },
  INR: { symbol: "₹", formatter: SYMBOL_BEFORE },
  JPY: { symbol: "¥", formatter: SYMBOL_BEFORE },
  MYR: { symbol: "RM", formatter: SYMBOL_BEFORE },
  ZAR: { symbol: "R", formatter: SYMBOL_BEFORE },
  THB: { symbol: "฿", formatter: SYMBOL_BEFORE },
  CHF: { symbol: "CHF", formatter: SYMBOL_BEFORE },
  COP: { symbol: "COL$", formatter: SYMBOL_BEFORE },
  SGD: { symbol: "S$", formatter: SYMBOL_BEFORE },
  PHP: { symbol: "Php", formatter: SYMBOL_BEFORE },
};

function template(symbol: string, formatter: string): CurrencyFormatTemplate {
  return {
    symbol,
    formatter,
    thousandsSeparator: DEFAULT_THOUSANDS_SEPARATOR,
    decimalSeparator: DEFAULT_DECIMAL_SEPARATOR,
    maxIntegerPlaces: DEFAULT_MAX_INTEGER_PLACES,
  };
}

/**
 * The legacy display template of a currency with its native symbol. Unknown codes show
 * the code itself before the amount.
 */
export function nativeFormatTemplate(code: string): CurrencyFormatTemplate {
  const key = normalizeCode(code);
  const native = NATIVE_SYMBOLS[key];
  return native ? template(native.symbol, native.formatter) : template(key, SYMBOL_BEFORE_SPACED);
}

/**
 * The legacy display template for an en-US audience: the prefixed symbols A$, CA$, HK$, €,
 * £ and $; every other currency keeps its native template.
 */
export function enUsFormatTemplate(code: string): CurrencyFormatTemplate {
  const key = normalizeCode(code);
  const prefix = EN_US_SYMBOLS[key];
  return prefix !== undefined ? template(prefix, SYMBOL_BEFORE) : nativeFormatTemplate(key);
}

/** Listener of store currency changes. */
export type CurrencyListener = (code: string, previous: string) => void;

/**
 * Holds the store's currency (USD by default) and lets it change at runtime, for instance
 * when the owner switches the store currency while a page is open.
 */
export class StoreCurrency {
  #code: string;
  #listeners = new Set<CurrencyListener>();

  constructor(code: string = DEFAULT_CURRENCY) {
    this.#code = StoreCurrency.#check(code);
  }

  static #check(code: string): string {
    const key = normalizeCode(code);
    if (!BY_CODE.has(key)) throw new RangeError(`Unsupported currency: ${code}`);
    return key;
  }

  /** The current ISO code. */
  get code(): string {
    return this.#code;
  }

  /** The current currency's record. */
  get currency(): CurrencyRecord {
    return BY_CODE.get(this.#code) as CurrencyRecord;
  }

  /** Changes the currency; throws RangeError for an unsupported code. */
  set(code: string): void {
    const next = StoreCurrency.#check(code);
    const previous = this.#code;
    if (next === previous) return;
    this.#code = next;
    for (const listener of this.#listeners) listener(next, previous);
  }

  /** Registers a listener of changes; returns the function that removes it. */
  subscribe(listener: CurrencyListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
