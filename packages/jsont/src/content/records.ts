/**
 * Predicates over content items and collections: record types, promoted blocks, background
 * sources, folders and collections, images, locations, links, excerpts and slides.
 */
import type { Predicate, PredicateTable } from "../types.js";
import { asBoolean, asNumber, asString, isTruthy } from "../util/values.js";
import {
  BACKGROUND_SOURCES,
  COLLECTION_TYPE_PAGE,
  COLLECTION_TYPE_TEMPLATE_PAGE,
  FOLDER_BEHAVIOR_INDEX,
  FOLDER_BEHAVIOR_REDIRECT,
  PROMOTED_BLOCK_TYPES,
  RECORD_TYPES,
  SLICE_TYPES,
} from "./enums.js";
import { get, path, sizeOf } from "./node.js";
import { hasVisibleText } from "./text.js";

/** Record types whose predicate also accepts an item promoting a block of the same kind. */
const PROMOTABLE_RECORD_TYPES = ["video", "image", "quote", "link", "gallery"];

function recordType(node: unknown): number {
  return asNumber(get(node, "recordType"));
}

/** True when the node has a main image (`mainImageId` or `systemDataId`). */
function hasMainImage(node: unknown): boolean {
  return isTruthy(get(node, "mainImageId")) || isTruthy(get(node, "systemDataId"));
}

/**
 * `excerpt?`: the item's excerpt (plain or `excerpt.html`) has visible text, that is a
 * character outside the tags that is neither whitespace nor a zero-width space. Scans until
 * the first such character (no copy of the text is made).
 */
const excerptPredicate: Predicate = (_args, ctx) => {
  const excerpt = get(ctx.node(), "excerpt");
  const html = get(excerpt, "html");
  const text = typeof html === "string" ? html : typeof excerpt === "string" ? excerpt : "";
  return hasVisibleText(text);
};

/** `collection-template-page?`: the collection (or the node itself) is a template page. */
const collectionTemplatePagePredicate: Predicate = (_args, ctx) => {
  const node = ctx.node();
  const collection = get(node, "collection");
  const type = get(collection === undefined ? node : collection, "type");
  return type !== undefined && asNumber(type) === COLLECTION_TYPE_TEMPLATE_PAGE;
};

/** `current-type? <slice>`: the slide's `currentType` is the named slice type. */
const currentTypePredicate: Predicate = (args, ctx) => {
  if (args.length === 0 || !Object.hasOwn(SLICE_TYPES, args[0])) return false;
  return SLICE_TYPES[args[0]] === (asNumber(get(ctx.node(), "currentType")) | 0);
};

/** The record, collection and item predicates, keyed with their trailing "?". */
export function recordPredicates(): PredicateTable {
  const table: PredicateTable = {
    "calendar-view?": (_args, ctx) => asBoolean(ctx.resolve("calendarView")),
    "child-images?": (_args, ctx) => {
      const items = get(ctx.node(), "items");
      return Array.isArray(items) && items.length > 0 && hasMainImage(items[0]);
    },
    "clickable?": (_args, ctx) => {
      const behavior = ctx.resolve("folderBehavior");
      if (behavior === undefined) return true;
      const code = asNumber(behavior);
      return code === FOLDER_BEHAVIOR_INDEX || code === FOLDER_BEHAVIOR_REDIRECT;
    },
    "collection?": (_args, ctx) => isTruthy(get(ctx.node(), "collection")),
    "collection-page?": (_args, ctx) => {
      const type = path(ctx.node(), ["collection", "type"]);
      return type !== undefined && asNumber(type) === COLLECTION_TYPE_PAGE;
    },
    "collection-template-page?": collectionTemplatePagePredicate,
    "collectionTypeNameEquals?": (args, ctx) =>
      args.length > 0 && asString(ctx.resolve("typeName")) === args[0],
    "current-type?": currentTypePredicate,
    "excerpt?": excerptPredicate,
    "external-link?": (_args, ctx) => isTruthy(get(ctx.node(), "externalLink")),
    "folder?": (_args, ctx) => isTruthy(path(ctx.node(), ["collection", "folder"])),
    "has-multiple?": (_args, ctx) => sizeOf(ctx.node()) > 1,
    "location?": (_args, ctx) => {
      const location = get(ctx.node(), "location");
      return get(location, "mapLat") !== undefined && get(location, "mapLng") !== undefined;
    },
    "main-image?": (_args, ctx) => hasMainImage(ctx.node()),
    "passthrough?": (_args, ctx) => {
      const node = ctx.node();
      return isTruthy(get(node, "passthrough")) && asString(get(node, "sourceUrl")) !== "";
    },
    "redirect?": (_args, ctx) => asNumber(get(ctx.node(), "folderBehavior")) === FOLDER_BEHAVIOR_REDIRECT,
    "serviceNameEmail?": (_args, ctx) => asString(get(ctx.node(), "serviceName")) === "email",
    "show-past-events?": (_args, ctx) => asString(get(ctx.node(), "showPastOrUpcomingEvents")) === "past",
  };

  for (const [name, code] of Object.entries(RECORD_TYPES)) {
    if (PROMOTABLE_RECORD_TYPES.includes(name)) {
      const promoted: Predicate = (_args, ctx) => {
        const node = ctx.node();
        return recordType(node) === code || asString(get(node, "promotedBlockType")) === name;
      };
      table[`${name}?`] = promoted;
      if (name === "video") table["external-video?"] = promoted;
    } else {
      table[`${name}?`] = (_args, ctx) => recordType(ctx.node()) === code;
    }
  }
  for (const type of PROMOTED_BLOCK_TYPES) {
    table[`promoted${type.toUpperCase()}?`] = (_args, ctx) =>
      asString(get(ctx.node(), "promotedBlockType")) === type;
  }
  for (const [name, code] of Object.entries(BACKGROUND_SOURCES)) {
    table[`background-source-${name}?`] = (_args, ctx) =>
      asNumber(get(ctx.node(), "backgroundSource")) === code;
  }
  return table;
}
