/** A list written as one text (CSV cells of tags or image links, a query's coupon codes): split at commas, trimmed, empties dropped. */
export function commaList(text: string): string[] {
  return text
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
}
