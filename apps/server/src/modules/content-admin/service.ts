/**
 * The items of blog, events, gallery and album pages for owners: blog posts, events, gallery
 * images and album tracks (title, body, excerpt, dates, location, images, categories, tags),
 * with the SPEC §9 limits (250 items in a hand-ordered collection, 60 tracks per album, 10000
 * categories per collection, URLs under 2083 characters).
 */
import { moveToTrash } from "../history/trash.js";
import { recordVersion } from "../history/service.js";
import { seoFieldErrors } from "../seo/fields.js";
import { recordMove } from "../redirects/service.js";
import { itemUrl } from "../../render/serialize.js";
import { and, asc, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { type ItemLocation, collections, contentItems, media } from "../../db/schema.js";
import { badRequest, notFound, throwFieldErrors } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { deleteSiteRow, siteRowWhere } from "../../lib/site-rows.js";
import { mediaUrl } from "../media/storage.js";
import { LIMIT_MESSAGES, itemLimitOf, urlWithinLimit } from "../pages/limits.js";
import { slugify } from "../pages/service.js";
import { likePattern, selectOffsetPage, pageInfo, pageWindow } from "../../lib/paging.js";
import {
  checkCategoryCount,
  checkImagesInSite,
  checkRoomFor,
  checkUrlLength,
  cleanList,
  firstFreeUrlId,
  itemTextJson,
  nextItemOrdering,
  slugOf,
  takenUrlIds,
  taxonomyErrors,
  textColumns,
  urlTaken,
} from "./item-store.js";

/** The record type of the items each kind of collection holds. */
const RECORD_TYPE_OF: Record<string, number> = {
  blog: RecordType.TEXT,
  events: RecordType.EVENT,
  gallery: RecordType.IMAGE,
  album: RecordType.AUDIO,
};
/** Collections ordered by hand (the others by date). */
const HAND_ORDERED = new Set(["gallery", "album"]);

const ITEM_NOT_FOUND = "No such item.";

export interface ItemInput {
  title: string;
  urlId?: string;
  body?: string;
  excerpt?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
  authorName?: string | null;
  status?: "published" | "draft";
  publishOn?: number | null;
  startDate?: number | null;
  endDate?: number | null;
  location?: ItemLocation | null;
  mainImageId?: string | null;
  imageIds?: string[];
  categories?: string[];
  tags?: string[];
  commentsOn?: boolean;
  audioUrl?: string;
}

type Item = typeof contentItems.$inferSelect;
type Collection = typeof collections.$inferSelect;

async function collectionOf(db: Db | Tx, websiteId: string, collectionId: string): Promise<Collection> {
  const [c] = await db
    .select()
    .from(collections)
    .where(siteRowWhere(collections, websiteId, collectionId));
  if (!c) throw notFound("No such page.");
  if (!(c.kind in RECORD_TYPE_OF)) {
    throw badRequest(
      c.kind === "products"
        ? "Products are edited in the product editor."
        : "This page has no items: it is built from blocks.",
    );
  }
  return c;
}

function itemJson(c: Collection, i: Item, imageFiles: Map<string, string>) {
  const sc = (i.structuredContent ?? {}) as Record<string, unknown>;
  const file = i.mainImageId ? imageFiles.get(i.mainImageId) : undefined;
  return {
    id: i.id,
    collectionId: i.collectionId,
    ...itemTextJson(i, `/${c.urlSlug}/${i.urlId}`),
    authorName: i.authorName,
    publishOn: i.publishOn?.getTime() ?? null,
    startDate: i.startDate?.getTime() ?? null,
    endDate: i.endDate?.getTime() ?? null,
    location: i.location ?? null,
    mainImageId: i.mainImageId,
    imageUrl: i.mainImageId && file ? mediaUrl(i.mainImageId, file) : null,
    imageIds: i.imageIds,
    categories: i.categories,
    tags: i.tags,
    commentsOn: i.commentState === 1,
    audioUrl: typeof sc.audioAssetUrl === "string" ? sc.audioAssetUrl : "",
    ordering: i.ordering,
    isSample: i.isSample,
  };
}

async function imageFiles(db: Db | Tx, websiteId: string, items: Item[]) {
  const ids = [...new Set(items.map((i) => i.mainImageId).filter((x): x is string => Boolean(x)))];
  if (!ids.length) return new Map<string, string>();
  const rows = await db
    .select({ id: media.id, filename: media.filename })
    .from(media)
    .where(and(eq(media.websiteId, websiteId), inArray(media.id, ids)));
  return new Map(rows.map((r) => [r.id, r.filename]));
}

/** One item as the editor answers it (with its image's URL). */
async function oneItemJson(db: Db | Tx, websiteId: string, c: Collection, i: Item) {
  return itemJson(c, i, await imageFiles(db, websiteId, [i]));
}

export async function listItems(
  db: Db,
  websiteId: string,
  collectionId: string,
  query: { q?: string; page?: number; pageSize?: number },
) {
  const c = await collectionOf(db, websiteId, collectionId);
  const { page, pageSize, offset } = pageWindow(query, 50, 250);
  const conditions = [eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)];
  if (query.q?.trim()) conditions.push(ilike(contentItems.title, likePattern(query.q.trim())));
  const order =
    c.kind === "blog"
      ? [desc(contentItems.publishOn), desc(contentItems.createdAt)]
      : c.kind === "events"
        ? [desc(contentItems.startDate)]
        : [asc(contentItems.ordering), asc(contentItems.createdAt)];
  const { rows, total } = await selectOffsetPage(db, contentItems, and(...conditions), order, {
    limit: pageSize,
    offset,
  });
  const files = await imageFiles(db, websiteId, rows);
  return {
    collection: { id: c.id, title: c.title, kind: c.kind, urlSlug: c.urlSlug },
    items: rows.map((i) => itemJson(c, i, files)),
    ...pageInfo(total, page, pageSize),
    limit: itemLimitOf(c.kind)?.max ?? null,
  };
}

