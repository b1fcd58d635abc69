/** Short, readable text of a version's values: HTML as its words, objects as compact JSON. */

/** The words of an HTML fragment (tags dropped, entities of the common kind read). */
export function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/h\d|\/li|\/div)[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

/** A value shown in one line or a few: text as is (HTML as words), numbers, yes/no, JSON. */
export function shortValue(v: unknown, max = 300): string {
  let s: string;
  if (v === null || v === undefined || v === "") s = "—";
  else if (typeof v === "string") s = /<[a-z][^>]*>/i.test(v) ? plainText(v) : v;
  else if (typeof v === "boolean") s = v ? "yes" : "no";
  else if (typeof v === "number") s = String(v);
  else s = JSON.stringify(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** "variants[SKU-1].priceCents" → "Variants SKU-1 › price cents"; "draft block b1 (text).html" likewise. */
export function pathLabel(path: string): string {
  const words = (s: string) => s.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const parts = path
    .replace(/\[([^\]]+)\]/g, " $1")
    .split(".")
    .map((p) => words(p.trim()));
  const out = parts.join(" › ");
  return out.charAt(0).toUpperCase() + out.slice(1);
}
