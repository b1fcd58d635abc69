/**
 * Product reads for the store: variants by product (page contexts use `variantsOf`), one product
 * with its variants for the cart, stock, and the site's feature set. Read-only: stock is only
 * ever changed by orders (checkout) and the owner's inventory.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { collections, contentItems, featureSets, media, productVariants, websites } from "../../db/schema.js";
import { mediaUrl } from "../media/storage.js";

export type Variant = typeof productVariants.$inferSelect;

/** Variants of the given products, grouped by product id, in their order. */
export async function variantsOf(
  db: Db,
  websiteId: string,
  itemIds: string[],
): Promise<Map<string, Variant[]>> {
  const out = new Map<string, Variant[]>();
  if (!itemIds.length) return out;
  const rows = await db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.websiteId, websiteId), inArray(productVariants.itemId, itemIds)))
    .orderBy(asc(productVariants.ordering));
  for (const v of rows) {
    const list = out.get(v.itemId) ?? [];
    list.push(v);
    out.set(v.itemId, list);
  }
  return out;
}

/** A published product as the cart and the restock calls need it. */
export interface CatalogProduct {
  id: string;
  websiteId: string;
  title: string;
  /** The product page, e.g. "/shop/p/linen-work-apron". */
  url: string;
  productType: number;
  structuredContent: Record<string, unknown>;
  variantOptionOrdering: string[];
  /** Main image URL, if the product has one. */
  imageUrl?: string;
  variants: Variant[];
  /** The product's categories (by name). */
  categories: string[];
  /** Placeholder content a starter brought: shown as "Sample", never sold (docs/starters.md). */
  isSample: boolean;
}

/** Published store items of a website by id, with their variants (unknown ids are left out). */
export async function productsByIds(
  db: Db,
  websiteId: string,
  itemIds: readonly string[],
): Promise<Map<string, CatalogProduct>> {
  const ids = [...new Set(itemIds)].filter((id) => id.length > 0 && id.length <= 64);
  const out = new Map<string, CatalogProduct>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      item: contentItems,
      slug: collections.urlSlug,
      kind: collections.kind,
      imageFile: media.filename,
    })
    .from(contentItems)
    .innerJoin(collections, eq(collections.id, contentItems.collectionId))
    .leftJoin(media, eq(media.id, contentItems.mainImageId))
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        inArray(contentItems.id, ids),
        eq(contentItems.recordType, RecordType.STORE_ITEM),
        eq(contentItems.status, "published"),
      ),
    );
  const variants = await variantsOf(
    db,
    websiteId,
    rows.map((r) => r.item.id),
  );
  for (const { item, slug, kind, imageFile } of rows) {
    const sc = (item.structuredContent ?? {}) as Record<string, unknown>;
    const ordering = Array.isArray(sc.variantOptionOrdering)
      ? sc.variantOptionOrdering.filter((x): x is string => typeof x === "string")
      : [];
    out.set(item.id, {
      id: item.id,
      websiteId: item.websiteId,
      title: item.title,
      url: kind === "products" ? `/${slug}/p/${item.urlId}` : `/${slug}/${item.urlId}`,
      productType: Number(sc.productType ?? 1),
      structuredContent: sc,
      variantOptionOrdering: ordering,
      imageUrl: item.mainImageId && imageFile ? mediaUrl(item.mainImageId, imageFile) : undefined,
      variants: variants.get(item.id) ?? [],
      categories: item.categories,
      isSample: item.isSample,
    });
  }
  return out;
}

/** One published product of a website, or undefined. */
export async function productById(
  db: Db,
  websiteId: string,
  itemId: string,
): Promise<CatalogProduct | undefined> {
  return (await productsByIds(db, websiteId, [itemId])).get(itemId);
}

/** Image URLs of variants that have their own image, by variant id. */
export async function variantImageUrls(db: Db, variants: readonly Variant[]): Promise<Map<string, string>> {
  const withImage = variants.filter((v) => v.mainImageId);
  if (!withImage.length) return new Map();
  const rows = await db
    .select({ id: media.id, filename: media.filename })
    .from(media)
    .where(
      inArray(
        media.id,
        withImage.map((v) => v.mainImageId!),
      ),
    );
  const files = new Map(rows.map((r) => [r.id, r.filename]));
  const out = new Map<string, string>();
  for (const v of withImage) {
    const file = files.get(v.mainImageId!);
    if (file) out.set(v.id, mediaUrl(v.mainImageId!, file));
  }
  return out;
}

/**
 * The product as the rules of @atelier/commerce read it: {structuredContent: {productType,
 * variants: [{id, sku, attributes, qtyInStock, unlimited, …}], variantOptionOrdering}}.
 */
export function productForRules(p: CatalogProduct) {
  return {
    id: p.id,
    variantOptionOrdering: p.variantOptionOrdering,
    structuredContent: {
      ...p.structuredContent,
      productType: p.productType,
      variantOptionOrdering: p.variantOptionOrdering,
      variants: p.variants.map((v) => ({
        id: v.id,
        sku: v.sku,
        attributes: v.attributes,
        qtyInStock: v.qtyInStock,
        unlimited: v.unlimited,
        onSale: v.onSale,
        price: v.priceCents,
        salePrice: v.salePriceCents,
      })),
    },
  };
}

/** Whether the website's plan enables a feature (SPEC §6: subscriptions need commerce-subscriptions). */
export async function websiteHasFeature(db: Db, websiteId: string, feature: number): Promise<boolean> {
  const [row] = await db
    .select({ enabled: featureSets.enabledFeatures })
    .from(websites)
    .innerJoin(featureSets, eq(featureSets.id, websites.featureSetId))
    .where(eq(websites.id, websiteId));
  return Boolean(row?.enabled.includes(feature));
}
