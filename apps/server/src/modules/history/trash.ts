/**
 * The trash: deleting a page, collection, item, product, form or media file keeps every row it
 * takes along (a collection's items, a product's variants, an item's comments, a form's
 * submissions) for 30 days, compressed, then deletes the rows as before: what is in the trash is
 * simply not on the site (not public, not in search, the sitemap or feeds, not counted against
 * limits). Restoring writes the rows back with the same ids, stock and URL; a URL taken since gets
 * a free variant, and the answer says so. Media files stay in the store until the purge.
 */
import { and, desc, eq, inArray, lt, ne } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../../db/client.js";
import {
  collections,
  comments,
  contentItems,
  formSubmissions,
  forms,
  media,
  productVariants,
  trashEntries,
} from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { badRequest, notFound } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import type { MediaStore } from "../../media/store.js";
import { changeClock, currentActor, trashDays } from "./context.js";
import { rowJson, rowValues } from "./entities.js";
import { actorName, actorNames, pack, recordVersion, unpack } from "./service.js";

export const TRASH_TYPES = ["page", "collection", "item", "product", "form", "media"] as const;
export type TrashType = (typeof TRASH_TYPES)[number];

/** The tables a trash entry keeps rows of, in the order they are written back. */
const TABLES = {
  collections,
  content_items: contentItems,
  product_variants: productVariants,
  comments,
  forms,
  form_submissions: formSubmissions,
  media,
} as const satisfies Record<string, PgTable>;
type TableName = keyof typeof TABLES;
type Rows = Partial<Record<TableName, Record<string, unknown>[]>>;

const json = (rows: Record<string, unknown>[]) => rows.map((r) => rowJson(r, []));

async function itemRows(tx: Tx, websiteId: string, itemIds: string[]): Promise<Rows> {
  if (!itemIds.length) return {};
  const items = await tx
    .select()
    .from(contentItems)
    .where(and(eq(contentItems.websiteId, websiteId), inArray(contentItems.id, itemIds)));
  const variants = await tx.select().from(productVariants).where(inArray(productVariants.itemId, itemIds));
  const notes = await tx.select().from(comments).where(inArray(comments.itemId, itemIds));
  return { content_items: json(items), product_variants: json(variants), comments: json(notes) };
}

/** What deleting the entity takes along, as rows by table; with its title and address. */
async function rowsOf(tx: Tx, websiteId: string, type: TrashType, id: string) {
  if (type === "page" || type === "collection") {
    const [c] = await tx
      .select()
      .from(collections)
      .where(and(eq(collections.websiteId, websiteId), eq(collections.id, id)));
    if (!c) return undefined;
    const ids = await tx
      .select({ id: contentItems.id })
      .from(contentItems)
      .where(eq(contentItems.collectionId, id));
    const rows = {
      collections: json([c]),
      ...(await itemRows(
        tx,
        websiteId,
        ids.map((r) => r.id),
      )),
    };
    return { rows, title: c.title, url: `/${c.urlSlug}` };
  }
  if (type === "item" || type === "product") {
    const [i] = await tx
      .select({ item: contentItems, slug: collections.urlSlug })
      .from(contentItems)
      .innerJoin(collections, eq(collections.id, contentItems.collectionId))
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, id)));
    if (!i) return undefined;
    const url = type === "product" ? `/${i.slug}/p/${i.item.urlId}` : `/${i.slug}/${i.item.urlId}`;
    return { rows: await itemRows(tx, websiteId, [id]), title: i.item.title, url };
  }
  if (type === "form") {
    const [f] = await tx
      .select()
      .from(forms)
      .where(and(eq(forms.websiteId, websiteId), eq(forms.id, id)));
    if (!f) return undefined;
    const subs = await tx.select().from(formSubmissions).where(eq(formSubmissions.formId, id));
    return { rows: { forms: json([f]), form_submissions: json(subs) }, title: f.name, url: "" };
  }
  const [m] = await tx
    .select()
    .from(media)
    .where(and(eq(media.websiteId, websiteId), eq(media.id, id)));
  if (!m) return undefined;
  return { rows: { media: json([m]) }, title: m.title || m.filename, url: "" };
}

