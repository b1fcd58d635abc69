/**
 * The curated fonts a site may choose for its headings and body text: self-hosted families from
 * the @fontsource packages (only their latin woff2 files, only the weights a site uses) and
 * system font stacks, which download nothing. Never a third-party font CDN.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type FontCategory = "sans-serif" | "serif" | "display" | "monospace";

interface FontChoice {
  id: string;
  name: string;
  category: FontCategory;
  /** The CSS font-family value, with fallbacks. */
  stack: string;
  /** The @fontsource package that holds its files; none for a system stack. */
  pkg?: string;
}

const SANS =
  'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const SERIF = 'Georgia, "Times New Roman", serif';

const hosted = (id: string, name: string, category: FontCategory, fallback: string): FontChoice => ({
  id,
  name,
  category,
  stack: `"${name}", ${fallback}`,
  pkg: `@fontsource/${id}`,
});

export const FONTS: readonly FontChoice[] = [
  hosted("inter", "Inter", "sans-serif", SANS),
  hosted("dm-sans", "DM Sans", "sans-serif", SANS),
  hosted("work-sans", "Work Sans", "sans-serif", SANS),
  hosted("open-sans", "Open Sans", "sans-serif", SANS),
  hosted("roboto", "Roboto", "sans-serif", SANS),
  hosted("montserrat", "Montserrat", "sans-serif", SANS),
  hosted("raleway", "Raleway", "sans-serif", SANS),
  hosted("space-grotesk", "Space Grotesk", "display", SANS),
  hosted("playfair-display", "Playfair Display", "display", SERIF),
  hosted("lora", "Lora", "serif", SERIF),
  hosted("merriweather", "Merriweather", "serif", SERIF),
  hosted("source-serif-4", "Source Serif 4", "serif", SERIF),
  hosted("libre-baskerville", "Libre Baskerville", "serif", SERIF),
  hosted("eb-garamond", "EB Garamond", "serif", SERIF),
  { id: "system-sans", name: "System sans-serif", category: "sans-serif", stack: SANS },
  {
    id: "system-serif",
    name: "System serif",
    category: "serif",
    stack: `"Iowan Old Style", "Palatino Linotype", Palatino, "Book Antiqua", ${SERIF}`,
  },
  {
    id: "system-mono",
    name: "System monospace",
    category: "monospace",
    stack: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  },
];

export const FONT_IDS: readonly string[] = FONTS.map((f) => f.id);

export function fontById(id: string): FontChoice | undefined {
  return FONTS.find((f) => f.id === id);
}

/** One woff2 file of a family: a weight in a style. */
export interface FontFile {
  family: string;
  weight: number;
  style: "normal" | "italic";
  /** Served at this address (content hash in the name: immutable). */
  url: string;
  file: string;
  hash: string;
}

interface FontFace {
  weight: number;
  style: "normal" | "italic";
}

const require = createRequire(import.meta.url);
const files = new Map<string, FontFile>();

/** The latin woff2 file of a hosted family's weight and style, when the package has it. */
export function fontFile(id: string, face: FontFace): FontFile | undefined {
  const font = fontById(id);
  if (!font?.pkg) return undefined;
  const key = `${id}-${face.weight}-${face.style}`;
  const known = files.get(key);
  if (known) return known;
  const dir = path.dirname(require.resolve(`${font.pkg}/package.json`));
  const file = path.join(dir, "files", `${id}-latin-${face.weight}-${face.style}.woff2`);
  if (!existsSync(file)) return undefined;
  const hash = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12);
  const entry: FontFile = {
    family: font.name,
    weight: face.weight,
    style: face.style,
    url: `/assets/fonts/${key}.${hash}.woff2`,
    file,
    hash,
  };
  files.set(key, entry);
  return entry;
}

/** The file behind `/assets/fonts/<id>-<weight>-<style>.<hash>.woff2`, if the name is one of ours. */
export function fontFileByName(name: string): FontFile | undefined {
  const m = /^([a-z0-9-]+)-(\d{3})-(normal|italic)\.([a-f0-9]{12})\.woff2$/.exec(name);
  if (!m) return undefined;
  const f = fontFile(m[1]!, { weight: Number(m[2]), style: m[3] as FontFace["style"] });
  return f && f.hash === m[4] ? f : undefined;
}

/**
 * The faces a page needs: body text in regular, italic and bold; headings in their weight (and
 * its italic where the theme sets headings in italic).
 * Families that are system stacks need none.
 */
export function facesFor(
  fonts: { heading: string; body: string },
  headingWeight: number,
  headingItalic = false,
): FontFile[] {
  const wanted: [string, FontFace][] = [
    [fonts.body, { weight: 400, style: "normal" }],
    [fonts.body, { weight: 400, style: "italic" }],
    [fonts.body, { weight: 700, style: "normal" }],
    [fonts.heading, { weight: headingWeight, style: "normal" }],
  ];
  if (headingItalic) wanted.push([fonts.heading, { weight: headingWeight, style: "italic" }]);
  const out = new Map<string, FontFile>();
  for (const [id, face] of wanted) {
    const f = fontFile(id, face);
    if (f) out.set(f.url, f);
  }
  return [...out.values()];
}

/**
 * `@font-face` rules for the faces. Published pages ask for `optional`: a face there by the first
 * paint is used (Chromium holds the first paint up to 100 ms for a preloaded one), a later one is
 * not swapped in, so text never reflows under the visitor (a swap late enough re-wraps lines and
 * moves the page: layout shift), and the cached face shows from the next page on. The dashboard's
 * previews, which are there to show the font, swap.
 */
export function fontFaceCss(faces: FontFile[], display: "swap" | "optional" = "swap"): string {
  return faces
    .map(
      (f) =>
        `@font-face{font-family:"${f.family}";font-style:${f.style};font-weight:${f.weight};font-display:${display};src:url(${f.url}) format("woff2")}`,
    )
    .join("");
}

/** The faces worth preloading: the body's regular and the headings' weight (what the first view shows). */
export function preloadsFor(
  faces: FontFile[],
  fonts: { heading: string; body: string },
  headingWeight: number,
) {
  const body = fontById(fonts.body)?.name;
  const heading = fontById(fonts.heading)?.name;
  return faces
    .filter(
      (f) =>
        f.style === "normal" &&
        ((f.family === body && f.weight === 400) || (f.family === heading && f.weight === headingWeight)),
    )
    .map((f) => f.url);
}
