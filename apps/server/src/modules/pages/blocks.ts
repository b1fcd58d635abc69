/**
 * Page layouts as the editor sends them: rows of columns of blocks, checked against the block
 * types (block-types.ts) and answered as a clean copy with the ids they refer to; and the values
 * a published page reads that follow from what the owner typed (video and audio players, menus).
 */
import { isRecord } from "@atelier/commerce";
import type { Block, Column, Layout, Row } from "@atelier/forms";
import { type FieldDef, GALLERY_OPTION_FIELDS, blockTypeByName } from "./block-types.js";
import { LIMIT_MESSAGES, MAX_BLOCKS_PER_LAYOUT, urlWithinLimit } from "./limits.js";
import { sanitizeRichText } from "./rich-text.js";
import { escapeHtml } from "../../lib/escape.js";
import { isId } from "../../lib/ids.js";

function emptyRefs(): LayoutRefs {
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

export type { Block, Layout, Row } from "@atelier/forms";

const BLOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;

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

/** A link owners type: a site path, an anchor, or an http(s), mailto or tel URL. */
function isSafeLink(v: string): boolean {
  if (v.startsWith("/") && !v.startsWith("//")) return true;
  if (v.startsWith("#")) return true;
  return /^(https?:\/\/[^\s]+|mailto:[^\s]+|tel:[+\d\s()-]+)$/i.test(v);
}

function fieldValue(block: string, f: FieldDef, value: unknown, refs: LayoutRefs): unknown {
  const where = `${block}.${f.key}`;
  const bad = (message: string) => new LayoutError(`${f.label}: ${message}`, where);
  if (value === undefined || value === null || value === "") {
    if (f.required) throw bad("this field is required.");
    return undefined;
  }
  switch (f.type) {
    case "text":
    case "textarea":
    case "code":
    case "richtext": {
      if (typeof value !== "string") throw bad("must be text.");
      if (f.maxLength && value.length > f.maxLength) throw bad(`at most ${f.maxLength} characters.`);
      return f.type === "richtext" ? sanitizeRichText(value) : value;
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
      if (!isId(value)) throw bad("choose an image.");
      refs.media.add(value);
      return value;
    case "images": {
      if (!Array.isArray(value) || value.length > 250) throw bad("choose at most 250 images.");
      for (const id of value) {
        if (!isId(id)) throw bad("choose images from the library.");
        refs.media.add(id);
      }
      return value;
    }
    case "form":
    case "collection":
    case "product":
      if (!isId(value)) throw bad(`choose a ${f.type}.`);
      refs[`${f.type}s`].add(value);
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

/** A media link parsed, with its host bare of "www." and "m."; undefined when it is not a URL. */
export function mediaLink(url: string): { u: URL; host: string } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  return { u, host: u.hostname.replace(/^www\./, "").replace(/^m\./, "") };
}

/** The player of a video or audio link, made from the URL alone (no request to the provider). */
function oembedFor(url: string, kind: "video" | "audio"): { html: string; providerName: string } | undefined {
  const link = mediaLink(url);
  if (!link) return undefined;
  const { u, host } = link;
  const frame = (src: string, title: string, ratio = true) =>
    `<iframe src="${escapeHtml(src)}" title="${escapeHtml(title)}" ${ratio ? 'width="640" height="360"' : 'width="100%" height="166"'} frameborder="0" allow="autoplay; encrypted-media; picture-in-picture; fullscreen" allowfullscreen loading="lazy"></iframe>`;
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

/**
 * The menu block's text: a line starting with # starts a section, every other line is a dish,
 * "name | price | description".
 */
export function parseMenuText(
  text: string,
): { title: string; sections: { title: string; items: Record<string, string>[] }[] }[] {
  const sections: { title: string; items: Record<string, string>[] }[] = [];
  for (const raw of text.slice(0, 20_000).split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      sections.push({ title: line.replace(/^#+\s*/, ""), items: [] });
      continue;
    }
    if (!sections.length) sections.push({ title: "", items: [] });
    const [name = "", price = "", ...rest] = line.split("|").map((p) => p.trim());
    sections.at(-1)!.items.push({ name, price, description: rest.join(" | ") });
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
  const refs = emptyRefs();
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
