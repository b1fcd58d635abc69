/**
 * The inventory panel: products searched, sorted by name, stock or price and paged, quick stock
 * changes, and the panel's tracking events.
 */
import { and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { collections, contentItems, media, productVariants } from "../../db/schema.js";
import { badRequest, notFound } from "../../http/errors.js";
import { likePattern, pageInfo, pageWindow } from "../../lib/paging.js";
import { siteRowWhere } from "../../lib/site-rows.js";
import { recordEvent } from "../analytics/service.js";
import { mediaUrl } from "../media/storage.js";
import { enqueueRestockCheck } from "../restock/service.js";
import { MAX_STOCK } from "./product-rules.js";
import { type NewEvent, SYSTEM, recordEvent as recordDomainEvent } from "../events/service.js";

/** The domain event of a variant's stock changing (webhooks' `inventory.updated`). */
export function inventoryUpdated(websiteId: string, variantId: string): NewEvent {
  return { websiteId, type: "inventory.updated", entity: { type: "variant", id: variantId }, actor: SYSTEM };
}

/** A variant as the inventory lists it: its options, prices and stock. */
export function variantStockJson(v: typeof productVariants.$inferSelect) {
  return {
    id: v.id,
    sku: v.sku,
    attributes: v.attributes,
    priceCents: v.priceCents,
    salePriceCents: v.salePriceCents,
    onSale: v.onSale,
    qtyInStock: v.qtyInStock,
    unlimited: v.unlimited,
  };
}

export interface ProductQuery {
  q?: string;
  collectionId?: string;
  sort?: "name" | "stock" | "price";
  dir?: "asc" | "desc";
  page?: number;
  pageSize?: number;
}

/** Products with their price (lowest current price) and stock (sum, or unlimited), searched, sorted and paged. */
export async function listProducts(db: Db, websiteId: string, query: ProductQuery) {
  const { page, pageSize, offset } = pageWindow(query, 20, 200);
  const conditions = [
    eq(contentItems.websiteId, websiteId),
    eq(contentItems.recordType, RecordType.STORE_ITEM),
  ];
  if (query.collectionId) conditions.push(eq(contentItems.collectionId, query.collectionId));
  const q = query.q?.trim();
  if (q) {
    const like = likePattern(q);
    const skuMatch = db
      .select({ itemId: productVariants.itemId })
      .from(productVariants)
      .where(and(eq(productVariants.websiteId, websiteId), ilike(productVariants.sku, like)));
    conditions.push(or(ilike(contentItems.title, like), inArray(contentItems.id, skuMatch))!);
  }
  const price = sql<number>`min(case when ${productVariants.onSale} then ${productVariants.salePriceCents} else ${productVariants.priceCents} end)`;
  const stock = sql<number>`coalesce(sum(${productVariants.qtyInStock}), 0)`;
  const unlimited = sql<boolean>`coalesce(bool_or(${productVariants.unlimited}), false)`;
  // Unlimited stock sorts as the most stock.
  const stockKey = sql`case when coalesce(bool_or(${productVariants.unlimited}), false) then 2147483647 else coalesce(sum(${productVariants.qtyInStock}), 0) end`;
  const dir = query.dir === "desc" ? desc : asc;
  const order =
    query.sort === "stock"
      ? [dir(stockKey), asc(contentItems.title)]
      : query.sort === "price"
        ? [dir(price), asc(contentItems.title)]
        : [dir(sql`lower(${contentItems.title})`)];
  const where = and(...conditions);
  const [rows, totals] = await Promise.all([
    db
      .select({
        item: contentItems,
        collectionTitle: collections.title,
        collectionSlug: collections.urlSlug,
        imageFile: media.filename,
        price,
        stock,
        unlimited,
        variantCount: sql<number>`count(${productVariants.id})`,
      })
      .from(contentItems)
      .innerJoin(collections, eq(collections.id, contentItems.collectionId))
      .leftJoin(productVariants, eq(productVariants.itemId, contentItems.id))
      .leftJoin(media, eq(media.id, contentItems.mainImageId))
      .where(where)
      .groupBy(contentItems.id, collections.title, collections.urlSlug, media.filename)
      .orderBy(...order, asc(contentItems.id))
      .limit(pageSize)
      .offset(offset),
    db.select({ n: count() }).from(contentItems).where(where),
  ]);
  const total = Number(totals[0]?.n ?? 0);
  const ids = rows.map((r) => r.item.id);
  const variants = ids.length
    ? await db
        .select()
        .from(productVariants)
        .where(and(eq(productVariants.websiteId, websiteId), inArray(productVariants.itemId, ids)))
        .orderBy(asc(productVariants.ordering))
    : [];
  return {
    products: rows.map((r) => {
      const sc = (r.item.structuredContent ?? {}) as Record<string, unknown>;
      return {
        id: r.item.id,
        title: r.item.title,
        collectionId: r.item.collectionId,
        collectionTitle: r.collectionTitle,
        fullUrl: `/${r.collectionSlug}/p/${r.item.urlId}`,
        status: r.item.status,
        isSample: r.item.isSample,
        productType: Number(sc.productType ?? 1),
        imageUrl: r.item.mainImageId && r.imageFile ? mediaUrl(r.item.mainImageId, r.imageFile) : null,
        priceCents: r.price === null ? null : Number(r.price),
        stock: Number(r.stock),
        unlimited: Boolean(r.unlimited),
        variantCount: Number(r.variantCount),
        variants: variants.filter((v) => v.itemId === r.item.id).map(variantStockJson),
      };
    }),
    ...pageInfo(total, page, pageSize),
  };
}

/** The inventory panel's quick change: a variant's stock, set or adjusted, or made unlimited. */
export async function setStock(
  db: Db,
  websiteId: string,
  variantId: string,
  change: { qtyInStock?: number; delta?: number; unlimited?: boolean },
) {
  return db.transaction(async (tx) => {
    const [v] = await tx
      .select()
      .from(productVariants)
      .where(siteRowWhere(productVariants, websiteId, variantId))
      .for("update");
    if (!v) throw notFound("No such variant.");
    let qty = v.qtyInStock;
    if (change.qtyInStock !== undefined) qty = change.qtyInStock;
    if (change.delta !== undefined) qty += change.delta;
    if (!Number.isInteger(qty) || qty < 0 || qty > MAX_STOCK)
      throw badRequest("Stock is a whole number, 0 or more.", { qtyInStock: "Invalid" });
    const [row] = await tx
      .update(productVariants)
      .set({ qtyInStock: qty, unlimited: change.unlimited ?? v.unlimited, updatedAt: sql`now()` })
      .where(eq(productVariants.id, v.id))
      .returning();
    await recordDomainEvent(tx, inventoryUpdated(websiteId, v.id));
    // Back in stock: the people waiting for this variant are emailed by the restock job.
    if ((row!.unlimited || row!.qtyInStock > 0) && !v.unlimited && v.qtyInStock <= 0) {
      await enqueueRestockCheck(tx, websiteId, [v.id]);
    }
    return { id: row!.id, sku: row!.sku, qtyInStock: row!.qtyInStock, unlimited: row!.unlimited };
  });
}

/** The inventory panel's tracking events (SPEC §2). */
export const INVENTORY_EVENTS = [
  "search_products",
  "sort_by_name",
  "sort_by_stock",
  "sort_by_price",
  "expand_row",
  "click_row",
  "next_page",
] as const;

export async function recordPanelEvent(
  db: Db,
  websiteId: string,
  e: {
    action: string;
    objectType: string;
    pagePath?: string;
    sessionId?: string;
    data?: Record<string, unknown>;
  },
) {
  await recordEvent(db, {
    websiteId,
    actor: "user",
    action: e.action,
    objectType: e.objectType,
    pagePath: e.pagePath,
    sessionId: e.sessionId,
    data: e.data ?? {},
  });
}
