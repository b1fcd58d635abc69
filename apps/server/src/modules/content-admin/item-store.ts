/**
 * What every content item's editor shares when it writes: products (catalog/admin.ts) and the
 * items of blog, events, gallery and album pages (service.ts). The checks of the SPEC §9 limits
 * (items per collection, categories per collection, URL length), the URL slug, the images and the
 * text columns every item has.
 */
import { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH } from "@atelier/owner-api";
import { and, count, eq, inArray, ne } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { contentItems, media } from "../../db/schema.js";
import { ApiError, badRequest, conflict } from "../../http/errors.js";
import { nextOrdering } from "../../lib/ordering.js";
import { sanitizeRichText } from "../../lib/sanitize-html.js";
import { typedSlug } from "../../lib/slug.js";
import { LIMIT_MESSAGES, MAX_NESTED_CATEGORIES, urlWithinLimit } from "../pages/limits.js";
import { seoValues } from "../seo/fields.js";

/** A list of words (tags, categories) trimmed, without blanks and without repeats. */
export function cleanList(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map((s) => s.trim()).filter(Boolean))];
}

/** The field errors of categories and tags that are too long. */
export function taxonomyErrors(categories: string[], tags: string[]): Record<string, string> {
  const f: Record<string, string> = {};
  if (categories.some((c) => c.length > MAX_CATEGORY_LENGTH)) f.categories = LIMIT_MESSAGES.category;
  if (tags.some((t) => t.length > MAX_TAG_LENGTH)) f.tags = LIMIT_MESSAGES.tag;
  return f;
}

/** The text columns every item has, as the editor sends them: trimmed, sanitized, de-duplicated. */
export function textColumns(input: {
  title: string;
  body?: string;
  excerpt?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
  tags?: string[];
  categories?: string[];
  imageIds?: string[];
}) {
  return {
    title: input.title.trim(),
    body: sanitizeRichText(input.body ?? ""),
    excerpt: sanitizeRichText(input.excerpt ?? ""),
    ...seoValues(input),
    tags: cleanList(input.tags),
    categories: cleanList(input.categories),
    imageIds: input.imageIds ?? [],
  };
}

/** The text of an item as the editors answer it, with the item's address on the site. */
export function itemTextJson(item: typeof contentItems.$inferSelect, fullUrl: string) {
  return {
    title: item.title,
    urlId: item.urlId,
    fullUrl,
    status: item.status,
    body: item.body,
    excerpt: item.excerpt,
    seoTitle: item.seoTitle ?? "",
    seoDescription: item.seoDescription ?? "",
    seoHidden: item.seoHidden,
  };
}

/** Refuses a new item in a collection that already holds `limit.max` items. */
export async function checkRoomFor(
  tx: Tx,
  websiteId: string,
  collectionId: string,
  limit: { max: number; message: string },
) {
  const [{ n }] = (await tx
    .select({ n: count() })
    .from(contentItems)
    .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, collectionId)))) as [
    { n: number },
  ];
  if (Number(n) >= limit.max) throw conflict(limit.message);
}

/** The `ordering` of an item put after every other item of the collection. */
export function nextItemOrdering(tx: Tx, collectionId: string): Promise<number> {
  return nextOrdering(tx, contentItems.ordering, eq(contentItems.collectionId, collectionId));
}

/** The condition for the items of the collection other than `itemId`. */
function otherItemsOf(websiteId: string, collectionId: string, itemId: string) {
  return and(
    eq(contentItems.websiteId, websiteId),
    eq(contentItems.collectionId, collectionId),
    ne(contentItems.id, itemId),
  );
}

/** Refuses categories that would take the collection past its limit of distinct categories. */
export async function checkCategoryCount(
  tx: Tx,
  websiteId: string,
  collectionId: string,
  itemId: string,
  categories: string[],
) {
  if (!categories.length) return;
  const rows = await tx
    .select({ c: contentItems.categories })
    .from(contentItems)
    .where(otherItemsOf(websiteId, collectionId, itemId));
  const all = new Set(rows.flatMap((r) => r.c));
  for (const c of categories) all.add(c);
  if (all.size > MAX_NESTED_CATEGORIES)
    throw badRequest(LIMIT_MESSAGES.categories, { categories: LIMIT_MESSAGES.categories });
}

/** Refuses images that are not in the site's media library; the error names `field`. */
export async function checkImagesInSite(
  tx: Tx,
  websiteId: string,
  ids: (string | null | undefined)[],
  field: string,
) {
  const unique = [...new Set(ids.filter((x): x is string => typeof x === "string" && x.length > 0))];
  if (!unique.length) return;
  const rows = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.websiteId, websiteId), inArray(media.id, unique)));
  if (rows.length !== unique.length)
    throw badRequest("An image is not in this site's media library.", { [field]: "Unknown image" });
}

/** A URL slug the owner typed, lowercased (other scripts transliterated); refused unless it is lowercase letters, digits and single hyphens. */
export function slugOf(urlId: string): string {
  const s = typedSlug(urlId);
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s))
    throw badRequest("A URL slug can use only lowercase letters, digits and single hyphens.", {
      urlId: "Invalid",
    });
  return s;
}

/** Refuses an item URL over the SPEC §9 length. */
export function checkUrlLength(url: string) {
  if (!urlWithinLimit(url)) throw badRequest(LIMIT_MESSAGES.url, { urlId: LIMIT_MESSAGES.url });
}

/** The URL slugs of the collection's other items. */
export async function takenUrlIds(tx: Tx, websiteId: string, collectionId: string, itemId: string) {
  const rows = await tx
    .select({ urlId: contentItems.urlId })
    .from(contentItems)
    .where(otherItemsOf(websiteId, collectionId, itemId));
  return new Set(rows.map((r) => r.urlId));
}

/** `wanted`, or `wanted-2`, `wanted-3`… the first that is not taken. */
export function firstFreeUrlId(taken: Set<string>, wanted: string): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) if (!taken.has(`${wanted}-${n}`)) return `${wanted}-${n}`;
}

/** The 409 of a URL slug that another item of the collection has. */
export function urlTaken(message: string) {
  return new ApiError(409, "conflict", message, { urlId: "Taken" });
}
