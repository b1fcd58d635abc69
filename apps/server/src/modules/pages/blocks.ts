/**
 * The block types a layout may hold (the published-sites blocks), with the fields owners edit.
 * The dashboard builds its block picker and property panels from these definitions
 * (`GET /api/owner/sites/:siteId/block-types`), and the server validates drafts with them.
 */
import { Feature } from "../../seed/billing-catalog.js";
import { LIMIT_MESSAGES, MAX_BLOCKS_PER_LAYOUT, urlWithinLimit } from "./limits.js";
import { sanitizeRichText } from "./rich-text.js";

export type FieldType =
  | "text"
  | "textarea"
  | "richtext"
  | "code"
  | "url"
  | "number"
  | "boolean"
  | "select"
  | "image"
  | "images"
  | "form"
  | "collection"
  | "product"
  | "location"
  | "gallery";

export interface FieldDef {
  key: string;
  label: string;
  type: FieldType;
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  default?: string | number | boolean;
  options?: { value: string; label: string }[];
  /** Shown under the input. */
  help?: string;
  /** Shown in the empty input (and in the editing frame for an empty text block), never saved. */
  placeholder?: string;
  /** For "collection": the kinds that may be chosen. */
  kinds?: string[];
  /** For "gallery": the options of the set. */
  fields?: FieldDef[];
}

export interface BlockTypeDef {
  type: string;
  label: string;
  description: string;
  group: "Basic" | "Media" | "Commerce" | "Forms" | "Embeds" | "Premium";
  fields: FieldDef[];
  /** The feature the site's plan must enable (SPEC §6). */
  feature?: number;
  featureName?: string;
}

const opt = (...values: string[]) => values.map((v) => ({ value: v, label: v }));

/** SPEC §4 gallery designs, meta positions and alignments; §9 ranges and defaults. */
const GALLERY_DESIGNS = ["grid", "slideshow", "slider", "stacked"];
const META_POSITIONS = ["top", "top-left", "top-right", "center", "bottom", "bottom-left", "bottom-right"];
const ACTIVE_ALIGNMENTS = ["center", "left", "right"];
const LIGHTBOX_THEMES = ["dark", "light"];
const ASPECT_RATIOS = ["square", "4:3", "3:2", "16:9", "2:1", "3:4", "2:3", "9:16"];
const NUMBER_OPTIONS = {
  "autoplay-duration": { min: 1, max: 10, default: 5 },
  "thumbnail-strip-height": { min: 0, max: 200, default: 80 },
  "thumbnail-strip-margin": { min: 0, max: 60, default: 20 },
  "thumbnails-per-row": { min: 1, max: 10, default: 4 },
  padding: { min: 0, max: 50, default: 20 },
  "max-width": { min: 100, max: 300, default: 300 },
};

const FLAG_LABELS: [string, string][] = [
  ["autoplay", "Autoplay"],
  ["controls", "Show controls"],
  ["auto-crop", "Auto crop"],
  ["square-thumbs", "Square thumbnails"],
  ["thumbnails", "Show thumbnails"],
  ["show-meta", "Show title and description"],
  ["show-meta-basic", "Basic meta"],
  ["show-meta-only-title", "Title only"],
  ["show-meta-on-hover", "Meta on hover"],
  ["lightbox", "Open images in a lightbox"],
  ["newWindow", "Open links in a new window"],
  ["transparentBackground", "Transparent background"],
];
const NUMBER_LABELS: Record<keyof typeof NUMBER_OPTIONS, string> = {
  "autoplay-duration": "Autoplay delay (seconds)",
  "thumbnail-strip-height": "Thumbnail strip height (px)",
  "thumbnail-strip-margin": "Thumbnail strip margin (px)",
  "thumbnails-per-row": "Thumbnails per row",
  padding: "Padding (px)",
  "max-width": "Slide max width (%)",
};

