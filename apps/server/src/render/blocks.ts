/**
 * Page layouts: rows of columns of blocks (at most 60 blocks a layout, SPEC §9), each block
 * completed with the data it shows: images, forms, products, gallery images, collection
 * summaries; code, embed and oEmbed HTML sanitised; feature-gated blocks left out where the
 * site's features do not enable them (SPEC §6).
 */
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { RecordType } from "../db/enums.js";
import { contentItems, forms } from "../db/schema.js";
import { type Collection, type Media, mediaByIds } from "../modules/content/service.js";
import { galleryOptions } from "./gallery.js";
import { TEXT_BLOCK_PLACEHOLDER, blockTypeByName } from "../modules/pages/block-types.js";
import { mediaLink, parseMenuText } from "../modules/pages/blocks.js";
import { blockAllowed } from "./features.js";
import { htmlToText, richTextForPage, sanitizeHtml } from "./sanitize.js";
import { collectionJson, imageJson } from "./serialize.js";

/** Blocks a layout may hold (SPEC §9). */
const MAX_BLOCKS_PER_LAYOUT = 60;

type Block = { id: string; type: string; [k: string]: unknown };
type Column = { span?: number; blocks: Block[] };
type Row = { columns: Column[]; rowClass?: string };
type Layout = { rows: Row[] };

/** The layout as stored, defensively read: unknown shapes become empty rows. */
export function readLayout(raw: unknown): Layout {
  const rows = Array.isArray((raw as Layout | undefined)?.rows) ? (raw as Layout).rows : [];
  let budget = MAX_BLOCKS_PER_LAYOUT;
  const out: Row[] = [];
  for (const r of rows) {
    const columns = Array.isArray(r?.columns) ? r.columns : [];
    const cols: Column[] = [];
    for (const c of columns) {
      const blocks = (Array.isArray(c?.blocks) ? c.blocks : []).filter(
        (b): b is Block => Boolean(b) && typeof b === "object" && typeof (b as Block).type === "string",
      );
      const kept = blocks.slice(0, Math.max(0, budget));
      budget -= kept.length;
      if (kept.length) cols.push({ span: clampSpan(c.span, columns.length), blocks: kept });
    }
    if (cols.length) out.push({ columns: cols });
  }
  return { rows: out };
}

function clampSpan(span: unknown, count: number): number {
  const n = Number(span);
  if (Number.isInteger(n) && n >= 1 && n <= 12) return n;
  return Math.max(1, Math.floor(12 / Math.max(1, count)));
}

interface BlockDeps {
  /** Safe mode (the disable-user-scripts cookie): code and embed blocks are left out. */
  safeMode?: boolean;
  /**
   * The dashboard's editing frame (the expanded-frame cookie): a block that would show nothing
   * (no image chosen yet, no product, left out in safe mode) shows a placeholder the editor can
   * draw its overlay on, so the owner can select, edit or delete it.
   */
  editingFrame?: boolean;
  db: Db;
  websiteId: string;
  collections: Collection[];
  features: Set<number>;
  /** Items of a collection as the theme shows them (resolved by the page context). */
  summaryItems(collection: Collection, limit: number): Promise<unknown[]>;
  /** Products by id, as page items. */
  productItems(ids: string[]): Promise<Map<string, unknown>>;
}

const str = (v: unknown, max = 2000) => (typeof v === "string" ? v.slice(0, max) : "");

/** The heading, text and button label of a call-to-action block (donation, member area), with its defaults. */
function callToAction(b: Block, title: string, label: string) {
  return {
    title: str(b.title, 300) || title,
    description: str(b.description, 2000),
    label: str(b.label, 100) || label,
  };
}

/** Form definitions as islands and fallbacks read them (never the notification address). */
function formJson(form: typeof forms.$inferSelect) {
  return {
    id: form.id,
    name: form.name,
    fields: form.fields,
    submissionMessage: richTextForPage(form.submissionMessage),
    parsedSubmissionMessage: richTextForPage(form.submissionMessage),
    submissionHTML: richTextForPage(form.submissionHtml),
    successRedirect: form.successRedirect ?? undefined,
    parsedDisclaimerMessage: form.disclaimerMessage ? richTextForPage(form.disclaimerMessage) : undefined,
    captchaEnabled: form.captchaEnabled,
    captchaTheme: form.captchaTheme,
    captchaAlignment: form.captchaAlignment,
  };
}

