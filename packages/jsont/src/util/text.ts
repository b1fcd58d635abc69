/** Small text helpers shared by the formatters, written for speed (no regular expressions). */

/** True for the UTF-16 code units JavaScript's `\s` matches (white space and line terminators). */
export function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

function slugifyUncached(text: string): string {
  let out = "";
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45) {
      if (space) {
        out += "-";
        space = false;
      }
      out += text[i];
    } else if (c >= 65 && c <= 90) {
      if (space) {
        out += "-";
        space = false;
      }
      out += String.fromCharCode(c + 32);
    } else if (isJsSpace(c)) {
      space = true;
    }
    // Anything else is dropped; blanks around it still collapse into one dash.
  }
  return space ? `${out}-` : out;
}

const SLUG_CACHE = new Map<string, string>();
const SLUG_CACHE_LIMIT = 2000;

/**
 * A lowercase dashed slug: drops everything but ASCII letters, digits, white space and "-",
 * then turns each run of white space into one "-" ("Hello, World!" gives "hello-world").
 * Results are memoized (the same category and tag names come back on every page).
 */
export function slugify(text: string): string {
  let s = SLUG_CACHE.get(text);
  if (s === undefined) {
    s = slugifyUncached(text);
    if (SLUG_CACHE.size >= SLUG_CACHE_LIMIT) SLUG_CACHE.clear();
    SLUG_CACHE.set(text, s);
  }
  return s;
}
