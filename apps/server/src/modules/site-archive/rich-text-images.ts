/**
 * The images inside an imported text (a WordPress post or page, a product description): where
 * they are, and the text with each one pointing at its copy in the media library, or, when it
 * was not copied, as a link to where it is (what rich text held before it had images).
 */
import type { Media } from "../media/service.js";
import { mediaUrl } from "../media/storage.js";

const IMG = /<img\b[^>]*>/gi;
const ATTR = /\s([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;

function attributesOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(ATTR)) out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

/** The http(s) addresses of the images inside a text. */
export const imageSources = (html: string): string[] =>
  [...html.matchAll(IMG)].map((m) => attributesOf(m[0]).src ?? "").filter((s) => /^https?:\/\//i.test(s));

const quoted = (v: string) => v.replace(/"/g, "&quot;");

/** The text with its images from the library (`own` finds an image's copy), the others as links. */
export function imagesToLibrary(html: string, own: (src: string) => Media | undefined): string {
  return html.replace(IMG, (tag) => {
    const a = attributesOf(tag);
    const src = a.src ?? "";
    const m = own(src);
    if (m) {
      const size = ["width", "height"].map((k) => (a[k] ? ` ${k}="${quoted(a[k]!)}"` : "")).join("");
      const cls = a.class ? ` class="${quoted(a.class)}"` : "";
      return `<img src="${mediaUrl(m.id, m.filename)}" alt="${quoted(a.alt ?? "")}"${size}${cls}>`;
    }
    if (!/^https?:\/\//i.test(src)) return "";
    return `<a href="${quoted(src)}">${a.alt || "Image"}</a>`;
  });
}