/** Field types the server-rendered form fallback knows how to draw. */
function fallbackField(f: Record<string, unknown>) {
  const type = str(f.type, 40) || "text";
  const options = Array.isArray(f.options) ? f.options.map((o) => String(o)) : [];
  return {
    ...f,
    id: str(f.id, 120),
    title: str(f.title, 300),
    description: str(f.description, 1000),
    required: Boolean(f.required),
    isTextarea: type === "textarea",
    isSelect: type === "select",
    isChoice: type === "radio" || type === "checkbox",
    isSection: type === "section",
    isHidden: type === "hidden",
    isName: type === "name",
    isAddress: type === "address",
    isLikert: type === "likert",
    inputType:
      {
        email: "email",
        number: "number",
        currency: "number",
        website: "url",
        phone: "tel",
        password: "password",
        date: "date",
        time: "time",
      }[type] ?? "text",
    choiceType: type === "checkbox" ? "checkbox" : "radio",
    choices: options,
    questions: Array.isArray(f.questions) ? f.questions.map((q) => String(q)) : [],
  };
}

/** Resolves every block of a layout with the data it shows. */
export async function resolveLayout(deps: BlockDeps, raw: unknown): Promise<Layout> {
  const layout = readLayout(raw);
  const blocks = layout.rows.flatMap((r) => r.columns.flatMap((c) => c.blocks));
  const imageIds: string[] = [];
  const formIds: string[] = [];
  const productIds: string[] = [];
  for (const b of blocks) {
    if (typeof b.imageId === "string") imageIds.push(b.imageId);
    if (typeof b.backgroundImageId === "string") imageIds.push(b.backgroundImageId);
    if (Array.isArray(b.imageIds)) for (const id of b.imageIds) if (typeof id === "string") imageIds.push(id);
    if (typeof b.formId === "string") formIds.push(b.formId);
    if (b.type === "product" && typeof b.productId === "string") productIds.push(b.productId);
  }
  const galleryCollections = blocks
    .filter((b) => b.type === "gallery" && typeof b.collectionId === "string")
    .map((b) => b.collectionId as string);
  const galleryItems = galleryCollections.length
    ? await deps.db
        .select({
          collectionId: contentItems.collectionId,
          mainImageId: contentItems.mainImageId,
          title: contentItems.title,
          body: contentItems.body,
        })
        .from(contentItems)
        .where(
          and(
            eq(contentItems.websiteId, deps.websiteId),
            inArray(contentItems.collectionId, galleryCollections),
            eq(contentItems.recordType, RecordType.IMAGE),
            eq(contentItems.status, "published"),
          ),
        )
        .orderBy(contentItems.ordering)
    : [];
  for (const g of galleryItems) if (g.mainImageId) imageIds.push(g.mainImageId);
  const [images, formRows, products] = await Promise.all([
    mediaByIds(deps.db, deps.websiteId, imageIds),
    formIds.length
      ? deps.db
          .select()
          .from(forms)
          .where(and(eq(forms.websiteId, deps.websiteId), inArray(forms.id, [...new Set(formIds)])))
      : Promise.resolve([]),
    productIds.length ? deps.productItems(productIds) : Promise.resolve(new Map<string, unknown>()),
  ]);
  const formById = new Map(formRows.map((f) => [f.id, f]));
  const out: Layout = { rows: [] };
  let counter = 0;
  for (const r of layout.rows) {
    const columns: Column[] = [];
    for (const c of r.columns) {
      const resolved: Block[] = [];
      for (const b of c.blocks) {
        counter++;
        const block = await resolveBlock(deps, b, counter, { images, formById, products, galleryItems });
        if (block) resolved.push(block);
        else if (deps.editingFrame) {
          const placeholder = placeholderBlock(deps, b);
          if (placeholder) resolved.push(placeholder);
        }
      }
      if (resolved.length) columns.push({ span: c.span, blocks: resolved });
    }
    if (columns.length) out.rows.push({ columns, rowClass: rowClass(columns, out.rows.length === 0) } as Row);
  }
  return out;
}

interface Loaded {
  images: Map<string, Media>;
  formById: Map<string, typeof forms.$inferSelect>;
  products: Map<string, unknown>;
  galleryItems: { collectionId: string; mainImageId: string | null; title: string; body: string }[];
}

