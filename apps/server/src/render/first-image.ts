/**
 * The largest paint first: the first image of a page's main content (a hero, a product's main
 * image, the first card of a grid) is what a phone paints largest above the fold. Whatever the
 * template says, it loads eagerly with `fetchpriority="high"`, and the head gets a preload for
 * it (with its srcset and sizes), so the browser asks for it with the stylesheet instead of
 * after layout. Applied once when a page is rendered, before it is cached.
 */

const ATTR = (name: string) => new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`, "i");

function attr(tag: string, name: string): string | undefined {
  return ATTR(name).exec(tag)?.[1];
}

export function prioritiseFirstImage(html: string): string {
  const main = html.search(/<main\b/i);
  if (main < 0) return html;
  const img = /<img\b[^>]*>/i.exec(html.slice(main));
  if (!img) return html;
  const tag = img[0];
  const src = attr(tag, "src");
  if (!src || src.startsWith("data:")) return html;
  const eager = tag
    .replace(/\sloading\s*=\s*"lazy"/i, "")
    .replace(/\sdecoding\s*=\s*"async"/i, "")
    .replace(/\sfetchpriority\s*=\s*"[^"]*"/i, "")
    .replace(/^<img\b/i, '<img fetchpriority="high"');
  const at = main + img.index;
  let out = html.slice(0, at) + eager + html.slice(at + tag.length);
  const srcset = attr(tag, "srcset");
  const sizes = attr(tag, "sizes");
  const preload = `<link rel="preload" as="image" href="${src}"${srcset ? ` imagesrcset="${srcset}"` : ""}${sizes ? ` imagesizes="${sizes}"` : ""} fetchpriority="high">\n`;
  // Right after the stylesheet link, so the two are fetched together.
  const css = /<link rel="stylesheet"[^>]*>\n?/i.exec(out);
  const headEnd = out.search(/<\/head>/i);
  const where = css ? css.index + css[0].length : headEnd;
  if (where < 0 || (headEnd >= 0 && where > headEnd)) return out;
  out = out.slice(0, where) + preload + out.slice(where);
  return out;
}
