/**
 * Product editing for owners: products of every type with their variants (option ordering, sku,
 * price, sale price, stock or unlimited, image), images, additional-fields form, custom add-button
 * text, subscription plan, gift-card denominations and scarcity text. The rules a product must
 * keep are in product-rules.ts; the inventory panel is inventory.ts.
 *
 * The store's read side (catalog/service.ts) is the cart's; this file only writes products.
 */
import { moveToTrash } from "../history/trash.js";
import { recordVersion } from "../history/service.js";
import { ProductType, tracksStock } from "@atelier/commerce";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { collections, contentItems, forms, productVariants } from "../../db/schema.js";
import { ApiError, badRequest, notFound, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { deleteSiteRow, siteRowWhere } from "../../lib/site-rows.js";
import { Feature } from "@atelier/owner-api";
import {
  checkCategoryCount,
  checkImagesInSite,
  checkRoomFor,
  checkUrlLength,
  firstFreeUrlId,
  itemTextJson,
  nextItemOrdering,
  slugOf,
  takenUrlIds,
  textColumns,
  urlTaken,
} from "../content-admin/item-store.js";
import { LIMIT_MESSAGES, MAX_PRODUCTS_PER_COLLECTION } from "../pages/limits.js";
import { slugify } from "../pages/service.js";
import { recordMove } from "../redirects/service.js";
import { variantStockJson } from "./inventory.js";
import {
  PRODUCT_NOT_FOUND,
  type ProductInput,
  SUBSCRIPTION_UPSELL,
  type VariantInput,
  checkProduct,
  structured,
} from "./product-rules.js";
import { websiteHasFeature } from "./service.js";
import { type NewEvent, SYSTEM, recordEvent } from "../events/service.js";

export {
  type ProductInput,
  SALE_PRICE_BELOW,
  SUBSCRIPTION_TYPES_ONLY,
  SUBSCRIPTION_UPSELL,
  type VariantInput,
} from "./product-rules.js";

type Item = typeof contentItems.$inferSelect;
type Variant = typeof productVariants.$inferSelect;

const PRODUCT_LIMIT = { max: MAX_PRODUCTS_PER_COLLECTION, message: LIMIT_MESSAGES.products };

function productJson(
  item: Item,
  variants: Variant[],
  collection: { id: string; urlSlug: string; title: string },
) {
  const sc = (item.structuredContent ?? {}) as Record<string, unknown>;
  return {
    id: item.id,
    collectionId: item.collectionId,
    collectionTitle: collection.title,
    ...itemTextJson(item, `/${collection.urlSlug}/p/${item.urlId}`),
    tags: item.tags,
    categories: item.categories,
    mainImageId: item.mainImageId,
    imageIds: item.imageIds,
    productType: Number(sc.productType ?? ProductType.PHYSICAL),
    variantOptionOrdering: (sc.variantOptionOrdering as string[] | undefined) ?? [],
    isSubscribable: Boolean(sc.isSubscribable),
    subscriptionPlan: (sc.subscriptionPlan as ProductInput["subscriptionPlan"]) ?? null,
    giftCardDenominations: (sc.giftCardDenominations as number[] | undefined) ?? [],
    scarcityText: (sc.scarcityText as string | undefined) ?? "",
    useCustomAddButtonText: Boolean(sc.useCustomAddButtonText),
    customAddButtonText: (sc.customAddButtonText as string | undefined) ?? "",
    additionalFieldsFormId: (sc.additionalFieldsFormId as string | undefined) ?? null,
    variants: variants.map((v) => ({
      ...variantStockJson(v),
      weightGrams: v.weightGrams,
      mainImageId: v.mainImageId,
    })),
    updatedAt: item.updatedAt.toISOString(),
  };
}
type ProductJson = ReturnType<typeof productJson>;

async function storeCollection(db: Db | Tx, websiteId: string, collectionId: string) {
  const [c] = await db
    .select()
    .from(collections)
    .where(siteRowWhere(collections, websiteId, collectionId));
  if (c?.kind !== "products")
    throw badRequest("Choose a store page for the product.", { collectionId: "Not a store page" });
  return c;
}

async function itemOf(db: Db | Tx, websiteId: string, productId: string): Promise<Item> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(
      siteRowWhere(contentItems, websiteId, productId, eq(contentItems.recordType, RecordType.STORE_ITEM)),
    );
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row;
}

async function variantsOfItem(db: Db | Tx, websiteId: string, itemId: string) {
  return db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.itemId, itemId)))
    .orderBy(asc(productVariants.ordering));
}

