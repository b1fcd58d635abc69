/**
 * Rich text from the editor (text blocks, post bodies, product descriptions) is stored only as
 * an allow-listed subset of HTML: formatting tags, lists, headings and safe links. Everything else
 * is dropped (script and style with their content, other tags keeping their text).
 */

const ALLOWED = new Set([
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
]);
const VOID = new Set(["br", "hr"]);
/** Tags dropped together with everything inside them. */
const DROP_WITH_CONTENT = new Set(["script", "style", "iframe", "object", "embed", "template", "noscript"]);

const escapeText = (s: string) =>
  s
    .replace(/&(?![a-zA-Z]+;|#\d+;|#x[0-9a-fA-F]+;)/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const escapeAttr = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function decodeEntities(s: string): string {
  return s
    .replace(/&#(\d+);?/g, (_, d) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&#x([0-9a-f]+);?/gi, (_, h) => String.fromCodePoint(Math.min(Number.parseInt(h, 16), 0x10ffff)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function safeHref(raw: string): string | undefined {
  // Control characters and whitespace inside a scheme are a classic way to smuggle javascript:.
  const v = decodeEntities(raw).replace(/[\u0000-\u0020]/g, "");
  if (!v) return undefined;
  if (/^(https?:|mailto:|tel:)/i.test(v)) return v;
  if (/^[a-z][a-z0-9+.-]*:/i.test(v)) return undefined;
  if (v.startsWith("//")) return undefined;
  return v;
}

function attributesOf(source: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    out.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

export function sanitizeRichText(html: string): string {
  let out = "";
  const open: string[] = [];
  let i = 0;
  const tagRe = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/y;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt === -1) {
      out += escapeText(html.slice(i));
      break;
    }
    out += escapeText(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    tagRe.lastIndex = lt;
    const m = tagRe.exec(html);
    if (!m) {
      out += "&lt;";
      i = lt + 1;
      continue;
    }
    i = tagRe.lastIndex;
    const closing = m[1] === "/";
    const name = m[2]!.toLowerCase();
    if (DROP_WITH_CONTENT.has(name)) {
      if (!closing) {
        const end = html.toLowerCase().indexOf(`</${name}`, i);
        if (end === -1) i = html.length;
        else {
          const gt = html.indexOf(">", end);
          i = gt === -1 ? html.length : gt + 1;
        }
      }
      continue;
    }
    if (!ALLOWED.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at === -1) continue;
      while (open.length > at) out += `</${open.pop()}>`;
      continue;
    }
    let attrs = "";
    if (name === "a") {
      const a = attributesOf(m[3] ?? "");
      const href = a.has("href") ? safeHref(a.get("href")!) : undefined;
      if (href !== undefined) attrs += ` href="${escapeAttr(href)}"`;
      if (a.get("target") === "_blank") attrs += ' target="_blank" rel="noopener noreferrer"';
    }
    out += `<${name}${attrs}>`;
    if (!VOID.has(name)) open.push(name);
  }
  while (open.length) out += `</${open.pop()}>`;
  return out;
}