/** The placeholder of a block that shows nothing, in the editing frame only. */
function placeholderBlock(deps: BlockDeps, b: Block): Block | undefined {
  const def = blockTypeByName.get(b.type);
  if (!def) return undefined;
  const id = str(b.id, 100).replace(/[^\w-]/g, "");
  if (!id) return undefined;
  const userCode = b.type === "code" || b.type === "embed";
  const placeholderText =
    b.type === "text" && blockAllowed(b.type, deps.features)
      ? TEXT_BLOCK_PLACEHOLDER
      : deps.safeMode && userCode
        ? `${def.label} block: not run in safe mode.`
        : !blockAllowed(b.type, deps.features)
          ? `${def.label} block: needs a plan with the ${def.featureName ?? def.label}.`
          : (whatToAdd(deps, b) ?? `${def.label} block: choose its settings in the side panel.`);
  return { id, type: b.type, isPlaceholderBlock: true, placeholderText };
}

/** What the owner should add for a block that has nothing to show, in the editing frame's words. */
function whatToAdd(deps: BlockDeps, b: Block): string | undefined {
  switch (b.type) {
    case "summary": {
      const target = deps.collections.find((c) => c.id === b.collectionId);
      if (!target) return "Summary block: choose the page whose items it shows.";
      const what = target.kind === "products" ? "products" : target.kind === "events" ? "events" : "items";
      return `Summary block: “${target.title}” has no ${what} yet. Add ${what} to it and they show here; visitors see nothing until then.`;
    }
    case "gallery":
      return "Gallery block: add images in the side panel; visitors see nothing until then.";
    case "product":
      return b.productId
        ? "Product block: the product it showed was deleted. Choose another product in the side panel."
        : "Product block: choose a product in the side panel.";
    case "image":
      return "Image block: choose an image in the side panel.";
    default:
      return undefined;
  }
}

