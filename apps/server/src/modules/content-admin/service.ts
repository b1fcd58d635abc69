/**
 * The items of blog, events, gallery and album pages for owners: blog posts, events, gallery
 * images and album tracks (title, body, excerpt, dates, location, images, categories, tags),
 * with the SPEC §9 limits (250 items in a hand-ordered collection, 60 tracks per album, 10000
 * categories per collection, URLs under 2083 characters).
 */
import { seoFieldErrors, seoValues } from "../seo/fields.js";
import { recordMove } from "../redirects/service.js";
import { itemUrl } from "../../render/serialize.js";
import { and, asc, count, desc, eq, ilike, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { collections, contentItems, media } from "../../db/schema.js";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { mediaUrl } from "../media/storage.js";
import {
  LIMIT_MESSAGES,
  MAX_CATEGORY_LENGTH,
  MAX_NESTED_CATEGORIES,
  MAX_TAG_LENGTH,
  itemLimitOf,
  urlWithinLimit,
} from "../pages/limits.js";
import { sanitizeRichText } from "../pages/rich-text.js";
import { slugify } from "../pages/service.js";

/** The record type of the items each kind of collection holds. */
export const RECORD_TYPE_OF: Record<string, number> = {
  blog: RecordType.TEXT,
  events: RecordType.EVENT,
  gallery: RecordType.IMAGE,
  album: RecordType.AUDIO,
};
/** Collections ordered by hand (the others by date). */
const HAND_ORDERED = new Set(["gallery", "album"]);

export const ITEM_NOT_FOUND = "No such item.";

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
  location?: {
    addressTitle?: string;
    addressLine1?: string;
    addressLine2?: string;
    addressCountry?: string;
    mapLat?: number;
    mapLng?: number;
  } | null;
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
    .where(and(eq(collections.websiteId, websiteId), eq(collections.id, collectionId)));
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
    title: i.title,
    urlId: i.urlId,
    fullUrl: `/${c.urlSlug}/${i.urlId}`,
    status: i.status,
    body: i.body,
    excerpt: i.excerpt,
    seoTitle: i.seoTitle ?? "",
    seoDescription: i.seoDescription ?? "",
    seoHidden: i.seoHidden,
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

export async function listItems(
  db: Db,
  websiteId: string,
  collectionId: string,
  query: { q?: string; page?: number; pageSize?: number },
) {
  const c = await collectionOf(db, websiteId, collectionId);
  const pageSize = Math.min(250, Math.max(1, query.pageSize ?? 50));
  const page = Math.max(1, query.page ?? 1);
  const conditions = [eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)];
  if (query.q?.trim())
    conditions.push(ilike(contentItems.title, `%${query.q.trim().replace(/[\\%_]/g, (x) => `\\${x}`)}%`));
  const order =
    c.kind === "blog"
      ? [desc(contentItems.publishOn), desc(contentItems.createdAt)]
      : c.kind === "events"
        ? [desc(contentItems.startDate)]
        : [asc(contentItems.ordering), asc(contentItems.createdAt)];
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(contentItems)
      .where(where)
      .orderBy(...order)
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(contentItems).where(where),
  ]);
  const files = await imageFiles(db, websiteId, rows);
  const total = Number(totals[0]?.n ?? 0);
  return {
    collection: { id: c.id, title: c.title, kind: c.kind, urlSlug: c.urlSlug },
    items: rows.map((i) => itemJson(c, i, files)),
    total,
    page,
    pageSize,
    hasNextPage: page * pageSize < total,
    limit: itemLimitOf(c.kind)?.max ?? null,
  };
}

export async function getItem(db: Db, websiteId: string, collectionId: string, itemId: string) {
  const c = await collectionOf(db, websiteId, collectionId);
  const [i] = await db
    .select()
    .from(contentItems)
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        eq(contentItems.collectionId, c.id),
        eq(contentItems.id, itemId),
      ),
    );
  if (!i) throw notFound(ITEM_NOT_FOUND);
  return itemJson(c, i, await imageFiles(db, websiteId, [i]));
}

function clean(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map((s) => s.trim()).filter(Boolean))];
}

function check(c: Collection, input: ItemInput): Record<string, string> {
  const f: Record<string, string> = {};
  if (!input.title.trim()) f.title = "Please give it a title.";
  else if (input.title.length > 300) f.title = "A title can be at most 300 characters.";
  if ((input.excerpt ?? "").length > 5000) f.excerpt = "At most 5000 characters.";
  Object.assign(f, seoFieldErrors(input));
  if ((input.body ?? "").length > 200_000) f.body = "The text is too long.";
  if (clean(input.categories).some((x) => x.length > MAX_CATEGORY_LENGTH))
    f.categories = LIMIT_MESSAGES.category;
  if (clean(input.tags).some((x) => x.length > MAX_TAG_LENGTH)) f.tags = LIMIT_MESSAGES.tag;
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

async function checkImages(tx: Tx, websiteId: string, input: ItemInput) {
  const ids = [
    ...new Set([input.mainImageId, ...(input.imageIds ?? [])].filter((x): x is string => Boolean(x))),
  ];
  if (!ids.length) return;
  const rows = await tx
    .select({ id: media.id })
    .from(media)
    .where(and(eq(media.websiteId, websiteId), inArray(media.id, ids)));
  if (rows.length !== ids.length)
    throw badRequest("An image is not in this site's media library.", { mainImageId: "Unknown image" });
}

async function checkCategories(
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
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        eq(contentItems.collectionId, collectionId),
        ne(contentItems.id, itemId),
      ),
    );
  const all = new Set(rows.flatMap((r) => r.c));
  for (const c of categories) all.add(c);
  if (all.size > MAX_NESTED_CATEGORIES)
    throw badRequest(LIMIT_MESSAGES.categories, { categories: LIMIT_MESSAGES.categories });
}