/** The gallery option set of SPEC §3 with the ranges and defaults of SPEC §9 (as published pages read it). */
export const GALLERY_OPTION_FIELDS: FieldDef[] = [
  { key: "design", label: "Design", type: "select", default: "grid", options: opt(...GALLERY_DESIGNS) },
  {
    key: "aspect-ratio",
    label: "Aspect ratio",
    type: "select",
    default: "square",
    options: opt(...ASPECT_RATIOS),
  },
  {
    key: "meta-position",
    label: "Meta position",
    type: "select",
    default: "bottom",
    options: opt(...META_POSITIONS),
  },
  {
    key: "active-alignment",
    label: "Active slide alignment",
    type: "select",
    default: "center",
    options: opt(...ACTIVE_ALIGNMENTS),
  },
  {
    key: "lightboxTheme",
    label: "Lightbox theme",
    type: "select",
    default: "dark",
    options: opt(...LIGHTBOX_THEMES),
  },
  ...(
    Object.entries(NUMBER_OPTIONS) as [
      keyof typeof NUMBER_OPTIONS,
      { min: number; max: number; default: number },
    ][]
  ).map(
    ([key, r]): FieldDef => ({
      key,
      label: NUMBER_LABELS[key],
      type: "number",
      min: r.min,
      max: r.max,
      default: r.default,
    }),
  ),
  ...FLAG_LABELS.map(([key, label]): FieldDef => ({ key, label, type: "boolean", default: false })),
];

/** What an empty text block says until the owner types: a placeholder, never content. */
export const TEXT_BLOCK_PLACEHOLDER = "Write something here.";