/**
 * Keeps what deleting the entity will take along, in the deleting transaction; call it just
 * before the delete. Answers the trash entry's id (undefined when there was nothing to keep).
 */
export async function moveToTrash(
  tx: Tx,
  websiteId: string,
  type: TrashType,
  id: string,
): Promise<string | undefined> {
  const found = await rowsOf(tx, websiteId, type, id);
  if (!found) return undefined;
  const at = changeClock().now();
  const actor = currentActor();
  const entryId = newId();
  await tx.insert(trashEntries).values({
    id: entryId,
    websiteId,
    entityType: type,
    entityId: id,
    title: found.title.slice(0, 300),
    url: found.url,
    actorType: actor.type,
    actorId: actor.id,
    content: pack(found.rows).bytes,
    mediaKeys: type === "media" ? [`media/${websiteId}/${id}/`] : [],
    deletedAt: at,
    purgeAfter: new Date(at.getTime() + trashDays() * DAY_MS),
  });
  return entryId;
}

export interface TrashJson {
  id: string;
  entityType: string;
  entityId: string;
  title: string;
  url: string;
  deletedAt: string;
  purgeAfter: string;
  /** Who deleted it (a person's name, an API key's, or Atelier). */
  deletedBy?: string;
}

function trashJson(r: typeof trashEntries.$inferSelect, names?: Map<string, string>): TrashJson {
  return {
    id: r.id,
    entityType: r.entityType,
    entityId: r.entityId,
    title: r.title,
    url: r.url,
    deletedAt: r.deletedAt.toISOString(),
    purgeAfter: r.purgeAfter.toISOString(),
    ...(names ? { deletedBy: actorName(r, names) } : {}),
  };
}

/** What is in the site's trash, most recently deleted first. */
export async function listTrash(db: Db, websiteId: string): Promise<TrashJson[]> {
  const rows = await db
    .select()
    .from(trashEntries)
    .where(eq(trashEntries.websiteId, websiteId))
    .orderBy(desc(trashEntries.deletedAt), desc(trashEntries.id));
  const names = await actorNames(db, rows);
  return rows.map((r) => trashJson(r, names));
}

const NOT_IN_TRASH = "That is not in the trash (or it was deleted for good).";

async function entryOf(tx: Db | Tx, websiteId: string, type: string, id: string) {
  const [row] = await tx
    .select()
    .from(trashEntries)
    .where(
      and(
        eq(trashEntries.websiteId, websiteId),
        eq(trashEntries.entityType, type),
        eq(trashEntries.entityId, id),
      ),
    )
    .orderBy(desc(trashEntries.deletedAt))
    .limit(1);
  if (!row) throw notFound(NOT_IN_TRASH);
  return row;
}

