import { type SQL, and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { collections, comments, contentItems, media } from "../../db/schema.js";

export type Collection = typeof collections.$inferSelect;
export type ContentItem = typeof contentItems.$inferSelect;
export type Media = typeof media.$inferSelect;
type Comment = typeof comments.$inferSelect;

export async function collectionsOf(db: Db, websiteId: string): Promise<Collection[]> {
  return db
    .select()
    .from(collections)
    .where(eq(collections.websiteId, websiteId))
    .orderBy(asc(collections.ordering));
}

/** Published items of a collection: posts newest first, events by start date, others in their order. */
export async function itemsOf(db: Db, websiteId: string, collection: Collection): Promise<ContentItem[]> {
  const order =
    collection.kind === "blog"
      ? [desc(contentItems.publishOn)]
      : collection.kind === "events"
        ? [asc(contentItems.startDate)]
        : [asc(contentItems.ordering), asc(contentItems.createdAt)];
  return db
    .select()
    .from(contentItems)
    .where(isPublished(websiteId, eq(contentItems.collectionId, collection.id)))
    .orderBy(...order);
}

/** The site's published items that also meet `conditions`. */
export function isPublished(websiteId: string, ...conditions: SQL[]) {
  return and(eq(contentItems.websiteId, websiteId), ...conditions, eq(contentItems.status, "published"));
}

/** The site's published item that meets `conditions`, if any. */
async function publishedItem(
  db: Db,
  websiteId: string,
  ...conditions: SQL[]
): Promise<ContentItem | undefined> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(isPublished(websiteId, ...conditions));
  return row;
}

export async function mediaByIds(db: Db, websiteId: string, ids: string[]): Promise<Map<string, Media>> {
  const unique = [...new Set(ids.filter(Boolean))];
  if (!unique.length) return new Map();
  const rows = await db
    .select()
    .from(media)
    .where(and(eq(media.websiteId, websiteId), inArray(media.id, unique)));
  return new Map(rows.map((m) => [m.id, m]));
}

export async function mediaById(db: Db, id: string): Promise<Media | undefined> {
  const [row] = await db.select().from(media).where(eq(media.id, id));
  return row;
}

export async function commentCounts(
  db: Db,
  websiteId: string,
  itemIds: string[],
): Promise<Map<string, number>> {
  if (!itemIds.length) return new Map();
  const rows = await db
    .select({ itemId: comments.itemId, n: count() })
    .from(comments)
    .where(
      and(eq(comments.websiteId, websiteId), eq(comments.approved, true), inArray(comments.itemId, itemIds)),
    )
    .groupBy(comments.itemId);
  return new Map(rows.map((r) => [r.itemId, Number(r.n)]));
}

export async function commentsOf(db: Db, websiteId: string, itemId: string): Promise<Comment[]> {
  return db
    .select()
    .from(comments)
    .where(and(eq(comments.websiteId, websiteId), eq(comments.itemId, itemId), eq(comments.approved, true)))
    .orderBy(asc(comments.createdAt));
}

/** Changes an item's like count by +1 or -1 (never below 0); answers the new count, undefined when no such item. */
export async function changeLikeCount(
  db: Db,
  websiteId: string,
  itemId: string,
  delta: 1 | -1,
): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(contentItems)
      .set({ likeCount: sql`greatest(0, ${contentItems.likeCount} + ${delta})` })
      .where(isPublished(websiteId, eq(contentItems.id, itemId)))
      .returning({ likeCount: contentItems.likeCount });
    return row?.likeCount;
  });
}

export async function itemById(db: Db, websiteId: string, itemId: string): Promise<ContentItem | undefined> {
  return publishedItem(db, websiteId, eq(contentItems.id, itemId));
}
