/**
 * The one HTML sanitiser for everything site owners write (sanitize-html with our allow-lists).
 * Two profiles: `sanitizeRichText` for the editor's rich text (bodies, excerpts, descriptions,
 * form messages), and `sanitizeHtml` for what owners paste into code and embed blocks (and oEmbed
 * HTML), which keeps more markup and, where allowed, HTTPS iframes in a sandbox. Both drop
 * scripts, styles, event handlers, SVG/MathML and `javascript:`-style URLs.
 */
import sanitize, { type IOptions, type Attributes } from "sanitize-html";

/** Elements removed together with everything inside them. */
const DROP_WITH_CONTENT = [
  "script",
  "style",
  "template",
  "object",
  "embed",
  "applet",
  "noscript",
  "textarea",
  "select",
  "option",
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
];

const RICH_TEXT_TAGS = [
  "p",
  "br",
  "h1",
  "h2",
  "h3",
  "h4",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "a",
  "ul",
  "ol",
  "li",
  "blockquote",
  "code",
  "pre",
  "hr",
  "span",
];

const BLOCK_TAGS = [
  ...new Set([
    ...RICH_TEXT_TAGS,
    "abbr",
    "address",
    "article",
    "aside",
    "audio",
    "caption",
    "cite",
    "col",
    "colgroup",
    "dd",
    "del",
    "details",
    "dfn",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h5",
    "h6",
    "header",
    "img",
    "ins",
    "kbd",
    "mark",
    "picture",
    "q",
    "samp",
    "section",
    "small",
    "source",
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
    "video",
    "wbr",
  ]),
];

const GLOBAL_ATTRS = ["class", "title", "lang", "dir", "role", "style", "aria-*", "data-*"];
const BLOCK_ATTRS: Record<string, string[]> = {
  "*": GLOBAL_ATTRS,
  a: ["href", "target", "name"],
  img: ["src", "alt", "width", "height", "loading", "srcset", "sizes", "decoding"],
  iframe: [
    "src",
    "width",
    "height",
    "allow",
    "allowfullscreen",
    "frameborder",
    "loading",
    "referrerpolicy",
    "scrolling",
    "sandbox",
  ],
  video: ["src", "controls", "width", "height", "poster", "preload", "muted", "loop", "playsinline"],
  audio: ["src", "controls", "preload", "loop", "muted"],
  source: ["src", "type", "srcset", "media", "sizes"],
  track: ["src", "kind", "srclang", "label", "default"],
  td: ["colspan", "rowspan", "align"],
  th: ["colspan", "rowspan", "align", "scope"],
  col: ["span"],
  colgroup: ["span"],
  ol: ["start", "reversed", "type"],
  time: ["datetime"],
  blockquote: ["cite"],
  q: ["cite"],
  details: ["open"],
};

/** Features an embedded player may ask its iframe for. */
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
const IFRAME_SANDBOX = "allow-scripts allow-same-origin allow-popups allow-presentation allow-forms";

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

const URL_ATTRS = ["href", "src", "poster", "cite"];

/** Our URL, style and link-target rules on the attributes sanitize-html has already allow-listed. */
function checkAttributes(tag: string, attribs: Attributes, allowIframes: boolean): Attributes | undefined {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attribs)) {
    if (name.startsWith("data-island") || (name.startsWith("data-") && !/^data-[a-z0-9-]+$/.test(name)))
      continue;
    if (name === "style") {
      const style = safeStyle(value);
      if (style) out.style = style;
    } else if (URL_ATTRS.includes(name)) {
      const url = safeUrl(value, { tag, httpsOnly: tag === "iframe" });
      if (url !== undefined) out[name] = url;
    } else if (name === "srcset") {
      if (value.split(",").every((c) => safeUrl(c.trim().split(/\s+/)[0] ?? "", { tag }) !== undefined))
        out.srcset = value;
    } else if (name === "allow") {
      const features = value
        .split(";")
        .map((f) => f.trim())
        .filter((f) => IFRAME_ALLOW.has(f.split(/\s+/)[0] ?? ""));
      if (features.length) out.allow = features.join("; ");
    } else if (name === "target") {
      out.target = "_blank";
    } else {
      out[name] = value;
    }
  }
  if (tag === "a" && out.target) out.rel = "noopener noreferrer nofollow";
  if (tag === "iframe") {
    if (!allowIframes || !out.src) return undefined;
    out.sandbox = IFRAME_SANDBOX;
    out.loading ??= "lazy";
  }
  return out;
}

function blockOptions(allowIframes: boolean): IOptions {
  return {
    allowedTags: allowIframes ? [...BLOCK_TAGS, "iframe"] : BLOCK_TAGS,
    allowedAttributes: {
      ...BLOCK_ATTRS,
      ...(allowIframes ? {} : { iframe: [] }),
      a: [...BLOCK_ATTRS.a!, "rel"],
    },
    // URL schemes are checked by safeUrl in checkAttributes (per tag: data: images, https iframes).
    allowedSchemes: ["http", "https", "mailto", "tel", "data"],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: true,
    nonTextTags: allowIframes ? DROP_WITH_CONTENT : [...DROP_WITH_CONTENT, "iframe"],
    disallowedTagsMode: "discard",
    parseStyleAttributes: false,
    transformTags: {
      "*": (tagName, attribs) => ({
        tagName,
        attribs: checkAttributes(tagName, attribs, allowIframes) ?? {},
      }),
    },
    // An iframe whose address did not pass goes, with its fallback content.
    exclusiveFilter: (frame) => frame.tag === "iframe" && !frame.attribs.src,
  };
}

