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

/**
 * A slug an owner typed: trimmed and lowercased; one written in another script ("Ελληνικά") becomes
 * its readable ASCII form ("ellinika") instead of being refused. ASCII input is left for the
 * caller's rule to accept or refuse as typed.
 */
export function typedSlug(typed: string): string {
  const s = typed.trim().toLowerCase();
  return /[^\x00-\x7f]/.test(s) ? asciiSlug(s) || s : s;
}