/** The item of the site's collection; a 404 when there is none. */
async function itemOfCollection(db: Db | Tx, websiteId: string, collectionId: string, itemId: string) {
  const [i] = await db
    .select()
    .from(contentItems)
    .where(siteRowWhere(contentItems, websiteId, itemId, eq(contentItems.collectionId, collectionId)));
  if (!i) throw notFound(ITEM_NOT_FOUND);
  return i;
}

export async function getItem(db: Db, websiteId: string, collectionId: string, itemId: string) {
  const c = await collectionOf(db, websiteId, collectionId);
  const i = await itemOfCollection(db, websiteId, c.id, itemId);
  return oneItemJson(db, websiteId, c, i);
}

function check(c: Collection, input: ItemInput): Record<string, string> {
  const f: Record<string, string> = {};
  if (!input.title.trim()) f.title = "Please give it a title.";
  else if (input.title.length > 300) f.title = "A title can be at most 300 characters.";
  if ((input.excerpt ?? "").length > 5000) f.excerpt = "At most 5000 characters.";
  Object.assign(f, seoFieldErrors(input));
  if ((input.body ?? "").length > 200_000) f.body = "The text is too long.";
  Object.assign(f, taxonomyErrors(cleanList(input.categories), cleanList(input.tags)));
  if (c.kind === "events") {
    if (input.startDate === undefined || input.startDate === null) f.startDate = "An event needs a start.";
    else if (input.endDate !== undefined && input.endDate !== null && input.endDate < input.startDate)
      f.endDate = "The end must be after the start.";
  }
  if (c.kind === "gallery" && !input.mainImageId) f.mainImageId = "Choose an image.";
  if (c.kind === "album") {
    const url = input.audioUrl?.trim() ?? "";
    if (!url) f.audioUrl = "Enter the address of the audio file.";
    else if (!urlWithinLimit(url)) f.audioUrl = LIMIT_MESSAGES.url;
    else if (!/^(https?:\/\/\S+|\/\S+)$/i.test(url))
      f.audioUrl = "Enter an address starting with https:// or /.";
  }
  const loc = input.location;
  if (loc) {
    if (loc.mapLat !== undefined && (!Number.isFinite(loc.mapLat) || Math.abs(loc.mapLat) > 90))
      f["location.mapLat"] = "Latitude is from -90 to 90.";
    if (loc.mapLng !== undefined && (!Number.isFinite(loc.mapLng) || Math.abs(loc.mapLng) > 180))
      f["location.mapLng"] = "Longitude is from -180 to 180.";
  }
  return f;
}

async function urlIdFor(tx: Tx, c: Collection, input: ItemInput, itemId: string): Promise<string> {
  const urlId = input.urlId?.trim() ? slugOf(input.urlId) : slugify(input.title);
  checkUrlLength(`/${c.urlSlug}/${urlId}`);
  const taken = await takenUrlIds(tx, c.websiteId, c.id, itemId);
  if (taken.has(urlId) && input.urlId?.trim())
    throw urlTaken(`Another item already uses the URL /${c.urlSlug}/${urlId}.`);
  return firstFreeUrlId(taken, urlId);
}