const BLOCK_WITH_IFRAMES = blockOptions(true);
const BLOCK_WITHOUT_IFRAMES = blockOptions(false);

/**
 * Image alignment in rich text: our classes, and WordPress's (imports, pasted text) mapped to them.
 * The base theme's CSS (themes/base/css) gives them their layout.
 */
export const IMAGE_ALIGN_CLASSES: Record<string, string> = {
  "image-left": "image-left",
  "image-right": "image-right",
  "image-center": "image-center",
  "image-inline": "image-inline",
  alignleft: "image-left",
  alignright: "image-right",
  aligncenter: "image-center",
  alignnone: "image-inline",
};

/** A media library address of this server (`/media/<id>/<file>`), or any https: image. */
const RICH_TEXT_IMAGE_SRC = /^(\/media\/[0-9a-f]{24}\/[^\s/?#"'<>]+(\?format=\d+w)?|https:\/\/[^\s"'<>]+)$/i;

/** An `<img>` in rich text keeps a library or https: src, its alt, pixel width and height, and one alignment. */
function richTextImage(attribs: Attributes): Attributes | undefined {
  const src = attribs.src?.trim() ?? "";
  if (!RICH_TEXT_IMAGE_SRC.test(src) || safeUrl(src, { tag: "img" }) === undefined) return undefined;
  const out: Attributes = { src, alt: attribs.alt ?? "" };
  for (const side of ["width", "height"] as const) {
    const v = attribs[side]?.trim();
    if (v && /^\d{1,5}$/.test(v) && Number(v) > 0) out[side] = v;
  }
  const align = (attribs.class ?? "")
    .split(/\s+/)
    .map((c) => IMAGE_ALIGN_CLASSES[c])
    .find(Boolean);
  if (align) out.class = align;
  return out;
}

const RICH_TEXT: IOptions = {
  allowedTags: [...RICH_TEXT_TAGS, "img"],
  // Classes let owners' messages use the theme's styles; they run nothing.
  allowedAttributes: {
    "*": ["class"],
    a: ["href", "target", "rel", "class"],
    img: ["src", "alt", "width", "height", "class"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  nonTextTags: [...DROP_WITH_CONTENT, "iframe"],
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => {
      const out: Attributes = {};
      if (attribs.href !== undefined) out.href = attribs.href;
      if (attribs.class !== undefined) out.class = attribs.class;
      if (attribs.target === "_blank") Object.assign(out, { target: "_blank", rel: "noopener noreferrer" });
      return { tagName, attribs: out };
    },
    img: (tagName, attribs) => ({ tagName, attribs: richTextImage(attribs) ?? {} }),
  },
  // An image whose address is neither the media library's nor https: goes.
  exclusiveFilter: (frame) => frame.tag === "img" && !frame.attribs.src,
};

/**
 * Sanitises an HTML fragment of a code or embed block. `allowIframes` keeps HTTPS iframes (embed
 * blocks, oEmbed), in a sandbox.
 */
export function sanitizeHtml(html: string, opts: { allowIframes?: boolean } = {}): string {
  return sanitize(String(html ?? ""), opts.allowIframes ? BLOCK_WITH_IFRAMES : BLOCK_WITHOUT_IFRAMES);
}

/**
 * Rich text from the editor: formatting tags, lists, headings, safe links and images (from the
 * media library or https:), nothing else.
 */
export function sanitizeRichText(html: string): string {
  return sanitize(String(html ?? ""), RICH_TEXT);
}

/** Text that is printed as HTML (a custom button label): no markup kept, special characters escaped. */
export function textAsHtml(text: string | null | undefined): string {
  return text
    ? sanitize(text, { allowedTags: [], allowedAttributes: {}, nonTextTags: DROP_WITH_CONTENT })
    : "";
}

const renderCache = new Map<string, string>();
const RENDER_CACHE_MAX = 2000;

/**
 * Rich text as pages print it: sanitised again on the way out, whatever was stored (rows written
 * before the rules, imports, direct database edits). Memoised, since lists print the same
 * excerpts on every render.
 */
export function richTextForPage(html: string | null | undefined): string {
  if (!html) return "";
  let out = renderCache.get(html);
  if (out === undefined) {
    out = sanitizeRichText(html);
    if (renderCache.size >= RENDER_CACHE_MAX) renderCache.delete(renderCache.keys().next().value!);
    renderCache.set(html, out);
  }
  return out;
}

const ENTITY = /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|colon|tab|newline|nbsp);?/gi;

function decodeEntities(s: string): string {
  return s.replace(ENTITY, (m, e: string) => {
    const k = e.toLowerCase();
    const named: Record<string, string> = {
      amp: "&",
      lt: "<",
      gt: ">",
      quot: '"',
      apos: "'",
      colon: ":",
      tab: "\t",
      newline: "\n",
      nbsp: "\u00a0",
    };
    if (named[k] !== undefined) return named[k];
    const code = k.startsWith("#x") ? Number.parseInt(k.slice(2), 16) : Number.parseInt(k.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
  });
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