export const BLOCK_TYPES: BlockTypeDef[] = [
  {
    type: "text",
    label: "Text",
    description: "Headings, paragraphs, lists and links.",
    group: "Basic",
    fields: [
      {
        key: "html",
        label: "Text",
        type: "richtext",
        maxLength: 100_000,
        placeholder: TEXT_BLOCK_PLACEHOLDER,
      },
    ],
  },
  {
    type: "image",
    label: "Image",
    description: "A picture from the media library.",
    group: "Basic",
    fields: [
      { key: "imageId", label: "Image", type: "image" },
      { key: "alt", label: "Alternative text", type: "text", maxLength: 500 },
      { key: "caption", label: "Caption", type: "text", maxLength: 1000 },
      { key: "href", label: "Link", type: "url" },
    ],
  },
  {
    type: "button",
    label: "Button",
    description: "A call to action that links somewhere.",
    group: "Basic",
    fields: [
      { key: "label", label: "Label", type: "text", required: true, maxLength: 200, default: "Learn more" },
      { key: "href", label: "Link", type: "url", required: true, default: "/" },
      {
        key: "style",
        label: "Style",
        type: "select",
        default: "primary",
        options: opt("primary", "secondary"),
      },
      {
        key: "align",
        label: "Alignment",
        type: "select",
        default: "left",
        options: opt("left", "center", "right"),
      },
    ],
  },
  {
    type: "quote",
    label: "Quote",
    description: "A pull quote with its source.",
    group: "Basic",
    fields: [
      {
        key: "text",
        label: "Quote",
        type: "textarea",
        required: true,
        maxLength: 5000,
        default: "A few words worth repeating.",
      },
      { key: "source", label: "Source", type: "text", maxLength: 300 },
    ],
  },
  {
    type: "summary",
    label: "Summary",
    description: "The latest items of a blog, events, store or gallery page.",
    group: "Basic",
    fields: [
      {
        key: "collectionId",
        label: "Collection",
        type: "collection",
        required: true,
        kinds: ["blog", "events", "products", "gallery", "album"],
      },
      { key: "title", label: "Heading", type: "text", maxLength: 300 },
      { key: "limit", label: "Number of items", type: "number", min: 1, max: 30, default: 4 },
      {
        key: "design",
        label: "Design",
        type: "select",
        default: "grid",
        options: opt("grid", "list", "carousel"),
      },
    ],
  },
  {
    type: "spacer",
    label: "Spacer",
    description: "Empty space between blocks.",
    group: "Basic",
    fields: [{ key: "height", label: "Height (px)", type: "number", min: 8, max: 400, default: 48 }],
  },
  {
    type: "line",
    label: "Line",
    description: "A horizontal divider.",
    group: "Basic",
    fields: [],
  },
  {
    type: "gallery",
    label: "Gallery",
    description: "Several images as a grid, slideshow, slider or stack.",
    group: "Media",
    fields: [
      { key: "title", label: "Heading", type: "text", maxLength: 300 },
      { key: "imageIds", label: "Images", type: "images" },
      {
        key: "collectionId",
        label: "Or the images of a gallery page",
        type: "collection",
        kinds: ["gallery"],
      },
      { key: "options", label: "Gallery settings", type: "gallery", fields: GALLERY_OPTION_FIELDS },
    ],
  },
  {
    type: "video",
    label: "Video",
    description: "A video from YouTube, Vimeo, or a video file.",
    group: "Media",
    fields: [
      { key: "url", label: "Video URL", type: "url", required: true },
      { key: "title", label: "Title", type: "text", maxLength: 300 },
      { key: "caption", label: "Caption", type: "text", maxLength: 1000 },
    ],
  },
  {
    type: "audio",
    label: "Audio",
    description: "A track to play on the page (an audio file or a SoundCloud link).",
    group: "Media",
    fields: [
      { key: "url", label: "Audio URL", type: "url", required: true },
      { key: "title", label: "Title", type: "text", maxLength: 300 },
      { key: "artist", label: "Artist", type: "text", maxLength: 300 },
    ],
  },
  {
    type: "map",
    label: "Map",
    description: "A location with a map link.",
    group: "Media",
    fields: [{ key: "location", label: "Location", type: "location" }],
  },
  {
    type: "product",
    label: "Product",
    description: "One product with its price and add-to-cart button.",
    group: "Commerce",
    fields: [
      { key: "productId", label: "Product", type: "product", required: true },
      { key: "showVariantImages", label: "Show variant images", type: "boolean", default: true },
    ],
  },
  {
    type: "form",
    label: "Form",
    description: "A form visitors fill in.",
    group: "Forms",
    fields: [
      { key: "formId", label: "Form", type: "form", required: true },
      { key: "title", label: "Heading", type: "text", maxLength: 300 },
      { key: "submitLabel", label: "Submit button label", type: "text", maxLength: 100 },
    ],
  },
  {
    type: "newsletter",
    label: "Newsletter",
    description: "An email sign-up for the mailing list.",
    group: "Forms",
    fields: [
      { key: "formId", label: "Form", type: "form", required: true },
      { key: "title", label: "Heading", type: "text", maxLength: 300 },
      { key: "description", label: "Description", type: "textarea", maxLength: 2000 },
      { key: "submitLabel", label: "Submit button label", type: "text", maxLength: 100 },
    ],
  },
  {
    type: "code",
    label: "Code",
    description: "HTML of your own (scripts are removed; nothing custom runs in safe mode).",
    group: "Embeds",
    fields: [
      { key: "html", label: "HTML", type: "code", maxLength: 50_000, default: "" },
      { key: "displaySource", label: "Show the code as text", type: "boolean", default: false },
    ],
  },
  {
    type: "embed",
    label: "Embed",
    description: "Content from another site by its embed code.",
    group: "Embeds",
    fields: [
      { key: "html", label: "Embed code", type: "code", maxLength: 50_000 },
      { key: "caption", label: "Caption", type: "text", maxLength: 1000 },
    ],
  },
  {
    type: "amazon",
    label: "Amazon",
    description: "A product from Amazon.",
    group: "Premium",
    feature: Feature.AMAZON_BLOCK,
    featureName: "Amazon block",
    fields: [
      { key: "asin", label: "ASIN", type: "text", required: true, maxLength: 20 },
      { key: "title", label: "Title", type: "text", maxLength: 300 },
      { key: "description", label: "Description", type: "textarea", maxLength: 1000 },
      { key: "imageId", label: "Image", type: "image" },
    ],
  },
  {
    type: "donation",
    label: "Donation",
    description: "A button that takes donations.",
    group: "Premium",
    feature: Feature.DONATION_BLOCK,
    featureName: "Donation block",
    fields: [
      { key: "title", label: "Title", type: "text", maxLength: 300, default: "Support our work" },
      { key: "description", label: "Description", type: "textarea", maxLength: 2000 },
      { key: "label", label: "Button label", type: "text", maxLength: 100, default: "Donate" },
    ],
  },
  {
    type: "menu",
    label: "Menu",
    description: "A restaurant menu.",
    group: "Premium",
    feature: Feature.MENU_BLOCK,
    featureName: "Menu block",
    fields: [
      { key: "title", label: "Title", type: "text", maxLength: 300 },
      {
        key: "menuText",
        label: "Menu",
        type: "textarea",
        maxLength: 20_000,
        help: "A line starting with # starts a section. Then one dish a line: name | price | description.",
      },
    ],
  },
  {
    type: "opentable",
    label: "OpenTable",
    description: "Restaurant reservations.",
    group: "Premium",
    feature: Feature.OPENTABLE_BLOCK,
    featureName: "OpenTable block",
    fields: [
      { key: "restaurantId", label: "Restaurant ID", type: "text", required: true, maxLength: 20 },
      { key: "name", label: "Name", type: "text", maxLength: 200 },
    ],
  },
  {
    type: "member-area",
    label: "Member area",
    description: "A sign-up for a member area.",
    group: "Premium",
    feature: Feature.MEMBER_AREAS,
    featureName: "Member areas",
    fields: [
      { key: "title", label: "Title", type: "text", maxLength: 300, default: "Members only" },
      { key: "description", label: "Description", type: "textarea", maxLength: 2000 },
      { key: "label", label: "Button label", type: "text", maxLength: 100, default: "Join now" },
      { key: "href", label: "Link", type: "url" },
    ],
  },
];

