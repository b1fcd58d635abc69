/**
 * Readable ASCII URL slugs from text in any script: letters are transliterated
 * (@sindresorhus/transliterate: "Ελληνικά" → "ellinika", "Straße" → "strasse"), then anything
 * that is not a letter or digit becomes a single hyphen. Scripts the library leaves as they are
 * (Chinese, Japanese, Hebrew…) give an empty slug: callers choose their fallback.
 */
import transliterate from "@sindresorhus/transliterate";

export function asciiSlug(text: string, maxLength = 80): string {
  return transliterate(text)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}

/** A slug from another platform (WordPress keeps non-Latin slugs percent-encoded): decoded, then ASCII. */
export function importedSlug(raw: string): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded: take it as it is.
  }
  return asciiSlug(decoded);
}
