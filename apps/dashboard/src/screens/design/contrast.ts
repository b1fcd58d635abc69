/**
 * WCAG 2.x contrast between two colours: relative luminance of sRGB colours, ratio 1–21.
 * AA asks for at least 4.5:1 for body text.
 */
import { HEX_COLOR } from "@atelier/owner-api";

export const AA_TEXT = 4.5;

export function isHexColor(value: string): boolean {
  return HEX_COLOR.test(value.trim());
}

/** "#abc" or "#aabbcc" → [r, g, b] in 0–255; undefined when it is not such a colour. */
export function parseHex(value: string): [number, number, number] | undefined {
  const m = HEX_COLOR.exec(value.trim());
  if (!m) return undefined;
  let hex = m[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join("");
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** "#ABC" → "#aabbcc", the form input type=color accepts; undefined when not a hex colour. */
export function normalizeHex(value: string): string | undefined {
  const rgb = parseHex(value);
  return rgb ? `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}` : undefined;
}

function channel(c: number): number {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

function relativeLuminance([r, g, b]: [number, number, number]): number {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The contrast ratio of two hex colours (order does not matter); undefined if either is not one. */
export function contrastRatio(a: string, b: string): number | undefined {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return undefined;
  const [hi, lo] = [relativeLuminance(x), relativeLuminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The ratio as people read it: 4.48 → "4.4:1" (rounded down, so a shown 4.5 always passes). */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}
