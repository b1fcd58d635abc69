/**
 * juice's CSS inlining of the email layout, without running juice on every email. juice parses
 * the whole page, matches every rule against every element and serialises the page again (about
 * 1 to 1.5 ms an email); it leaves text and closing tags as they are (it parses without decoding
 * entities), and what it writes into an opening tag depends only on the stylesheet, the tag's
 * name, its class, style, width, height, bgcolor, background, align and valign attributes, the
 * names and order of its other attributes (whose values it copies) and the names and classes of
 * its ancestors (the layout's stylesheet has type and class selectors and descendant combinators
 * only). So each opening tag juice writes is remembered under that key, per stylesheet, and an
 * email whose tags are all known is the page with its opening tags swapped for the remembered
 * ones. An email with a tag never seen is inlined by juice, and teaches the cache its tags when
 * juice's output is the page with only its opening tags changed and each remembered tag rebuilds
 * juice's own exactly (otherwise nothing is learned from it).
 *
 * Only the layout's own markup goes this way (well-formed, double-quoted attributes, escaped
 * text); a page with anything else goes to juice whole (see `inlineLayoutCss`).
 */
import juice from "juice";

const JUICE_OPTIONS = { removeStyleTags: false, preserveMediaQueries: true } as const;

/** How many pages went to juice whole (misses, rich text, pages not read), for tests and benchmarks. */
export const juiced = { pages: 0 };

/** juice on the whole page: what `inlineLayoutCss` reproduces. */
export function juiceEmailPage(page: string): string {
  return juice(page, JUICE_OPTIONS);
}

/** juice on the whole page, counted. */
export function juicedPage(page: string): string {
  juiced.pages++;
  return juiceEmailPage(page);
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

/** An opening tag as juice writes it: text, and the indexes of the source tag's attributes it copies. */
type Template = (string | number)[];

/** What juice writes in the opening tags under one chain of ancestors (their names and classes). */
interface Context {
  children: Map<string, Context>;
  /** By the tag's shape: its name, its keyed attributes with their values, the names of the others. */
  templates: Map<string, Template>;
  /** By the tag's whole text, as juice wrote it in the emails it inlined. */
  tags: Map<string, string>;
}

const newContext = (): Context => ({ children: new Map(), templates: new Map(), tags: new Map() });

interface OpenTag {
  start: number;
  text: string;
  name: string;
  context: Context;
}

const MAX_STYLESHEETS = 200;
const cache = new Map<string, Context>();

function rootOf(css: string): Context {
  let root = cache.get(css);
  if (!root) {
    if (cache.size >= MAX_STYLESHEETS) cache.delete(cache.keys().next().value!);
    root = newContext();
    cache.set(css, root);
  }
  return root;
}

const attrText = ([name, value]: [string, string]) => (value === "" ? ` ${name}` : ` ${name}="${value}"`);

function fill(template: Template, attrs: [string, string][]): string {
  let s = "";
  for (const part of template) s += typeof part === "string" ? part : attrText(attrs[part]!);
  return s;
}

function classOf(tag: string): string {
  const at = tag.indexOf(' class="');
  return at < 0 ? "" : tag.slice(at + 8, tag.indexOf('"', at + 8));
}

/** The tag's attributes and shape, or undefined if its attributes are not all `name="value"`. */
function shapeOf(tag: OpenTag): { attrs: [string, string][]; shape: string } | undefined {
  const rest = tag.text.slice(tag.name.length + 1, -1);
  const attrs: [string, string][] = [];
  let shape = tag.name;
  let back = "";
  for (const [text, attr, value] of rest.matchAll(ATTR) as IterableIterator<[string, string, string]>) {
    attrs.push([attr, value]);
    back += text;
    shape += KEYED.has(attr) ? text : ` ${attr}`;
  }
  return back === rest ? { attrs, shape } : undefined;
}

/** The page's opening tags in their contexts, or undefined if the page is not well-formed markup. */
function openTags(page: string, root: Context): OpenTag[] | undefined {
  const tags: OpenTag[] = [];
  const names: string[] = [];
  const contexts = [root];
  TAG.lastIndex = 0;
  for (let m = TAG.exec(page); m; m = TAG.exec(page)) {
    const text = m[0];
    const name = m[2]!.toLowerCase();
    if (m[1]) {
      if (m[3] !== "" || names.pop() !== name) return undefined;
      contexts.pop();
      continue;
    }
    const context = contexts[contexts.length - 1]!;
    tags.push({ start: m.index, text, name, context });
    if (!VOID.has(name)) {
      const key = `${name}.${classOf(text)}`;
      let child = context.children.get(key);
      if (!child) {
        child = newContext();
        context.children.set(key, child);
      }
      names.push(name);
      contexts.push(child);
    }
  }
  return names.length === 0 ? tags : undefined;
}

/** Remembers the tags of `page` as juice wrote them in `out`, if `out` is `page` with only its opening tags changed. */
function learn(page: string, tags: OpenTag[], out: string): void {
  const outTags = [...out.matchAll(TAG)].filter((m) => m[1] === "");
  if (outTags.length !== tags.length) return;
  const learned: [OpenTag, string, Template, string][] = [];
  let at = 0;
  let outAt = 0;
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i]!;
    const m = outTags[i]!;
    const shaped = shapeOf(tag);
    if (!shaped || page.slice(at, tag.start) !== out.slice(outAt, m.index)) return;
    at = tag.start + tag.text.length;
    outAt = m.index + m[0].length;
    const template: Template = [`<${m[2]}`];
    for (const [, attr, value] of m[3]!.matchAll(OUT_ATTR)) {
      if (KEYED.has(attr!)) {
        template.push(attrText([attr!, value ?? ""]));
        continue;
      }
      const j = shaped.attrs.findIndex(([a]) => a === attr);
      if (j < 0 || shaped.attrs[j]![1] !== (value ?? "")) return;
      template.push(j);
    }
    template.push(">");
    if (fill(template, shaped.attrs) !== m[0]) return;
    learned.push([tag, shaped.shape, template, m[0]]);
  }
  if (page.slice(at) !== out.slice(outAt)) return;
  for (const [tag, shape, template, written] of learned) {
    tag.context.templates.set(shape, template);
    tag.context.tags.set(tag.text, written);
  }
}

/**
 * The email page with `css` (its one stylesheet, in its head) inlined, byte for byte as juice
 * inlines it. A page with juice's template markers (`{{`, `<%`, which juice sets aside), a
 * stylesheet with CSS variables (resolved from the ancestors' styles) or markup this does not
 * read as plain tags goes to juice whole.
 */
export function inlineLayoutCss(page: string, css: string): string {
  const plain = !page.includes("{{") && !page.includes("<%") && !css.includes("var(") && !css.includes("<");
  const tags = plain ? openTags(page, rootOf(css)) : undefined;
  if (!tags) return juicedPage(page);
  let html = "";
  let at = 0;
  for (const tag of tags) {
    let written = tag.context.tags.get(tag.text);
    if (written === undefined) {
      const shaped = shapeOf(tag);
      const template = shaped && tag.context.templates.get(shaped.shape);
      if (!template) {
        const out = juicedPage(page);
        learn(page, tags, out);
        return out;
      }
      written = fill(template, shaped.attrs);
    }
    html += page.slice(at, tag.start) + written;
    at = tag.start + tag.text.length;
  }
  return html + page.slice(at);
}