/** Options of collection pages by kind (the gallery option set for galleries). */
export const COLLECTION_OPTION_FIELDS: Record<string, FieldDef[]> = {
  blog: [{ key: "pageSize", label: "Posts per page", type: "number", min: 1, max: 100, default: 10 }],
  products: [{ key: "pageSize", label: "Products per page", type: "number", min: 1, max: 200, default: 24 }],
  events: [
    {
      key: "showPastOrUpcomingEvents",
      label: "Events shown",
      type: "select",
      default: "upcoming",
      options: [
        { value: "upcoming", label: "Upcoming events" },
        { value: "past", label: "Past events" },
      ],
    },
    { key: "calendarView", label: "Show a calendar", type: "boolean", default: false },
  ],
  gallery: GALLERY_OPTION_FIELDS,
  album: [],
  page: [],
  folder: [],
};

export function emptyRefs(): LayoutRefs {
  return { media: new Set(), forms: new Set(), collections: new Set(), products: new Set() };
}

/** Validates a record of field values against definitions; unknown keys are dropped. */
export function validateFields(
  where: string,
  defs: FieldDef[],
  input: Record<string, unknown>,
  refs: LayoutRefs = emptyRefs(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of defs) {
    const v = fieldValue(where, f, input[f.key], refs);
    if (v !== undefined) out[f.key] = v;
  }
  return out;
}

export const blockTypeByName = new Map(BLOCK_TYPES.map((b) => [b.type, b]));

export interface Block {
  id: string;
  type: string;
  [key: string]: unknown;
}
export interface Column {
  span: number;
  blocks: Block[];
}
export interface Row {
  columns: Column[];
}
export interface Layout {
  rows: Row[];
}

export const BLOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const OBJECT_ID = /^[a-f0-9]{24}$/;

/** References in a layout that must name rows of the same website. */
export interface LayoutRefs {
  media: Set<string>;
  forms: Set<string>;
  collections: Set<string>;
  products: Set<string>;
}

export class LayoutError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export function countBlocks(layout: Layout): number {
  return layout.rows.reduce((n, r) => n + r.columns.reduce((m, c) => m + c.blocks.length, 0), 0);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A link owners type: a site path, an anchor, or an http(s), mailto or tel URL. */
export function isSafeLink(v: string): boolean {
  if (v.startsWith("/") && !v.startsWith("//")) return true;
  if (v.startsWith("#")) return true;
  return /^(https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d\s()-]+)$/i.test(v);
}

