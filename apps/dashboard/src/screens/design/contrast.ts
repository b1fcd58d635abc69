/** How the Styles screen shows a contrast ratio; the ratio itself is @atelier/owner-api's. */

/** The ratio as people read it: 4.48 → "4.4:1" (rounded down, so a shown 4.5 always passes). */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}