async function urlIdFor(tx: Tx, c: Collection, input: ItemInput, itemId: string): Promise<string> {
  let urlId: string;
  if (input.urlId?.trim()) {
    urlId = input.urlId.trim().toLowerCase();
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(urlId))
      throw badRequest("A URL slug can use only lowercase letters, digits and single hyphens.", {
        urlId: "Invalid",
      });
  } else urlId = slugify(input.title);
  if (!urlWithinLimit(`/${c.urlSlug}/${urlId}`))
    throw badRequest(LIMIT_MESSAGES.url, { urlId: LIMIT_MESSAGES.url });
  const rows = await tx
    .select({ urlId: contentItems.urlId })
    .from(contentItems)
    .where(and(eq(contentItems.collectionId, c.id), ne(contentItems.id, itemId)));
  const taken = new Set(rows.map((r) => r.urlId));
  if (!taken.has(urlId)) return urlId;
  if (input.urlId?.trim())
    throw new ApiError(409, "conflict", `Another item already uses the URL /${c.urlSlug}/${urlId}.`, {
      urlId: "Taken",
    });
  for (let n = 2; ; n++) if (!taken.has(`${urlId}-${n}`)) return `${urlId}-${n}`;
}

function values(c: Collection, input: ItemInput, now: Date) {
  const date = (ms: number | null | undefined) => (ms === undefined || ms === null ? null : new Date(ms));
  return {
    title: input.title.trim(),
    body: sanitizeRichText(input.body ?? ""),
    excerpt: sanitizeRichText(input.excerpt ?? ""),
    ...seoValues(input),
    authorName: input.authorName?.trim() || null,
    status: input.status ?? "published",
    publishOn:
      c.kind === "blog" || c.kind === "events" ? (date(input.publishOn) ?? now) : date(input.publishOn),
    startDate: c.kind === "events" ? date(input.startDate) : null,
    endDate: c.kind === "events" ? date(input.endDate) : null,
    location: c.kind === "events" && input.location ? input.location : null,
    mainImageId: input.mainImageId || null,
    imageIds: input.imageIds ?? [],
    categories: clean(input.categories),
    tags: clean(input.tags),
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
  const fields = check(c, input);
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
  return db.transaction(async (tx) => {
    const limit = itemLimitOf(c.kind);
    if (limit) {
      const [{ n }] = (await tx
        .select({ n: count() })
        .from(contentItems)
        .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)))) as [
        { n: number },
      ];
      if (Number(n) >= limit.max) throw conflict(limit.message);
    }
    await checkImages(tx, websiteId, input);
    const id = newId();
    const v = values(c, input, clock.now());
    await checkCategories(tx, websiteId, c.id, id, v.categories);
    const urlId = await urlIdFor(tx, c, input, id);
    const [{ max }] = (await tx
      .select({ max: sql<number>`coalesce(max(${contentItems.ordering}), -1)` })
      .from(contentItems)
      .where(eq(contentItems.collectionId, c.id))) as [{ max: number }];
    const [row] = await tx
      .insert(contentItems)
      .values({
        id,
        websiteId,
        collectionId: c.id,
        recordType: RECORD_TYPE_OF[c.kind]!,
        urlId,
        ordering: Number(max) + 1,
        ...v,
      })
      .returning();
    return itemJson(c, row!, await imageFiles(tx, websiteId, [row!]));
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
  const fields = check(c, input);
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(contentItems)
      .where(
        and(
          eq(contentItems.websiteId, websiteId),
          eq(contentItems.collectionId, c.id),
          eq(contentItems.id, itemId),
        ),
      );
    if (!existing) throw notFound(ITEM_NOT_FOUND);
    await checkImages(tx, websiteId, input);
    const v = values(
      c,
      { ...input, publishOn: input.publishOn ?? existing.publishOn?.getTime() ?? null },
      clock.now(),
    );
    await checkCategories(tx, websiteId, c.id, itemId, v.categories);
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
    return itemJson(c, row!, await imageFiles(tx, websiteId, [row!]));
  });
}

export async function deleteItem(db: Db, websiteId: string, collectionId: string, itemId: string) {
  const c = await collectionOf(db, websiteId, collectionId);
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(contentItems)
      .where(
        and(
          eq(contentItems.websiteId, websiteId),
          eq(contentItems.collectionId, c.id),
          eq(contentItems.id, itemId),
        ),
      )
      .returning({ id: contentItems.id });
    if (!gone.length) throw notFound(ITEM_NOT_FOUND);
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
