/**
 * An allow-list HTML sanitiser for what site owners paste into code and embed blocks (and for
 * oEmbed HTML): keeps text formatting, links, images, tables, media and, where allowed, HTTPS
 * iframes; drops scripts, styles, event handlers, `javascript:` URLs and anything unknown.
 */

const escapeText = (s: string) =>
  s
    .replace(/&(?!#?[a-zA-Z0-9]+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const VOID = new Set(["br", "hr", "img", "source", "wbr", "col", "track"]);
/** Elements dropped together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  "script",
  "style",
  "template",
  "object",
  "embed",
  "applet",
  "noscript",
  "textarea",
  "select",
  "title",
  "head",
  "svg",
  "math",
  "frameset",
  "frame",
  "noembed",
  "noframes",
  "xmp",
  "plaintext",
]);
const ALLOWED = new Set([
  "a",
  "abbr",
  "address",
  "article",
  "aside",
  "audio",
  "b",
  "blockquote",
  "br",
  "caption",
  "cite",
  "code",
  "col",
  "colgroup",
  "dd",
  "del",
  "details",
  "dfn",
  "div",
  "dl",
  "dt",
  "em",
  "figcaption",
  "figure",
  "footer",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "i",
  "iframe",
  "img",
  "ins",
  "kbd",
  "li",
  "mark",
  "ol",
  "p",
  "picture",
  "pre",
  "q",
  "s",
  "samp",
  "section",
  "small",
  "source",
  "span",
  "strong",
  "sub",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "time",
  "tr",
  "track",
  "u",
  "ul",
  "video",
  "wbr",
]);
const GLOBAL_ATTRS = new Set(["class", "title", "lang", "dir", "role", "style"]);
const TAG_ATTRS: Record<string, Set<string>> = {
  a: new Set(["href", "target", "rel", "name"]),
  img: new Set(["src", "alt", "width", "height", "loading", "srcset", "sizes", "decoding"]),
  iframe: new Set([
    "src",
    "width",
    "height",
    "allow",
    "allowfullscreen",
    "frameborder",
    "loading",
    "referrerpolicy",
    "scrolling",
  ]),
  video: new Set(["src", "controls", "width", "height", "poster", "preload", "muted", "loop", "playsinline"]),
  audio: new Set(["src", "controls", "preload", "loop", "muted"]),
  source: new Set(["src", "type", "srcset", "media", "sizes"]),
  track: new Set(["src", "kind", "srclang", "label", "default"]),
  td: new Set(["colspan", "rowspan", "align"]),
  th: new Set(["colspan", "rowspan", "align", "scope"]),
  col: new Set(["span"]),
  colgroup: new Set(["span"]),
  ol: new Set(["start", "reversed", "type"]),
  time: new Set(["datetime"]),
  blockquote: new Set(["cite"]),
  q: new Set(["cite"]),
  details: new Set(["open"]),
};
const URL_ATTRS = new Set(["href", "src", "poster", "cite"]);
const IFRAME_ALLOW = new Set([
  "accelerometer",
  "autoplay",
  "clipboard-write",
  "encrypted-media",
  "fullscreen",
  "gyroscope",
  "picture-in-picture",
  "web-share",
]);

/** A URL that is safe in a link or a media source: relative, http(s), mailto, tel (data: images only in img). */
export function safeUrl(value: string, opts: { tag?: string; httpsOnly?: boolean } = {}): string | undefined {
  // Browsers ignore control characters and whitespace inside the scheme: so must we.
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(compact)?.[1]?.toLowerCase();
  if (opts.httpsOnly) return scheme === "https" ? value.trim() : undefined;
  if (!scheme) return value.trim();
  if (scheme === "http" || scheme === "https") return value.trim();
  if ((scheme === "mailto" || scheme === "tel") && opts.tag === "a") return value.trim();
  if (scheme === "data" && opts.tag === "img" && /^data:image\/(png|jpe?g|gif|webp|avif);/i.test(compact))
    return value.trim();
  return undefined;
}

function safeStyle(style: string): string | undefined {
  const kept = style
    .split(";")
    .map((d) => d.trim())
    .filter(
      (d) =>
        d &&
        /^[a-zA-Z-]+\s*:/.test(d) &&
        !/url\s*\(|expression|javascript:|@import|behavior|-moz-binding|position\s*:\s*(fixed|sticky)/i.test(
          d,
        ),
    );
  return kept.length ? kept.join("; ") : undefined;
}

const ATTR_RE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|colon|tab|newline);?/gi, (m, e: string) => {
    const k = e.toLowerCase();
    if (k === "amp") return "&";
    if (k === "lt") return "<";
    if (k === "gt") return ">";
    if (k === "quot") return '"';
    if (k === "apos") return "'";
    if (k === "colon") return ":";
    if (k === "tab") return "\t";
    if (k === "newline") return "\n";
    const code = k.startsWith("#x") ? Number.parseInt(k.slice(2), 16) : Number.parseInt(k.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
  });
}

function sanitizeAttrs(tag: string, raw: string, allowIframes: boolean): string | undefined {
  const allowed = TAG_ATTRS[tag];
  const out: string[] = [];
  let hasSrc = false;
  for (const m of raw.matchAll(ATTR_RE)) {
    const name = m[1]!.toLowerCase();
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
    const isAria = name.startsWith("aria-");
    const isData =
      name.startsWith("data-") && !name.startsWith("data-island") && /^data-[a-z0-9-]+$/.test(name);
    if (!GLOBAL_ATTRS.has(name) && !allowed?.has(name) && !isAria && !isData) continue;
    if (name === "style") {
      const style = safeStyle(value);
      if (style) out.push(`style="${escapeAttr(style)}"`);
      continue;
    }
    if (URL_ATTRS.has(name)) {
      const url = safeUrl(value, { tag, httpsOnly: tag === "iframe" });
      if (url === undefined) continue;
      if (name === "src") hasSrc = true;
      out.push(`${name}="${escapeAttr(url)}"`);
      continue;
    }
    if (name === "srcset") {
      const ok = value
        .split(",")
        .every((c) => safeUrl(c.trim().split(/\s+/)[0] ?? "", { tag }) !== undefined);
      if (ok) out.push(`srcset="${escapeAttr(value)}"`);
      continue;
    }
    if (name === "allow") {
      const features = value
        .split(";")
        .map((f) => f.trim())
        .filter((f) => IFRAME_ALLOW.has(f.split(/\s+/)[0] ?? ""));
      if (features.length) out.push(`allow="${escapeAttr(features.join("; "))}"`);
      continue;
    }
    if (name === "target") {
      out.push('target="_blank"');
      continue;
    }
    if (name === "rel") continue;
    out.push(
      m[2] === undefined && m[3] === undefined && m[4] === undefined
        ? name
        : `${name}="${escapeAttr(value)}"`,
    );
  }
  if (tag === "a" && out.some((a) => a.startsWith("target="))) out.push('rel="noopener noreferrer nofollow"');
  if (tag === "iframe") {
    if (!allowIframes || !hasSrc) return undefined;
    out.push('sandbox="allow-scripts allow-same-origin allow-popups allow-presentation allow-forms"');
    if (!out.some((a) => a.startsWith("loading="))) out.push('loading="lazy"');
  }
  return out.length ? ` ${out.join(" ")}` : "";
}

/**
 * Sanitises an HTML fragment. `allowIframes` keeps HTTPS iframes (embed blocks, oEmbed), in a
 * sandbox. Unclosed elements are closed at the end, stray end tags are dropped.
 */
export function sanitizeHtml(html: string, opts: { allowIframes?: boolean } = {}): string {
  const allowIframes = Boolean(opts.allowIframes);
  const out: string[] = [];
  const open: string[] = [];
  let dropping: string | undefined;
  let i = 0;
  const src = String(html ?? "");
  while (i < src.length) {
    const lt = src.indexOf("<", i);
    if (lt === -1) {
      if (!dropping) out.push(escapeText(src.slice(i)));
      break;
    }
    if (lt > i && !dropping) out.push(escapeText(src.slice(i, lt)));
    if (src.startsWith("<!--", lt)) {
      const end = src.indexOf("-->", lt + 4);
      i = end === -1 ? src.length : end + 3;
      continue;
    }
    if (src.startsWith("<!", lt) || src.startsWith("<?", lt)) {
      const end = src.indexOf(">", lt);
      i = end === -1 ? src.length : end + 1;
      continue;
    }
    const m = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:"[^"]*"|'[^']*'|[^'">])*)>/.exec(src.slice(lt));
    if (!m) {
      if (!dropping) out.push("&lt;");
      i = lt + 1;
      continue;
    }
    i = lt + m[0].length;
    const closing = m[1] === "/";
    const tag = m[2]!.toLowerCase();
    if (dropping) {
      if (closing && tag === dropping) dropping = undefined;
      continue;
    }
    if (DROP_WITH_CONTENT.has(tag) || (tag === "iframe" && !allowIframes)) {
      if (!closing && !m[3]!.trim().endsWith("/")) dropping = tag;
      continue;
    }
    if (!ALLOWED.has(tag)) continue;
    if (closing) {
      const at = open.lastIndexOf(tag);
      if (at === -1) continue;
      while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    const attrs = sanitizeAttrs(tag, m[3]!.replace(/\/\s*$/, ""), allowIframes);
    if (attrs === undefined) {
      if (tag === "iframe") dropping = "iframe";
      continue;
    }
    out.push(`<${tag}${attrs}>`);
    if (!VOID.has(tag)) open.push(tag);
  }
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join("");
}

/** Plain text of an HTML fragment (for excerpts, search and meta descriptions). */
export function htmlToText(html: string): string {
  return decodeEntities(
    String(html ?? "")
      .replace(/<(script|style|template)[\s\S]*?<\/\1>/gi, " ")
      .replace(/<[^>]+>/g, " "),
  )
    .replace(/\s+/g, " ")
    .trim();
}
