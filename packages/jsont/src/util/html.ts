/**
 * HTML escaping as the reference engines do it. Each character is replaced in a single
 * pass, so the `&` of an entity produced here is never escaped a second time.
 */

const BODY_RE = /[&<>]/g;
const ATTR_RE = /[&<>"]/g;
const ATTR_QUOTE_RE = /[&<>"']/g;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

const replaceEntity = (ch: string): string => ENTITIES[ch];

/** Escapes text for an HTML body: `&`, `<` and `>` (quotes pass through), like the `html` formatter. */
export function escapeHtml(text: string): string {
  BODY_RE.lastIndex = 0;
  return BODY_RE.test(text) ? text.replace(BODY_RE, replaceEntity) : text;
}

/**
 * Escapes text for a double-quoted HTML attribute value: `&`, `<`, `>` and `"`, like the
 * `htmlattr`/`htmltag` formatters. The single quote passes through, as in the reference;
 * pass `singleQuote: true` to also escape it as `&#39;` (for single-quoted attributes).
 */
export function escapeAttr(text: string, singleQuote = false): string {
  const re = singleQuote ? ATTR_QUOTE_RE : ATTR_RE;
  re.lastIndex = 0;
  return re.test(text) ? text.replace(re, replaceEntity) : text;
}

/** Escapes `</` as `<\/` so JSON can sit inside a `<script>` element (the `json` formatters). */
export function escapeScriptTags(text: string): string {
  return text.indexOf("</") === -1 ? text : text.replace(/<\//g, "<\\/");
}

/** Removes everything between `<` and `>` (inclusive), like the `safe` formatter. */
export function stripTags(text: string): string {
  return text.replace(/<[^>]*?>/g, "");
}
