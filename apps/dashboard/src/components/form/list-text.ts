/**
 * A list of words (categories, tags, countries) edited as one line of text: shown joined by ", ",
 * read back split on commas, each trimmed, blanks dropped. The server trims and de-duplicates again.
 */

export function listToText(list: readonly string[]): string {
  return list.join(", ");
}

export function textToList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