/** The first of `base`, `base-2`, `base-3`… that `taken` says is free. */
async function firstFree(base: string, taken: (candidate: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}

/** A free URL slug of a page like `base`. */
function freeSlug(tx: Tx, websiteId: string, base: string, id: string): Promise<string> {
  return firstFree(base, async (slug) => {
    const where = and(
      eq(collections.websiteId, websiteId),
      eq(collections.urlSlug, slug),
      ne(collections.id, id),
    );
    return (await tx.select({ id: collections.id }).from(collections).where(where)).length > 0;
  });
}

/** A free URL id of an item like `base`, in its collection. */
function freeUrlId(tx: Tx, collectionId: string, base: string, id: string): Promise<string> {
  return firstFree(base, async (urlId) => {
    const where = and(
      eq(contentItems.collectionId, collectionId),
      eq(contentItems.urlId, urlId),
      ne(contentItems.id, id),
    );
    return (await tx.select({ id: contentItems.id }).from(contentItems).where(where)).length > 0;
  });
}

/**
 * Brings an entity back from the trash with everything it took along. Answers where it is and,
 * when its URL was taken since, a notice naming the new one.
 */
export async function restoreFromTrash(db: Db, websiteId: string, type: string, id: string) {
  return db.transaction(async (tx) => {
    const entry = await entryOf(tx, websiteId, type, id);
    const rows = unpack<Rows>(entry.content);
    let url = entry.url;
    let notice: string | undefined;
    const col = rows.collections?.[0];
    if (col) {
      const slug = await freeSlug(tx, websiteId, String(col.urlSlug), String(col.id));
      if (slug !== col.urlSlug) {
        notice = `Another page took /${col.urlSlug} while this one was in the trash: it is back at /${slug}.`;
        col.urlSlug = slug;
        url = `/${slug}`;
      }
      // Its folder may be gone; it comes back at the top of the navigation then.
      if (col.folderId) {
        const [f] = await tx
          .select({ id: collections.id })
          .from(collections)
          .where(eq(collections.id, String(col.folderId)));
        if (!f) col.folderId = null;
      }
      col.isHome = false;
    }
    const item = !col ? rows.content_items?.[0] : undefined;
    if (item) {
      const [c] = await tx
        .select()
        .from(collections)
        .where(and(eq(collections.websiteId, websiteId), eq(collections.id, String(item.collectionId))));
      if (!c) throw badRequest("Its page was deleted too: restore that page from the trash first.");
      const urlId = await freeUrlId(tx, c.id, String(item.urlId), String(item.id));
      if (urlId !== item.urlId) {
        const kind = type === "product" ? "product" : "item";
        const at = type === "product" ? `/${c.urlSlug}/p/` : `/${c.urlSlug}/`;
        notice = `Another ${kind} took ${at}${item.urlId} while this one was in the trash: it is back at ${at}${urlId}.`;
        item.urlId = urlId;
        url = `${at}${urlId}`;
      }
    }
    // Variants whose SKU another product took since get a free one.
    for (const v of rows.product_variants ?? []) {
      const [clash] = await tx
        .select({ id: productVariants.id })
        .from(productVariants)
        .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.sku, String(v.sku))));
      if (clash) v.sku = `${String(v.sku)}-${newId().slice(0, 4)}`;
    }
    const liveMedia = new Set(
      (await tx.select({ id: media.id }).from(media).where(eq(media.websiteId, websiteId))).map((m) => m.id),
    );
    for (const r of rows.media ?? []) liveMedia.add(String(r.id));
    const image = (v: unknown) => (typeof v === "string" && liveMedia.has(v) ? v : null);
    for (const [name, table] of Object.entries(TABLES) as [TableName, PgTable][]) {
      for (const r of rows[name] ?? []) {
        if ("mainImageId" in r) r.mainImageId = image(r.mainImageId);
        if (Array.isArray(r.imageIds)) r.imageIds = r.imageIds.filter((m) => image(m));
        await tx.insert(table).values({ ...rowValues(table, r), websiteId } as never);
      }
    }
    await tx.delete(trashEntries).where(eq(trashEntries.id, entry.id));
    const versioned =
      type === "page" || type === "collection"
        ? "page"
        : type === "item" || type === "product"
          ? type
          : undefined;
    if (versioned)
      await recordVersion(tx, websiteId, { type: versioned, id }, "restore", {
        summary: "Restored from the trash",
      });
    return { restored: { ...trashJson(entry), url }, ...(notice ? { notice } : {}) };
  });
}

/** Deletes a trash entry for good now (its media files too). */
export async function deleteFromTrash(
  db: Db,
  store: MediaStore,
  websiteId: string,
  type: string,
  id: string,
) {
  const entry = await entryOf(db, websiteId, type, id);
  await db.delete(trashEntries).where(eq(trashEntries.id, entry.id));
  await removeFiles(store, entry.mediaKeys);
}

async function removeFiles(store: MediaStore, prefixes: string[]) {
  for (const prefix of prefixes) for (const key of await store.list(prefix)) await store.delete(key);
}

/**
 * Deletes what has been in the trash longer than its time, rows first (claimed by the delete, so
 * two processes never purge one entry twice), then its media files. Answers how many went.
 */
export async function purgeTrash(deps: Pick<Deps, "db" | "media" | "clock">): Promise<number> {
  const gone = await deps.db
    .delete(trashEntries)
    .where(lt(trashEntries.purgeAfter, deps.clock.now()))
    .returning({ mediaKeys: trashEntries.mediaKeys });
  for (const g of gone) await removeFiles(deps.media, g.mediaKeys);
  return gone.length;
}