export async function getProduct(db: Db, websiteId: string, productId: string) {
  const item = await itemOf(db, websiteId, productId);
  const [c] = await db.select().from(collections).where(eq(collections.id, item.collectionId));
  return productJson(item, await variantsOfItem(db, websiteId, item.id), c!);
}

async function checkRefs(tx: Tx, websiteId: string, p: ProductInput) {
  const images = [p.mainImageId, ...(p.imageIds ?? []), ...p.variants.map((v) => v.mainImageId)];
  await checkImagesInSite(tx, websiteId, images, "imageIds");
  if (p.additionalFieldsFormId) {
    const [form] = await tx
      .select({ id: forms.id })
      .from(forms)
      .where(siteRowWhere(forms, websiteId, p.additionalFieldsFormId));
    if (!form)
      throw badRequest("Choose one of this site's forms.", { additionalFieldsFormId: "Unknown form" });
  }
}

function skuBase(title: string): string {
  return (
    slugify(title)
      .split("-")
      .map((w) => w.slice(0, 3).toUpperCase())
      .join("")
      .slice(0, 20) || "SKU"
  );
}

async function writeProduct(tx: Tx, websiteId: string, itemId: string, p: ProductInput, existing: Variant[]) {
  const neverSoldOut = !tracksStock(p.productType);
  const variants: VariantInput[] =
    p.productType === ProductType.GIFT_CARD
      ? (p.giftCardDenominations ?? []).map((cents, i) => ({
          id: existing[i]?.id,
          sku: existing[i]?.sku,
          attributes: {},
          priceCents: cents,
          unlimited: true,
        }))
      : p.variants;
  const keep = new Set(variants.map((v) => v.id).filter(Boolean));
  const gone = existing.filter((v) => !keep.has(v.id)).map((v) => v.id);
  if (gone.length) {
    await tx
      .delete(productVariants)
      .where(and(eq(productVariants.websiteId, websiteId), inArray(productVariants.id, gone)));
  }
  const base = skuBase(p.title);
  const taken = new Set(
    (
      await tx
        .select({ sku: productVariants.sku })
        .from(productVariants)
        .where(eq(productVariants.websiteId, websiteId))
    ).map((r) => r.sku),
  );
  for (const [i, v] of variants.entries()) {
    const own = existing.find((e) => e.id === v.id);
    let sku = v.sku?.trim() || own?.sku || "";
    if (!sku) {
      let n = i + 1;
      do sku = `${base}-${String(n++).padStart(2, "0")}`;
      while (taken.has(sku));
    }
    if (sku !== own?.sku && taken.has(sku))
      throw new ApiError(409, "conflict", `Another product already uses the SKU ${sku}.`, {
        [`variants.${i}.sku`]: "SKU taken",
      });
    taken.add(sku);
    const values = {
      sku,
      attributes: Object.fromEntries(
        Object.entries(v.attributes ?? {}).map(([k, val]) => [k.trim(), val.trim()]),
      ),
      priceCents: v.priceCents,
      salePriceCents: v.salePriceCents ?? 0,
      onSale: Boolean(v.onSale),
      qtyInStock: neverSoldOut ? 0 : (v.qtyInStock ?? 0),
      // Digital goods and gift cards are never sold out (SPEC §4): their stock is unlimited.
      unlimited: neverSoldOut ? true : Boolean(v.unlimited),
      weightGrams: v.weightGrams ?? 0,
      mainImageId: v.mainImageId || null,
      ordering: i,
      updatedAt: sql`now()`,
    };
    if (own) {
      await tx
        .update(productVariants)
        .set(values)
        .where(siteRowWhere(productVariants, websiteId, own.id));
    } else {
      await tx.insert(productVariants).values({ id: newId(), websiteId, itemId, ...values });
    }
  }
}

async function preflight(db: Db, websiteId: string, p: ProductInput) {
  throwFieldErrors(checkProduct(p));
  if (p.isSubscribable && !(await websiteHasFeature(db, websiteId, Feature.COMMERCE_SUBSCRIPTIONS)))
    throw new ApiError(402, "upgrade_required", SUBSCRIPTION_UPSELL, { isSubscribable: SUBSCRIPTION_UPSELL });
}

/** The URL slug the owner typed, checked for a product of the store page `collectionSlug`. */
function checkUrlId(urlId: string, collectionSlug: string): string {
  const s = slugOf(urlId);
  checkUrlLength(`/${collectionSlug}/p/${s}`);
  return s;
}

const URL_TAKEN = (urlId: string) => urlTaken(`Another product already uses the URL ${urlId}.`);

