/**
 * Numbers for the i18n formatters: JSON values to arbitrary-precision decimals, and the
 * `decimal` formatter's CLDR number formatting.
 */
import { type CLDR, Decimal, type DecimalFormatOptions, type RoundingModeType } from "@phensley/cldr";
import { JsonNumber } from "../util/values.js";
import { decimalOptions, splitOption } from "./options.js";

/**
 * The decimal value of a JSON value: numbers (keeping the source text of a {@link JsonNumber},
 * so 1.0 stays 1.0) and numeric strings. `undefined` for anything else.
 */
export function toDecimal(v: unknown): Decimal | undefined {
  let text: string;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return undefined;
    text = String(v);
  } else if (v instanceof JsonNumber) {
    text = v.text;
  } else if (typeof v === "string") {
    text = v.trim();
    if (text === "") return undefined;
  } else {
    return undefined;
  }
  try {
    const d = new Decimal(text);
    return d.isNaN() || d.isInfinity() ? undefined : d;
  } catch {
    return undefined;
  }
}

/**
 * How digit options combine: `significant` uses only the significant-digit options,
 * `fractions` only the fraction-digit options, `significant-maxfrac` rounds to the maximum
 * fraction digits first and then applies the significant-digit options.
 */
type DigitsMode = "default" | "significant" | "significant-maxfrac" | "fractions";

interface DecimalFormatArgs {
  options: DecimalFormatOptions;
  mode: DigitsMode;
}

/** Parses the `decimal` formatter's arguments (number options plus `mode:`). */
export function decimalFormatArgs(args: readonly string[]): DecimalFormatArgs {
  const options = decimalOptions(args);
  let mode: DigitsMode = "default";
  for (const arg of args) {
    const [key, value] = splitOption(arg);
    if (key === "mode" || key === "formatMode") {
      if (value === "significant" || value === "significant-maxfrac" || value === "fractions") mode = value;
    }
  }
  // A bare `{n|decimal}` prints the number in the locale's symbols without grouping.
  if (args.length === 0) options.group = false;
  return { options, mode };
}

/** Formats a decimal with CLDR number formatting. */
export function formatDecimal(cldr: CLDR, value: Decimal, spec: DecimalFormatArgs): string {
  let n = value;
  const opts: DecimalFormatOptions = { ...spec.options };
  switch (spec.mode) {
    case "significant":
      opts.maximumFractionDigits = undefined;
      opts.minimumFractionDigits = undefined;
      break;
    case "fractions":
      opts.maximumSignificantDigits = undefined;
      opts.minimumSignificantDigits = undefined;
      break;
    case "significant-maxfrac":
      if (opts.maximumFractionDigits !== undefined) {
        const round: RoundingModeType = opts.round ?? "half-even";
        if (n.scale() > opts.maximumFractionDigits) n = n.setScale(opts.maximumFractionDigits, round);
        n = n.stripTrailingZeros();
        opts.maximumFractionDigits = undefined;
      }
      break;
    default:
      break;
  }
  return cldr.Numbers.formatDecimal(n, opts);
}