async function resolveBlock(
  deps: BlockDeps,
  b: Block,
  index: number,
  loaded: Loaded,
): Promise<Block | undefined> {
  if (!blockTypeByName.has(b.type)) return undefined;
  if (!blockAllowed(b.type, deps.features)) return undefined;
  if (deps.safeMode && (b.type === "code" || b.type === "embed")) return undefined;
  const id = str(b.id, 100).replace(/[^\w-]/g, "") || `block-${index}`;
  const base: Block = { id, type: b.type };
  const flagKey = `is${b.type.replace(/(^|-)(\w)/g, (_m, _d, ch: string) => ch.toUpperCase())}Block`;
  base[flagKey] = true;
  switch (b.type) {
    case "text": {
      const html = sanitizeHtml(str(b.html, 100_000), { allowIframes: false });
      return html.trim() ? { ...base, html } : undefined;
    }
    case "image": {
      const image = imageJson(loaded.images.get(str(b.imageId)));
      if (!image) return undefined;
      return {
        ...base,
        image,
        alt: str(b.alt, 500) || image.title,
        caption: str(b.caption, 1000),
        href: safeHref(b.href),
      };
    }
    case "button":
      return {
        ...base,
        label: str(b.label, 200) || "Learn more",
        href: safeHref(b.href) ?? "#",
        style: b.style === "secondary" ? "secondary" : "primary",
        align: ["left", "center", "right"].includes(String(b.align)) ? b.align : "left",
      };
    case "gallery": {
      const fromCollection =
        typeof b.collectionId === "string"
          ? loaded.galleryItems
              .filter((g) => g.collectionId === b.collectionId && g.mainImageId)
              .map((g) => ({
                image: imageJson(loaded.images.get(g.mainImageId!)),
                title: g.title,
                body: htmlToText(g.body),
              }))
          : [];
      const fromIds = Array.isArray(b.imageIds)
        ? b.imageIds.map((id) => {
            const image = imageJson(loaded.images.get(String(id)));
            return { image, title: image?.title ?? "", body: "" };
          })
        : [];
      const slides = [...fromIds, ...fromCollection].filter((s) => s.image);
      if (!slides.length) return undefined;
      return {
        ...base,
        title: str(b.title, 300),
        gallery: { id: base.id, options: galleryOptions(b.options as Record<string, unknown>), slides },
      };
    }
    case "product": {
      const item = loaded.products.get(str(b.productId));
      if (!item) return undefined;
      return { ...base, item, showVariantImages: b.showVariantImages !== false };
    }
    case "form":
    case "newsletter": {
      const form = loaded.formById.get(str(b.formId));
      if (!form) return undefined;
      return {
        ...base,
        title: str(b.title, 300) || (b.type === "form" ? "" : form.name),
        description: str(b.description, 2000),
        form: formJson(form),
        fields: (form.fields ?? []).map(fallbackField),
        submitLabel: str(b.submitLabel, 100) || (b.type === "newsletter" ? "Sign up" : "Submit"),
      };
    }
    case "map": {
      const loc = (b.location ?? {}) as Record<string, unknown>;
      const lat = Number(loc.mapLat);
      const lng = Number(loc.mapLng);
      const hasPoint = Number.isFinite(lat) && Number.isFinite(lng);
      const query = [loc.addressLine1, loc.addressLine2, loc.addressCountry].filter(Boolean).join(", ");
      return {
        ...base,
        location: {
          addressTitle: str(loc.addressTitle, 300),
          addressLine1: str(loc.addressLine1, 300),
          addressLine2: str(loc.addressLine2, 300),
          addressCountry: str(loc.addressCountry, 100),
          mapLat: hasPoint ? lat : undefined,
          mapLng: hasPoint ? lng : undefined,
        },
        mapUrl: mapLink(hasPoint ? { lat, lng } : undefined, query),
      };
    }
    case "code":
      return b.displaySource
        ? { ...base, source: str(b.html, 50_000), displaySource: true }
        : { ...base, html: sanitizeHtml(str(b.html, 50_000), { allowIframes: false }) };
    case "embed":
      return {
        ...base,
        html: sanitizeHtml(str(b.html, 50_000), { allowIframes: true }),
        caption: str(b.caption, 1000),
      };
    case "quote":
      return { ...base, text: str(b.text, 5000), source: str(b.source, 300) };
    case "video":
    case "audio": {
      const url = safeHref(b.url);
      const oembed = (b.oembed ?? (url ? embedFor(url) : undefined) ?? {}) as Record<string, unknown>;
      const html = sanitizeHtml(str(oembed.html, 20_000), { allowIframes: true });
      const direct = url && /\.(mp4|webm|ogg|mp3|m4a|wav|aac|oga)(\?|$)/i.test(url) ? url : undefined;
      if (!html && !direct) return undefined;
      return {
        ...base,
        url,
        title: str(b.title, 300) || str(oembed.title, 300),
        caption: str(b.caption, 1000),
        oembed: html ? { html, providerName: str(oembed.providerName, 100) } : undefined,
        src: html ? undefined : direct,
        artist: str(b.artist, 300),
      };
    }
    case "summary": {
      const target = deps.collections.find((c) => c.id === b.collectionId);
      if (!target) return undefined;
      const limit = Math.min(30, Math.max(1, Number(b.limit) || 3));
      const items = await deps.summaryItems(target, limit);
      // Nothing to show: left out, so no empty band (the editing frame shows what to add).
      if (!items.length) return undefined;
      return {
        ...base,
        title: str(b.title, 300),
        design: ["grid", "list", "carousel"].includes(String(b.design)) ? b.design : "grid",
        collection: collectionJson(target),
        items,
        isProducts: target.kind === "products",
        isEvents: target.kind === "events",
      };
    }
    case "spacer":
      return { ...base, height: Math.min(400, Math.max(8, Number(b.height) || 48)) };
    case "line":
      return base;
    case "amazon":
      return {
        ...base,
        asin: str(b.asin, 20).replace(/[^A-Z0-9]/gi, ""),
        title: str(b.title, 300),
        description: str(b.description, 1000),
        url: `https://www.amazon.com/dp/${encodeURIComponent(str(b.asin, 20).replace(/[^A-Z0-9]/gi, ""))}`,
        image: imageJson(loaded.images.get(str(b.imageId))),
      };
    case "donation":
      return { ...base, ...callToAction(b, "Support our work", "Donate"), href: "/donate" };
    case "menu": {
      const menus = Array.isArray(b.menus)
        ? b.menus
        : typeof b.menuText === "string"
          ? parseMenuText(b.menuText)
          : [];
      return {
        ...base,
        title: str(b.title, 300),
        menus: menus.slice(0, 10).map((m: Record<string, unknown>) => ({
          title: str(m?.title, 200),
          sections: (Array.isArray(m?.sections) ? m.sections : [])
            .slice(0, 30)
            .map((s: Record<string, unknown>) => ({
              title: str(s?.title, 200),
              items: (Array.isArray(s?.items) ? s.items : [])
                .slice(0, 100)
                .map((i: Record<string, unknown>) => ({
                  name: str(i?.name, 200),
                  description: str(i?.description, 1000),
                  price: str(i?.price, 40),
                })),
            })),
        })),
      };
    }
    case "opentable": {
      const rid = str(b.restaurantId, 20).replace(/\D/g, "");
      return {
        ...base,
        name: str(b.name, 200) || "Reserve a table",
        restaurantId: rid,
        url: `https://www.opentable.com/restref/client/?rid=${rid}`,
      };
    }
    case "member-area":
      return {
        ...base,
        ...callToAction(b, "Members only", "Join now"),
        href: safeHref(b.href) ?? "/account",
      };
    default:
      return undefined;
  }
}