export function fieldValue(block: string, f: FieldDef, value: unknown, refs: LayoutRefs): unknown {
  const where = `${block}.${f.key}`;
  const bad = (message: string) => new LayoutError(`${f.label}: ${message}`, where);
  if (value === undefined || value === null || value === "") {
    if (f.required) throw bad("this field is required.");
    return undefined;
  }
  switch (f.type) {
    case "text":
    case "textarea":
    case "code": {
      if (typeof value !== "string") throw bad("must be text.");
      if (f.maxLength && value.length > f.maxLength) throw bad(`at most ${f.maxLength} characters.`);
      return value;
    }
    case "richtext": {
      if (typeof value !== "string") throw bad("must be text.");
      if (f.maxLength && value.length > f.maxLength) throw bad(`at most ${f.maxLength} characters.`);
      return sanitizeRichText(value);
    }
    case "url": {
      if (typeof value !== "string") throw bad("must be a link.");
      const v = value.trim();
      if (!urlWithinLimit(v)) throw new LayoutError(LIMIT_MESSAGES.url, where);
      if (!isSafeLink(v)) throw bad("enter a link starting with /, https://, mailto: or tel:.");
      return v;
    }
    case "number": {
      const n = typeof value === "string" ? Number(value) : value;
      if (typeof n !== "number" || !Number.isFinite(n)) throw bad("must be a number.");
      if (f.min !== undefined && n < f.min) throw bad(`must be from ${f.min} to ${f.max}.`);
      if (f.max !== undefined && n > f.max) throw bad(`must be from ${f.min} to ${f.max}.`);
      return n;
    }
    case "boolean":
      if (typeof value !== "boolean") throw bad("must be on or off.");
      return value;
    case "select":
      if (typeof value !== "string" || !f.options?.some((o) => o.value === value))
        throw bad(`choose one of ${f.options?.map((o) => o.value).join(", ")}.`);
      return value;
    case "image":
      if (typeof value !== "string" || !OBJECT_ID.test(value)) throw bad("choose an image.");
      refs.media.add(value);
      return value;
    case "images": {
      if (!Array.isArray(value) || value.length > 250) throw bad("choose at most 250 images.");
      for (const id of value) {
        if (typeof id !== "string" || !OBJECT_ID.test(id)) throw bad("choose images from the library.");
        refs.media.add(id);
      }
      return value;
    }
    case "form":
      if (typeof value !== "string" || !OBJECT_ID.test(value)) throw bad("choose a form.");
      refs.forms.add(value);
      return value;
    case "collection":
      if (typeof value !== "string" || !OBJECT_ID.test(value)) throw bad("choose a collection.");
      refs.collections.add(value);
      return value;
    case "product":
      if (typeof value !== "string" || !OBJECT_ID.test(value)) throw bad("choose a product.");
      refs.products.add(value);
      return value;
    case "gallery": {
      if (!isRecord(value)) throw bad("must be a set of gallery options.");
      return validateFields(where, GALLERY_OPTION_FIELDS, value, refs);
    }
    case "location": {
      if (!isRecord(value)) throw bad("must be an address.");
      const out: Record<string, unknown> = {};
      for (const k of ["addressTitle", "addressLine1", "addressLine2", "addressCountry"]) {
        const s = value[k];
        if (s === undefined || s === null || s === "") continue;
        if (typeof s !== "string" || s.length > 300)
          throw bad(`${k} must be text of at most 300 characters.`);
        out[k] = s;
      }
      for (const [k, lim] of [
        ["mapLat", 90],
        ["mapLng", 180],
      ] as const) {
        const n = value[k];
        if (n === undefined || n === null || n === "") continue;
        const num = typeof n === "string" ? Number(n) : n;
        if (typeof num !== "number" || !Number.isFinite(num) || Math.abs(num) > lim)
          throw bad(`${k === "mapLat" ? "latitude" : "longitude"} must be from -${lim} to ${lim}.`);
        out[k] = num;
      }
      return out;
    }
  }
}

const escAttr = (s: string) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The player of a video or audio link, made from the URL alone (no request to the provider). */
export function oembedFor(
  url: string,
  kind: "video" | "audio",
): { html: string; providerName: string } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = u.hostname.replace(/^www\./, "").replace(/^m\./, "");
  const frame = (src: string, title: string, ratio = true) =>
    `<iframe src="${escAttr(src)}" title="${escAttr(title)}" ${ratio ? 'width="640" height="360"' : 'width="100%" height="166"'} frameborder="0" allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowfullscreen loading="lazy"></iframe>`;
  if (kind === "video") {
    let yt: string | null = null;
    if (host === "youtube.com")
      yt = u.pathname.startsWith("/shorts/") ? (u.pathname.split("/")[2] ?? null) : u.searchParams.get("v");
    if (host === "youtu.be") yt = u.pathname.slice(1);
    if (yt && /^[\w-]{6,20}$/.test(yt))
      return {
        html: frame(`https://www.youtube-nocookie.com/embed/${yt}`, "YouTube video"),
        providerName: "YouTube",
      };
    const vimeo = host === "vimeo.com" ? /^\/(\d{3,12})/.exec(u.pathname)?.[1] : undefined;
    if (vimeo)
      return { html: frame(`https://player.vimeo.com/video/${vimeo}`, "Vimeo video"), providerName: "Vimeo" };
  }
  if (kind === "audio" && host === "soundcloud.com") {
    return {
      html: frame(
        `https://w.soundcloud.com/player/?url=${encodeURIComponent(url)}`,
        "SoundCloud player",
        false,
      ),
      providerName: "SoundCloud",
    };
  }
  return undefined;
}

