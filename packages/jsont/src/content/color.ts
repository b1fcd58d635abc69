/** Colour formatters: whether a hex colour is light or dark, and a site colour as CSS hsl()/hsla(). */
import type { Formatter } from "../types.js";
import { asString, isNumber, numberValue } from "../util/values.js";
import { get } from "./node.js";

/** Colours whose 24-bit value is above this (half of 0xFFFFFF) are "light". */
const LUMINANCE_THRESHOLD = 0xffffff / 2;

/**
 * The 24-bit value of a hex colour ("#abc", "aabbcc"; the "#" is optional), or -1 when the
 * text is not 3 to 6 hex digits. Three digits expand each channel ("abc" is "aabbcc"); the
 * lengths 4 and 5, which name no colour, read as their plain hex value.
 */
export function hexColorToInt(text: string): number {
  const hex = text.startsWith("#") ? text.slice(1) : text;
  if (!/^[0-9a-f]{3,6}$/i.test(hex)) return -1;
  if (hex.length === 3) return Number.parseInt(hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2], 16);
  return Number.parseInt(hex, 16);
}

/** `{color|color-weight}`: "light" or "dark"; missing when the value is not a hex colour. */
export const colorWeightFormatter: Formatter = (_args, vars) => {
  const color = hexColorToInt(asString(vars[0].value));
  vars[0].value = color === -1 ? undefined : color > LUMINANCE_THRESHOLD ? "light" : "dark";
};

const decimalSymbols = new Map<string, string>();

/** The decimal separator of a locale ("." when the locale is unknown to the runtime). */
function decimalSymbol(locale: string): string {
  let symbol = decimalSymbols.get(locale);
  if (symbol === undefined) {
    symbol = ".";
    try {
      const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal");
      if (part) symbol = part.value;
    } catch {
      // An invalid locale tag keeps the dot.
    }
    decimalSymbols.set(locale, symbol);
  }
  return symbol;
}

/** A number rounded to at most 2 decimals, without trailing zeros, with the locale's decimal symbol. */
function decimal(n: number, symbol: string): string {
  const rounded = Math.round(n * 100) / 100;
  const text = String(Object.is(rounded, -0) ? 0 : rounded);
  return symbol === "." ? text : text.replace(".", symbol);
}

function component(node: unknown, name: string): number | undefined {
  const v = get(node, name);
  if (!isNumber(v)) return undefined;
  const n = numberValue(v);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * `{color|website-color}`: a site colour `{hue, saturation, lightness, alpha?}` (hue in
 * degrees 0-360, the others 0-1) as `hsl(h, s%, l%)` or `hsla(h, s%, l%, a)`. Out-of-range
 * components are reported instead, and a missing hue, saturation or lightness too.
 */
export const websiteColorFormatter: Formatter = (_args, vars, ctx) => {
  const node = vars[0].value;
  const hue = component(node, "hue");
  const saturation = component(node, "saturation");
  const lightness = component(node, "lightness");
  const alpha = component(node, "alpha");
  if (hue === undefined || saturation === undefined || lightness === undefined) {
    vars[0].value = "Missing an H/S/L value.";
    return;
  }
  const problems: string[] = [];
  if (hue < 0 || hue > 360) problems.push("Hue out of bounds.");
  if (saturation < 0 || saturation > 1) problems.push("Saturation out of bounds.");
  if (lightness < 0 || lightness > 1) problems.push("Lightness out of bounds.");
  if (alpha !== undefined && (alpha < 0 || alpha > 1)) problems.push("Alpha out of bounds.");
  if (problems.length > 0) {
    vars[0].value = problems.join(" ");
    return;
  }
  const symbol = decimalSymbol(ctx.locale);
  const parts = [
    decimal(hue, symbol),
    `${decimal(saturation * 100, symbol)}%`,
    `${decimal(lightness * 100, symbol)}%`,
  ];
  if (alpha === undefined) {
    vars[0].value = `hsl(${parts.join(", ")})`;
  } else {
    parts.push(decimal(alpha, symbol));
    vars[0].value = `hsla(${parts.join(", ")})`;
  }
};
