/**
 * Exact decimal numbers for money: an integer coefficient and a scale, never a float.
 * `{ coefficient: 12345n, scale: 2 }` is 123.45.
 */
export interface Decimal {
  coefficient: bigint;
  scale: number;
}

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parsed decimal strings; prices repeat across products and renders. Cleared when full. */
const PARSE_CACHE = new Map<string, Decimal | undefined>();
const PARSE_CACHE_LIMIT = 4096;

/**
 * Parses a decimal string ("12", "-0.5", "1.2e3") or a finite number. Returns `undefined`
 * for anything that is not a number. Results are frozen (they may be shared).
 */
export function parseDecimal(input: string | number | bigint): Decimal | undefined {
  if (typeof input === "bigint") return Object.freeze({ coefficient: input, scale: 0 });
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return undefined;
    return parseDecimal(String(input));
  }
  if (PARSE_CACHE.has(input)) return PARSE_CACHE.get(input);
  const result = parseDecimalText(input);
  if (PARSE_CACHE.size >= PARSE_CACHE_LIMIT) PARSE_CACHE.clear();
  PARSE_CACHE.set(input, result);
  return result;
}

function parseDecimalText(input: string): Decimal | undefined {
  const match = DECIMAL_RE.exec(input.trim());
  if (!match) return undefined;
  const [, sign, intPart = "", fracPart = "", exp] = match;
  if (intPart === "" && fracPart === "") return undefined;
  let coefficient = BigInt(`${intPart}${fracPart}` || "0");
  if (sign === "-") coefficient = -coefficient;
  let scale = fracPart.length - (exp ? Number.parseInt(exp, 10) : 0);
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return Object.freeze(normalizeDecimal({ coefficient, scale }));
}

/** Removes trailing zeros of the fraction. */
export function normalizeDecimal(d: Decimal): Decimal {
  let { coefficient, scale } = d;
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale -= 1;
  }
  return { coefficient, scale };
}

/** Multiplies by 10^places (places may be negative). */
export function movePoint(d: Decimal, places: number): Decimal {
  const scale = d.scale - places;
  if (scale >= 0) return normalizeDecimal({ coefficient: d.coefficient, scale });
  return { coefficient: d.coefficient * 10n ** BigInt(-scale), scale: 0 };
}

/** Compares two decimals: negative, zero or positive. */
export function compareDecimal(a: Decimal, b: Decimal): number {
  if (a.scale === b.scale) return a.coefficient < b.coefficient ? -1 : a.coefficient > b.coefficient ? 1 : 0;
  const scale = Math.max(a.scale, b.scale);
  const x = a.coefficient * 10n ** BigInt(scale - a.scale);
  const y = b.coefficient * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** How ties are rounded: away from zero (commercial rounding) or to the even neighbour (banker's). */
export type RoundingMode = "half-up" | "half-even";

/**
 * Rounds to `digits` fraction digits and returns the coefficient at that scale (so
 * `roundToScale(1.005, 2)` is 101n). Ties go away from zero unless `mode` is "half-even".
 */
export function roundToScale(d: Decimal, digits: number, mode: RoundingMode = "half-up"): bigint {
  if (d.scale <= digits) return d.coefficient * 10n ** BigInt(digits - d.scale);
  const divisor = 10n ** BigInt(d.scale - digits);
  const negative = d.coefficient < 0n;
  const abs = negative ? -d.coefficient : d.coefficient;
  let q = abs / divisor;
  const twice = (abs % divisor) * 2n;
  if (twice > divisor || (twice === divisor && (mode === "half-up" || q % 2n === 1n))) q += 1n;
  return negative ? -q : q;
}

/** Plain decimal notation without exponent and without trailing zeros: "1050", "-0.5". */
export function decimalToString(d: Decimal): string {
  const n = normalizeDecimal(d);
  const negative = n.coefficient < 0n;
  const digits = (negative ? -n.coefficient : n.coefficient).toString();
  if (n.scale === 0) return (negative ? "-" : "") + digits;
  const padded = digits.padStart(n.scale + 1, "0");
  const cut = padded.length - n.scale;
  return `${negative ? "-" : ""}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}
