/**
 * Pay-in-instalments badge rules (SPEC §4, §9).
 */

/** Exclusive lower bound of the instalment range, in minor units. */
export const INSTALMENT_MIN_EXCLUSIVE = 100;
/** Inclusive upper bound of the instalment range, in minor units. */
export const INSTALMENT_MAX_INCLUSIVE = 150000;
/** Interest-free payments by default. */
export const INSTALMENT_COUNT = 4;

/** Country → languages with their own instalment information modal. */
export const INSTALMENT_LOCALES: Readonly<Record<string, readonly string[]>> = {
  US: ["en"],
  CA: ["en", "fr"],
  AU: ["en"],
  NZ: ["en"],
};

export type InstalmentRange = "in-range" | "below-minimum" | "above-maximum";

/** Where a price (minor units) falls: above 100 and not above 150000 is in range. */
export function instalmentRange(priceMinor: number): InstalmentRange {
  if (priceMinor <= INSTALMENT_MIN_EXCLUSIVE) return "below-minimum";
  if (priceMinor > INSTALMENT_MAX_INCLUSIVE) return "above-maximum";
  return "in-range";
}

export function isInInstalmentRange(priceMinor: number): boolean {
  return instalmentRange(priceMinor) === "in-range";
}

export interface InstalmentLocale {
  country: string;
  language: string;
}

/**
 * The modal locale for a visitor locale ("fr-CA", "en_AU", "de-DE"): a supported
 * country/language pair, otherwise US English.
 */
export function instalmentLocale(locale: string): InstalmentLocale {
  const [lang = "", region = ""] = locale.trim().split(/[-_]/);
  const language = lang.toLowerCase();
  const country = region.toUpperCase();
  if (INSTALMENT_LOCALES[country]?.includes(language)) return { country, language };
  return { country: "US", language: "en" };
}

/**
 * The amounts of each instalment in minor units, summing exactly to the price: the
 * remainder cents go to the first payments.
 */
export function instalmentAmounts(priceMinor: number, count: number = INSTALMENT_COUNT): number[] {
  if (!Number.isSafeInteger(priceMinor) || priceMinor < 0)
    throw new RangeError("Price must be a non-negative integer");
  if (!Number.isInteger(count) || count < 1) throw new RangeError("Count must be a positive integer");
  const base = Math.floor(priceMinor / count);
  const remainder = priceMinor - base * count;
  return Array.from({ length: count }, (_, i) => base + (i < remainder ? 1 : 0));
}

/** The amount shown per instalment (the first, largest one). */
export function instalmentAmount(priceMinor: number, count: number = INSTALMENT_COUNT): number {
  return instalmentAmounts(priceMinor, count)[0];
}