export async function createProduct(db: Db, websiteId: string, p: ProductInput): Promise<ProductJson> {
  if (!p.collectionId) throw badRequest("Choose a store page for the product.", { collectionId: "Required" });
  await preflight(db, websiteId, p);
  return db.transaction(async (tx) => {
    const c = await storeCollection(tx, websiteId, p.collectionId!);
    await checkRoomFor(tx, websiteId, c.id, PRODUCT_LIMIT);
    await checkRefs(tx, websiteId, p);
    const id = newId();
    const urlId = p.urlId
      ? checkUrlId(p.urlId, c.urlSlug)
      : firstFreeUrlId(await takenUrlIds(tx, websiteId, c.id, id), slugify(p.title));
    checkUrlLength(`/${c.urlSlug}/p/${urlId}`);
    const text = textColumns(p);
    await checkCategoryCount(tx, websiteId, c.id, id, text.categories);
    const inserted = await tx
      .insert(contentItems)
      .values({
        id,
        websiteId,
        collectionId: c.id,
        recordType: RecordType.STORE_ITEM,
        urlId,
        ...text,
        mainImageId: p.mainImageId || p.imageIds?.[0] || null,
        status: p.status ?? "published",
        ordering: await nextItemOrdering(tx, c.id),
        structuredContent: structured(p),
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length) throw URL_TAKEN(urlId);
    await writeProduct(tx, websiteId, id, p, []);
    await recordEvent(tx, productEvent(websiteId, "product.created", id));
    await recordVersion(tx, websiteId, { type: "product", id }, "create");
    return productJson(inserted[0]!, await variantsOfItem(tx, websiteId, id), c);
  });
}

export async function updateProduct(
  db: Db,
  websiteId: string,
  productId: string,
  p: ProductInput,
): Promise<ProductJson> {
  await preflight(db, websiteId, p);
  return db.transaction(async (tx) => {
    const item = await itemOf(tx, websiteId, productId);
    const was = await storeCollection(tx, websiteId, item.collectionId);
    let c = was;
    if (p.collectionId && p.collectionId !== item.collectionId) {
      c = await storeCollection(tx, websiteId, p.collectionId);
      await checkRoomFor(tx, websiteId, c.id, PRODUCT_LIMIT);
    }
    await checkRefs(tx, websiteId, p);
    const existing = await variantsOfItem(tx, websiteId, item.id);
    const foreign = p.variants.find((v) => v.id && !existing.some((e) => e.id === v.id));
    if (foreign && p.productType !== ProductType.GIFT_CARD)
      throw badRequest("A variant does not belong to this product.");
    const urlId = p.urlId ? checkUrlId(p.urlId, c.urlSlug) : item.urlId;
    const text = textColumns(p);
    await checkCategoryCount(tx, websiteId, c.id, item.id, text.categories);
    const [clash] = await tx
      .select({ id: contentItems.id })
      .from(contentItems)
      .where(
        and(
          eq(contentItems.websiteId, websiteId),
          eq(contentItems.collectionId, c.id),
          eq(contentItems.urlId, urlId),
          ne(contentItems.id, item.id),
        ),
      );
    if (clash) throw URL_TAKEN(urlId);
    if (item.status === "published") {
      await recordMove(tx, websiteId, `/${was.urlSlug}/p/${item.urlId}`, `/${c.urlSlug}/p/${urlId}`);
    }
    const [row] = await tx
      .update(contentItems)
      .set({
        collectionId: c.id,
        urlId,
        ...text,
        mainImageId: p.mainImageId || p.imageIds?.[0] || null,
        status: p.status ?? item.status,
        structuredContent: structured(p),
        updatedAt: sql`now()`,
      })
      .where(siteRowWhere(contentItems, websiteId, item.id))
      .returning();
    await writeProduct(tx, websiteId, item.id, p, existing);
    await recordEvent(tx, productEvent(websiteId, "product.updated", item.id));
    await recordVersion(tx, websiteId, { type: "product", id: item.id }, "save");
    return productJson(row!, await variantsOfItem(tx, websiteId, item.id), c);
  });
}

export async function deleteProduct(db: Db, websiteId: string, productId: string): Promise<void> {
  const isProduct = eq(contentItems.recordType, RecordType.STORE_ITEM);
  await db.transaction(async (tx) => {
    await recordVersion(tx, websiteId, { type: "product", id: productId }, "delete");
    await moveToTrash(tx, websiteId, "product", productId);
    await deleteSiteRow(tx, contentItems, websiteId, productId, PRODUCT_NOT_FOUND, isProduct);
    await recordEvent(tx, productEvent(websiteId, "product.deleted", productId));
  });
}

/** The domain event of a product created, updated or deleted (webhooks' `product.*`). */
function productEvent(websiteId: string, type: string, productId: string): NewEvent {
  return { websiteId, type, entity: { type: "product", id: productId }, actor: SYSTEM };
}