export { parseMenuText };

/** A class for a row by what it holds: a leading full-width image is a hero, a lone sign-up is a band. */
function rowClass(columns: Column[], first: boolean): string {
  const blocks = columns.flatMap((c) => c.blocks);
  const classes = [`row-cols-${columns.length}`];
  if (first && columns.length === 1 && blocks.length === 1 && blocks[0]!.type === "image")
    classes.push("row-hero");
  if (blocks.every((b) => b.type === "newsletter")) classes.push("row-band");
  if (blocks.every((b) => b.type === "summary")) classes.push("row-summary");
  if (blocks.every((b) => b.type === "text" || b.type === "button") && columns.length === 1)
    classes.push("row-intro");
  return classes.join(" ");
}

/** The embeddable player of a YouTube or Vimeo link, or a SoundCloud widget. */
export function embedFor(url: string): { html: string; providerName: string } | undefined {
  const link = mediaLink(url);
  if (!link) return undefined;
  const { u, host } = link;
  const frame = (src: string, title: string) =>
    `<iframe src="${src}" title="${title}" width="560" height="315" allow="autoplay; encrypted-media; fullscreen; picture-in-picture" allowfullscreen loading="lazy"></iframe>`;
  let id: string | undefined;
  if (host === "youtube.com" || host === "youtube-nocookie.com") {
    id =
      u.searchParams.get("v") ?? /^\/(?:embed|shorts|live)\/([\w-]{6,20})/.exec(u.pathname)?.[1] ?? undefined;
  } else if (host === "youtu.be") {
    id = /^\/([\w-]{6,20})/.exec(u.pathname)?.[1];
  }
  if (id && /^[\w-]{6,20}$/.test(id)) {
    return {
      html: frame(`https://www.youtube-nocookie.com/embed/${id}`, "YouTube video"),
      providerName: "YouTube",
    };
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const vid = /(\d{5,12})/.exec(u.pathname)?.[1];
    if (vid)
      return { html: frame(`https://player.vimeo.com/video/${vid}`, "Vimeo video"), providerName: "Vimeo" };
  }
  if (host === "soundcloud.com") {
    const src = `https://w.soundcloud.com/player/?url=${encodeURIComponent(u.toString())}&visual=false`;
    return {
      html: `<iframe src="${src}" title="SoundCloud" width="100%" height="166" allow="autoplay" loading="lazy"></iframe>`,
      providerName: "SoundCloud",
    };
  }
  return undefined;
}

function safeHref(v: unknown): string | undefined {
  if (typeof v !== "string" || !v.trim()) return undefined;
  const href = v.trim().slice(0, 2000);
  if (/^(https?:|mailto:|tel:|\/|#)/i.test(href) && !href.startsWith("//")) return href;
  return undefined;
}

/** A link that opens the place in a map service: coordinates when known, else the address. */
export function mapLink(point: { lat: number; lng: number } | undefined, address: string): string {
  if (point)
    return `https://www.openstreetmap.org/?mlat=${point.lat}&mlon=${point.lng}#map=16/${point.lat}/${point.lng}`;
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;
}
