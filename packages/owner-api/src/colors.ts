/**
 * Hex colours as the styles take them, and the WCAG contrast check that both the server's
 * design warnings and the Styles screen's live badges use, so the two never disagree.
 */

/** #rgb or #rrggbb, either case; group 1 is the hex digits. */
export const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

export const HEX_COLOR_MSG = "Enter a colour as #rgb or #rrggbb, such as #1f3b5b.";

/** WCAG AA: the least contrast body text needs against its background. */
export const AA_TEXT_CONTRAST = 4.5;

/**
 * The colour pairs of a site's styles that carry text, each checked against AA_TEXT_CONTRAST by
 * both the server's design warnings and the Styles screen's badges (one list, one rule).
 */
export const TEXT_CONTRAST_PAIRS = [
  { fg: "text", bg: "background", label: "Text on background" },
  { fg: "muted", bg: "background", label: "Muted text on background" },
  { fg: "accent", bg: "background", label: "Accent (links, outline buttons) on background" },
  { fg: "accentText", bg: "accent", label: "Accent text on accent" },
] as const;

/** A ratio as people read it: 4.48 → "4.4:1" (rounded down, so a shown 4.5 always passes). */
export function formatContrast(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

/** "#abc" or "#aabbcc" → [r, g, b] in 0–255; undefined when it is not such a colour. */
export function parseHex(value: string): [number, number, number] | undefined {
  const m = HEX_COLOR.exec(value.trim());
  if (!m) return undefined;
  const digits = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  return [0, 2, 4].map((i) => Number.parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

/** "#ABC" → "#aabbcc": one spelling per colour (and the one an input type=color takes). */
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

/** The WCAG contrast ratio of two hex colours, 1 to 21 (order does not matter); undefined if either is not one. */
export function contrastRatio(a: string, b: string): number | undefined {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) return undefined;
  const [hi, lo] = [relativeLuminance(x), relativeLuminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
