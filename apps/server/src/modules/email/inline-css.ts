/**
 * juice's CSS inlining of the email layout, without running juice on every email. juice parses
 * the whole page, matches every rule against every element and serialises the page again (about
 * 1.5 ms an email); what it writes into an opening tag depends only on the stylesheet, the tag's
 * name, its class, style, width, height, bgcolor, background, align and valign attributes, the
 * names and order of its other attributes (whose values it copies) and the names and classes of
 * its ancestors (the layout's stylesheet has type and class selectors and descendant combinators
 * only). So each opening tag juice writes is remembered under that key, per stylesheet, and an
 * email whose tags are all known is the page with its opening tags swapped for the remembered
 * ones. An email with a tag never seen is inlined by juice, which teaches the cache its tags.
 *
 * Only the layout's own markup goes this way (well-formed, double-quoted attributes, escaped
 * text); a page with anything else goes to juice whole (see `inlineLayoutCss`).
 */
import juice from "juice";

const JUICE_OPTIONS = { removeStyleTags: false, preserveMediaQueries: true } as const;

/** juice on the whole page: what `inlineLayoutCss` reproduces. */
export function juiceEmailPage(page: string): string {
  return juice(page, JUICE_OPTIONS);
}

/** Attributes juice reads or writes: part of a tag's key with their values. */
const KEYED = new Set(["class", "style", "width", "height", "bgcolor", "background", "align", "valign"]);
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "wbr",
]);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g;
const ATTR = /\s([^\s"'>/=]+)="([^"]*)"/g;
/** juice's output writes an empty attribute bare (`alt`, not `alt=""`). */
const OUT_ATTR = /\s([^\s"'>/=]+)(?:="([^"]*)")?/g;

interface OpenTag {
  start: number;
  end: number;
  attrs: [string, string][];
  key: string;
}

/** An opening tag as juice writes it: text, and the indexes of the source tag's attributes it copies. */
type Template = (string | number)[];

const MAX_STYLESHEETS = 200;
const cache = new Map<string, Map<string, Template>>();

function templatesOf(css: string): Map<string, Template> {
  let known = cache.get(css);
  if (!known) {
    if (cache.size >= MAX_STYLESHEETS) cache.delete(cache.keys().next().value!);
    known = new Map();
    cache.set(css, known);
  }
  return known;
}

const attrText = ([name, value]: [string, string]) => (value === "" ? ` ${name}` : ` ${name}="${value}"`);

function fill(template: Template, attrs: [string, string][]): string {
  let s = "";
  for (const part of template) s += typeof part === "string" ? part : attrText(attrs[part]!);
  return s;
}

/** The page's opening tags with their keys, or undefined if the page is not plain, well-formed markup. */
function openTags(page: string): OpenTag[] | undefined {
  const tags: OpenTag[] = [];
  const names: string[] = [];
  const contexts = [""];
  for (const m of page.matchAll(TAG)) {
    const [whole, close, rawName, rest] = m as unknown as [string, string, string, string];
    const name = rawName.toLowerCase();
    if (close) {
      if (rest !== "" || names.pop() !== name) return undefined;
      contexts.pop();
      continue;
    }
    const attrs: [string, string][] = [];
    let shape = name;
    let back = "";
    let cls = "";
    for (const [text, attr, value] of rest.matchAll(ATTR) as IterableIterator<[string, string, string]>) {
      attrs.push([attr, value]);
      back += text;
      shape += KEYED.has(attr) ? text : ` ${attr}`;
      if (attr === "class") cls = value;
    }
    if (back !== rest) return undefined;
    const context = contexts.at(-1)!;
    tags.push({ start: m.index, end: m.index + whole.length, attrs, key: `${context}|${shape}` });
    if (!VOID.has(name)) {
      names.push(name);
      contexts.push(`${context} ${name}.${cls}`);
    }
  }
  return names.length === 0 ? tags : undefined;
}

/** Remembers the tags of `page` as juice wrote them in `out`, if `out` is `page` with only its opening tags changed. */
function learn(known: Map<string, Template>, page: string, tags: OpenTag[], out: string): void {
  const outTags = [...out.matchAll(TAG)].filter((m) => m[1] === "");
  if (outTags.length !== tags.length) return;
  const learned: [string, Template][] = [];
  let at = 0;
  let outAt = 0;
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i]!;
    const m = outTags[i]!;
    if (page.slice(at, tag.start) !== out.slice(outAt, m.index)) return;
    at = tag.end;
    outAt = m.index + m[0].length;
    const template: Template = [`<${m[2]}`];
    for (const [, attr, value] of m[3]!.matchAll(OUT_ATTR)) {
      if (KEYED.has(attr!)) {
        template.push(attrText([attr!, value ?? ""]));
        continue;
      }
      const j = tag.attrs.findIndex(([a]) => a === attr);
      if (j < 0 || tag.attrs[j]![1] !== (value ?? "")) return;
      template.push(j);
    }
    template.push(">");
    if (fill(template, tag.attrs) !== m[0]) return;
    learned.push([tag.key, template]);
  }
  if (page.slice(at) !== out.slice(outAt)) return;
  for (const [key, template] of learned) known.set(key, template);
}

/**
 * The email page with `css` (its one stylesheet, in its head) inlined, byte for byte as juice
 * inlines it. A page with juice's template markers (`{{`, `<%`, which juice sets aside), a
 * stylesheet with CSS variables (resolved from the ancestors' styles) or markup this does not
 * read as plain tags goes to juice whole.
 */
export function inlineLayoutCss(page: string, css: string): string {
  const plain = !page.includes("{{") && !page.includes("<%") && !css.includes("var(") && !css.includes("<");
  const tags = plain ? openTags(page) : undefined;
  if (!tags) return juiceEmailPage(page);
  const known = templatesOf(css);
  let html = "";
  let at = 0;
  for (const tag of tags) {
    const template = known.get(tag.key);
    if (!template) {
      const out = juiceEmailPage(page);
      learn(known, page, tags, out);
      return out;
    }
    html += page.slice(at, tag.start) + fill(template, tag.attrs);
    at = tag.end;
  }
  return html + page.slice(at);
}
