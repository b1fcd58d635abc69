/**
 * Formatters for content items and pages: the CSS classes of a blog or store item, absolute
 * URLs and the audio player of a podcast episode.
 */
import { isOnSale, isSoldOut } from "@atelier/commerce";
import { Ctx, type Frame } from "../context.js";
import type { Formatter, RenderContext } from "../types.js";
import { asNumber, asString, isTruthy, JsonNumber, toDisplayString } from "../util/values.js";
import { RECORD_TYPE_STORE_ITEM } from "./enums.js";
import { get, lookup } from "./node.js";
import { quoteSafe, slugify } from "./text.js";

/** Resolves a single name; the engine's own context looks it up directly (no path to split). */
function findName(ctx: RenderContext, name: string): unknown {
  return ctx instanceof Ctx ? ctx.lookup(name) : ctx.resolve(name);
}

function slugClasses(prefix: string, list: unknown): string {
  if (!Array.isArray(list)) return "";
  let out = "";
  for (const entry of list) out += ` ${prefix}-${slugify(asString(entry))}`;
  return out;
}

/** A member as a lookup sees it: functions (inherited methods) do not count. */
const member = (v: unknown): unknown => (typeof v === "function" ? undefined : v);

/** The names item-classes reads from the context. */
interface ItemContext {
  promotedBlockType: unknown;
  categories: unknown;
  tags: unknown;
  author: unknown;
  recordTypeLabel: unknown;
  starred: unknown;
}

/**
 * Looks up every name item-classes needs in one walk up the frames: each name takes the
 * first frame that has it, as six separate lookups would.
 */
function itemContext(ctx: RenderContext): ItemContext {
  if (!(ctx instanceof Ctx)) {
    return {
      promotedBlockType: ctx.resolve("promotedBlockType"),
      categories: ctx.resolve("categories"),
      tags: ctx.resolve("tags"),
      author: ctx.resolve("author"),
      recordTypeLabel: ctx.resolve("recordTypeLabel"),
      starred: ctx.resolve("starred"),
    };
  }
  let promotedBlockType: unknown;
  let categories: unknown;
  let tags: unknown;
  let author: unknown;
  let recordTypeLabel: unknown;
  let starred: unknown;
  let searched: unknown;
  for (let f: Frame | null = ctx.frame; f !== null; f = f.parent) {
    const n = f.node;
    if (
      n !== searched &&
      typeof n === "object" &&
      n !== null &&
      !Array.isArray(n) &&
      !(n instanceof JsonNumber)
    ) {
      const o = n as Record<string, unknown>;
      if (promotedBlockType === undefined) promotedBlockType = member(o.promotedBlockType);
      if (categories === undefined) categories = member(o.categories);
      if (tags === undefined) tags = member(o.tags);
      if (author === undefined) author = member(o.author);
      if (recordTypeLabel === undefined) recordTypeLabel = member(o.recordTypeLabel);
      if (starred === undefined) starred = member(o.starred);
    }
    searched = n;
    if (f.stop) break;
  }
  return { promotedBlockType, categories, tags, author, recordTypeLabel, starred };
}

/**
 * `{item|item-classes}`: the classes of an item's element: "hentry", its promoted block
 * type, categories, tags, author, post type, position in the list, whether it is featured,
 * and for store items whether they are on sale or sold out. Everything but the store status
 * is read from the current context, so it is used inside the item's own section.
 */
export const itemClassesFormatter: Formatter = (_args, vars, ctx) => {
  const item = vars[0].value;
  const c = itemContext(ctx);
  let out = "hentry";
  const promoted = c.promotedBlockType;
  if (isTruthy(promoted)) out += ` promoted promoted-block-${slugify(asString(promoted))}`;
  if (isTruthy(c.categories)) out += slugClasses("category", c.categories);
  if (isTruthy(c.tags)) out += slugClasses("tag", c.tags);
  const author = c.author;
  const displayName = get(author, "displayName");
  if (isTruthy(author) && isTruthy(displayName)) out += ` author-${slugify(asString(displayName))}`;
  out += ` post-type-${asString(c.recordTypeLabel)}`;
  const index = findName(ctx, "@index");
  if (index !== undefined) out += ` article-index-${asNumber(index)}`;
  if (isTruthy(c.starred)) out += " featured";
  if (asNumber(get(item, "recordType")) === RECORD_TYPE_STORE_ITEM) {
    if (isOnSale(item)) out += " on-sale";
    if (isSoldOut(item)) out += " sold-out";
  }
  vars[0].value = out;
};

/** `{path|AbsUrl}`: the path made absolute against the context's `base-url`. */
export const absUrlFormatter: Formatter = (_args, vars, ctx) => {
  vars[0].value = `${asString(ctx.resolve("base-url"))}/${asString(vars[0].value)}`;
};

/** `{item|audio-player}`: the audio player placeholder of an item with an audio file. */
export const audioPlayerFormatter: Formatter = (_args, vars, ctx) => {
  const item = vars[0].value;
  const audioUrl = quoteSafe(toDisplayString(lookup(item, "structuredContent.audioAssetUrl", ctx, true)));
  const id = quoteSafe(toDisplayString(lookup(item, "id", ctx, true)));
  vars[0].value =
    "<script>Y.use('squarespace-audio-player-frontend');</script>\n" +
    `<div class="squarespace-audio-player" data-audio-asset-url="${audioUrl}" data-item-id="${id}" id="audio-player-${id}"></div>`;
};