function values(c: Collection, input: ItemInput, now: Date) {
  const date = (ms: number | null | undefined) => (ms === undefined || ms === null ? null : new Date(ms));
  return {
    ...textColumns(input),
    authorName: input.authorName?.trim() || null,
    status: input.status ?? "published",
    publishOn:
      c.kind === "blog" || c.kind === "events" ? (date(input.publishOn) ?? now) : date(input.publishOn),
    startDate: c.kind === "events" ? date(input.startDate) : null,
    endDate: c.kind === "events" ? date(input.endDate) : null,
    location: c.kind === "events" && input.location ? input.location : null,
    mainImageId: input.mainImageId || null,
    commentState: input.commentsOn === false ? 0 : 1,
    structuredContent: c.kind === "album" ? { audioAssetUrl: input.audioUrl?.trim() } : null,
  };
}

export async function createItem(
  db: Db,
  clock: Clock,
  websiteId: string,
  collectionId: string,
  input: ItemInput,
) {
  const c = await collectionOf(db, websiteId, collectionId);
  throwFieldErrors(check(c, input));
  return db.transaction(async (tx) => {
    const limit = itemLimitOf(c.kind);
    if (limit) await checkRoomFor(tx, websiteId, c.id, limit);
    await checkImagesInSite(tx, websiteId, [input.mainImageId, ...(input.imageIds ?? [])], "mainImageId");
    const id = newId();
    const v = values(c, input, clock.now());
    await checkCategoryCount(tx, websiteId, c.id, id, v.categories);
    const urlId = await urlIdFor(tx, c, input, id);
    const [row] = await tx
      .insert(contentItems)
      .values({
        id,
        websiteId,
        collectionId: c.id,
        recordType: RECORD_TYPE_OF[c.kind]!,
        urlId,
        ordering: await nextItemOrdering(tx, c.id),
        ...v,
      })
      .returning();
    await recordVersion(tx, websiteId, { type: "item", id }, "create");
    return oneItemJson(tx, websiteId, c, row!);
  });
}

export async function updateItem(
  db: Db,
  clock: Clock,
  websiteId: string,
  collectionId: string,
  itemId: string,
  input: ItemInput,
) {
  const c = await collectionOf(db, websiteId, collectionId);
  throwFieldErrors(check(c, input));
  return db.transaction(async (tx) => {
    const existing = await itemOfCollection(tx, websiteId, c.id, itemId);
    await checkImagesInSite(tx, websiteId, [input.mainImageId, ...(input.imageIds ?? [])], "mainImageId");
    const v = values(
      c,
      { ...input, publishOn: input.publishOn ?? existing.publishOn?.getTime() ?? null },
      clock.now(),
    );
    await checkCategoryCount(tx, websiteId, c.id, itemId, v.categories);
    const urlId =
      input.urlId?.trim() && input.urlId.trim() !== existing.urlId
        ? await urlIdFor(tx, c, input, itemId)
        : existing.urlId;
    if (urlId !== existing.urlId && existing.status === "published")
      await recordMove(tx, websiteId, itemUrl(c, existing), itemUrl(c, { ...existing, urlId }));
    const [row] = await tx
      .update(contentItems)
      .set({ ...v, urlId, updatedAt: sql`now()` })
      .where(eq(contentItems.id, itemId))
      .returning();
    await recordVersion(tx, websiteId, { type: "item", id: itemId }, "save");
    return oneItemJson(tx, websiteId, c, row!);
  });
}

export async function deleteItem(db: Db, websiteId: string, collectionId: string, itemId: string) {
  const c = await collectionOf(db, websiteId, collectionId);
  const inCollection = eq(contentItems.collectionId, c.id);
  await db.transaction(async (tx) => {
    await recordVersion(tx, websiteId, { type: "item", id: itemId }, "delete");
    await moveToTrash(tx, websiteId, "item", itemId);
    await deleteSiteRow(tx, contentItems, websiteId, itemId, ITEM_NOT_FOUND, inCollection);
  });
}

/** Hand-ordered collections (galleries, albums): every item, in the new order. */
export async function reorderItems(db: Db, websiteId: string, collectionId: string, ids: string[]) {
  const c = await collectionOf(db, websiteId, collectionId);
  if (!HAND_ORDERED.has(c.kind)) throw badRequest("Posts and events are ordered by their dates.");
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: contentItems.id })
      .from(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)));
    const all = new Set(rows.map((r) => r.id));
    if (ids.length !== all.size || new Set(ids).size !== ids.length || ids.some((id) => !all.has(id)))
      throw badRequest("Send every item of the page exactly once, in the new order.");
    for (const [i, id] of ids.entries())
      await tx.update(contentItems).set({ ordering: i }).where(eq(contentItems.id, id));
  });
  return listItems(db, websiteId, collectionId, { pageSize: 250 });
}