/** A menu written as text: "# Section" lines, then "name | price | description" lines. */
export function parseMenuText(text: string) {
  const sections: { title: string; items: { name: string; price: string; description: string }[] }[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      sections.push({ title: line.replace(/^#+\s*/, ""), items: [] });
      continue;
    }
    if (!sections.length) sections.push({ title: "", items: [] });
    const [name = "", price = "", ...rest] = line.split("|").map((p) => p.trim());
    sections[sections.length - 1]!.items.push({ name, price, description: rest.join(" | ") });
  }
  return [{ title: "", sections }];
}

/** Values the published page reads that follow from what the owner typed. */
function derived(b: Block): Block {
  if ((b.type === "video" || b.type === "audio") && typeof b.url === "string") {
    const oembed = oembedFor(b.url, b.type);
    if (oembed) return { ...b, oembed };
  }
  if (b.type === "menu")
    return { ...b, menus: parseMenuText(typeof b.menuText === "string" ? b.menuText : "") };
  return b;
}

/**
 * Checks a layout sent by the editor and answers a clean copy: known block types only, their
 * fields typed and in range, rich text sanitised, block ids unique, at most 60 blocks.
 * Collects the ids the layout refers to, for the caller to check against the website.
 * A draft (`draft: true`) may leave required fields empty: a block just added from the picker
 * has no product, form or link yet, and the editing frame shows it as a placeholder until the
 * owner fills it in. Publishing checks the layout again without that leniency.
 */
export function validateLayout(
  input: unknown,
  opts: { draft?: boolean } = {},
): { layout: Layout; refs: LayoutRefs } {
  const refs: LayoutRefs = {
    media: new Set(),
    forms: new Set(),
    collections: new Set(),
    products: new Set(),
  };
  if (!isRecord(input) || !Array.isArray(input.rows)) throw new LayoutError("A layout is a list of rows.");
  const seen = new Set<string>();
  let blocks = 0;
  const rows: Row[] = [];
  for (const [ri, r] of input.rows.entries()) {
    if (!isRecord(r) || !Array.isArray(r.columns) || r.columns.length < 1 || r.columns.length > 12)
      throw new LayoutError(`Row ${ri + 1} must have from 1 to 12 columns.`);
    let spans = 0;
    const columns: Column[] = [];
    for (const c of r.columns) {
      if (!isRecord(c) || !Array.isArray(c.blocks))
        throw new LayoutError(`Row ${ri + 1} has a column without blocks.`);
      const span = c.span === undefined ? Math.floor(12 / r.columns.length) : c.span;
      if (typeof span !== "number" || !Number.isInteger(span) || span < 1 || span > 12)
        throw new LayoutError(`Column widths must be whole numbers from 1 to 12.`);
      spans += span;
      const list: Block[] = [];
      for (const b of c.blocks) {
        blocks += 1;
        if (blocks > MAX_BLOCKS_PER_LAYOUT) throw new LayoutError(LIMIT_MESSAGES.blocks);
        if (!isRecord(b) || typeof b.id !== "string" || !BLOCK_ID.test(b.id))
          throw new LayoutError("Every block needs an id of letters, digits, - or _.");
        if (seen.has(b.id)) throw new LayoutError(`Two blocks have the id ${b.id}.`);
        seen.add(b.id);
        const def = typeof b.type === "string" ? blockTypeByName.get(b.type) : undefined;
        if (!def) throw new LayoutError(`Unknown block type ${String(b.type).slice(0, 40)}.`);
        const clean: Block = { id: b.id, type: def.type };
        for (const f of def.fields) {
          const v = fieldValue(
            b.id,
            opts.draft && f.required ? { ...f, required: false } : f,
            b[f.key],
            refs,
          );
          if (v !== undefined) clean[f.key] = v;
        }
        list.push(derived(clean));
      }
      columns.push({ span, blocks: list });
    }
    if (spans > 12) throw new LayoutError(`Row ${ri + 1} is wider than 12 columns.`);
    rows.push({ columns });
  }
  return { layout: { rows }, refs };
}

/** Block types the site's plan enables (SPEC §6), given its enabled features. */
export function blockTypesFor(enabled: ReadonlySet<number>) {
  return BLOCK_TYPES.map((b) => ({
    ...b,
    available: b.feature === undefined || enabled.has(b.feature),
  }));
}
