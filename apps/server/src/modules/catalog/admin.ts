/**
 * Product editing for owners: products of every type with their variants (option ordering, sku,
 * price, sale price, stock or unlimited, image), images, additional-fields form, custom add-button
 * text, subscription plan, gift-card denominations and scarcity text; and the inventory panel
 * (search, sort by name, stock or price, paging, quick stock changes).
 *
 * The store's read side (catalog/service.ts) is the cart's; this file only writes products.
 */
import { seoFieldErrors, seoValues } from "../seo/fields.js";
import { recordMove } from "../redirects/service.js";
import { enqueueRestockCheck } from "../restock/service.js";
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { ProductType, RecordType } from "../../db/enums.js";
import {
  analyticsEvents,
  collections,
  contentItems,
  forms,
  media,
  productVariants,
} from "../../db/schema.js";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { Feature } from "../../seed/billing-catalog.js";
import { mediaUrl } from "../media/storage.js";
import {
  LIMIT_MESSAGES,
  MAX_CATEGORY_LENGTH,
  MAX_NESTED_CATEGORIES,
  MAX_PRODUCTS_PER_COLLECTION,
  MAX_TAG_LENGTH,
  urlWithinLimit,
} from "../pages/limits.js";
import { htmlToText, sanitizeRichText } from "../../lib/sanitize-html.js";
import { slugify } from "../pages/service.js";
import { websiteHasFeature } from "./service.js";

export const PRODUCT_NOT_FOUND = "No such product.";
export const MAX_VARIANTS = 250;
export const MAX_OPTIONS = 6;
export const MAX_PRICE_CENTS = 100_000_000;
export const MAX_STOCK = 10_000_000;
export const SUBSCRIPTION_TYPES_ONLY = "Subscriptions are only for physical and service products.";
export const SUBSCRIPTION_UPSELL =
  "Selling subscriptions needs the commerce-subscriptions feature. Upgrade to the Commerce Advanced plan to sell subscriptions.";
export const SALE_PRICE_BELOW = "The sale price must be lower than the price.";

export interface VariantInput {
  id?: string;
  sku?: string;
  attributes?: Record<string, string>;
  priceCents: number;
  salePriceCents?: number;
  onSale?: boolean;
  qtyInStock?: number;
  unlimited?: boolean;
  weightGrams?: number;
  mainImageId?: string | null;
}

export interface ProductInput {
  collectionId?: string;
  title: string;
  urlId?: string;
  productType: number;
  status?: "published" | "draft";
  body?: string;
  excerpt?: string;
  tags?: string[];
  categories?: string[];
  mainImageId?: string | null;
  imageIds?: string[];
  variantOptionOrdering?: string[];
  variants: VariantInput[];
  isSubscribable?: boolean;
  subscriptionPlan?: {
    billingPeriod: { value: number; unit: "WEEK" | "MONTH" | "YEAR" };
    numBillingCycles: number;
  } | null;
  giftCardDenominations?: number[];
  scarcityText?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string;
  additionalFieldsFormId?: string | null;
}

type Item = typeof contentItems.$inferSelect;
type Variant = typeof productVariants.$inferSelect;

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
    title: item.title,
    urlId: item.urlId,
    fullUrl: `/${collection.urlSlug}/p/${item.urlId}`,
    status: item.status,
    body: item.body,
    excerpt: item.excerpt,
    seoTitle: item.seoTitle ?? "",
    seoDescription: item.seoDescription ?? "",
    seoHidden: item.seoHidden,
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
      id: v.id,
      sku: v.sku,
      attributes: v.attributes,
      priceCents: v.priceCents,
      salePriceCents: v.salePriceCents,
      onSale: v.onSale,
      qtyInStock: v.qtyInStock,
      unlimited: v.unlimited,
      weightGrams: v.weightGrams,
      mainImageId: v.mainImageId,
    })),
    updatedAt: item.updatedAt.toISOString(),
  };
}
export type ProductJson = ReturnType<typeof productJson>;

async function storeCollection(db: Db | Tx, websiteId: string, collectionId: string) {
  const [c] = await db
    .select()
    .from(collections)
    .where(and(eq(collections.websiteId, websiteId), eq(collections.id, collectionId)));
  if (c?.kind !== "products")
    throw badRequest("Choose a store page for the product.", { collectionId: "Not a store page" });
  return c;
}

async function itemOf(db: Db | Tx, websiteId: string, productId: string): Promise<Item> {
  const [row] = await db
    .select()
    .from(contentItems)
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        eq(contentItems.id, productId),
        eq(contentItems.recordType, RecordType.STORE_ITEM),
      ),
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

const int = (v: unknown) => typeof v === "number" && Number.isInteger(v);

/** Checks a product as the editor sends it; answers the field errors keyed as the form names them. */
function checkProduct(p: ProductInput): Record<string, string> {
  const f: Record<string, string> = {};
  if (!p.title.trim()) f.title = "Please give the product a name.";
  else if (p.title.length > 200) f.title = "A product name can be at most 200 characters.";
  if (
    ![ProductType.PHYSICAL, ProductType.DIGITAL, ProductType.SERVICE, ProductType.GIFT_CARD].includes(
      p.productType as 1,
    )
  )
    f.productType = "Choose physical, digital, service or gift card.";
  const options = p.variantOptionOrdering ?? [];
  if (options.length > MAX_OPTIONS)
    f.variantOptionOrdering = `A product can have at most ${MAX_OPTIONS} options.`;
  if (new Set(options.map((o) => o.trim().toLowerCase())).size !== options.length)
    f.variantOptionOrdering = "Two options have the same name.";
  if (options.some((o) => !o.trim() || o.length > 30))
    f.variantOptionOrdering = "Option names are 1 to 30 characters.";
  if (p.productType === ProductType.GIFT_CARD) {
    const d = p.giftCardDenominations ?? [];
    if (!d.length) f.giftCardDenominations = "Add at least one gift card amount.";
    else if (d.length > 20) f.giftCardDenominations = "A gift card can have at most 20 amounts.";
    else if (d.some((x) => !int(x) || x <= 0 || x > MAX_PRICE_CENTS))
      f.giftCardDenominations = "Gift card amounts must be positive amounts.";
    else if (new Set(d).size !== d.length) f.giftCardDenominations = "Each gift card amount can appear once.";
  } else {
    if (!p.variants.length) f.variants = "A product needs at least one variant with a price.";
    if (p.variants.length > MAX_VARIANTS) f.variants = `A product can have at most ${MAX_VARIANTS} variants.`;
  }
  const combos = new Set<string>();
  p.variants.forEach((v, i) => {
    const k = (name: string) => `variants.${i}.${name}`;
    if (!int(v.priceCents) || v.priceCents < 0 || v.priceCents > MAX_PRICE_CENTS)
      f[k("priceCents")] = "Enter a price.";
    if (v.onSale) {
      if (!int(v.salePriceCents) || (v.salePriceCents ?? 0) < 0)
        f[k("salePriceCents")] = "Enter a sale price.";
      else if ((v.salePriceCents ?? 0) >= v.priceCents) f[k("salePriceCents")] = SALE_PRICE_BELOW;
    }
    if (
      !v.unlimited &&
      v.qtyInStock !== undefined &&
      (!int(v.qtyInStock) || v.qtyInStock < 0 || v.qtyInStock > MAX_STOCK)
    )
      f[k("qtyInStock")] = "Stock is a whole number, 0 or more.";
    if (
      v.weightGrams !== undefined &&
      (!int(v.weightGrams) || v.weightGrams < 0 || v.weightGrams > 1_000_000)
    )
      f[k("weightGrams")] = "Weight is a whole number of grams.";
    if (v.sku?.trim() && !/^[\w.\-/#+]{1,64}$/.test(v.sku.trim()))
      f[k("sku")] = "A SKU is up to 64 letters, digits and - _ . / # +.";
    if (p.productType === ProductType.GIFT_CARD) return;
    const attrs = v.attributes ?? {};
    const keys = Object.keys(attrs);
    if (keys.length !== options.length || options.some((o) => !(o in attrs)))
      f[k("attributes")] = options.length
        ? `Choose a value for ${options.join(", ")}.`
        : "This product has no options.";
    else if (Object.values(attrs).some((val) => typeof val !== "string" || !val.trim() || val.length > 100))
      f[k("attributes")] = "Option values are 1 to 100 characters.";
    else {
      const combo = JSON.stringify(options.map((o) => attrs[o]!.trim().toLowerCase()));
      if (combos.has(combo)) f[k("attributes")] = "Another variant has the same options.";
      combos.add(combo);
    }
  });
  if (p.isSubscribable && p.productType !== ProductType.PHYSICAL && p.productType !== ProductType.SERVICE)
    f.isSubscribable = SUBSCRIPTION_TYPES_ONLY;
  if (p.isSubscribable) {
    const plan = p.subscriptionPlan;
    if (!plan) f.subscriptionPlan = "Choose how often the subscription bills.";
    else {
      if (!int(plan.billingPeriod.value) || plan.billingPeriod.value < 1 || plan.billingPeriod.value > 52)
        f["subscriptionPlan.billingPeriod.value"] = "Bill every 1 to 52 periods.";
      if (!["WEEK", "MONTH", "YEAR"].includes(plan.billingPeriod.unit))
        f["subscriptionPlan.billingPeriod.unit"] = "Choose weeks, months or years.";
      if (!int(plan.numBillingCycles) || plan.numBillingCycles < 0 || plan.numBillingCycles > 1000)
        f["subscriptionPlan.numBillingCycles"] = "Enter the number of payments (0 for until cancelled).";
    }
  }
  if ((p.scarcityText ?? "").length > 200) f.scarcityText = "At most 200 characters.";
  Object.assign(f, seoFieldErrors(p));
  if (p.useCustomAddButtonText && !(p.customAddButtonText ?? "").trim())
    f.customAddButtonText = "Enter the button text, or turn custom text off.";
  if ((p.customAddButtonText ?? "").length > 60) f.customAddButtonText = "At most 60 characters.";
  if ((p.excerpt ?? "").length > 2000) f.excerpt = "At most 2000 characters.";
  if ((p.body ?? "").length > 100_000) f.body = "The description is too long.";
  const cats = p.categories ?? [];
  if (cats.some((c) => c.length > MAX_CATEGORY_LENGTH)) f.categories = LIMIT_MESSAGES.category;
  const tags = p.tags ?? [];
  if (tags.some((t) => t.length > MAX_TAG_LENGTH)) f.tags = LIMIT_MESSAGES.tag;
  if ((p.imageIds ?? []).length > 50) f.imageIds = "A product can have at most 50 images.";
  return f;
}

async function checkRefs(tx: Tx, websiteId: string, p: ProductInput) {
  const mediaIds = [p.mainImageId, ...(p.imageIds ?? []), ...p.variants.map((v) => v.mainImageId)].filter(
    (x): x is string => typeof x === "string" && x.length > 0,
  );
  const unique = [...new Set(mediaIds)];
  if (unique.length) {
    const rows = await tx
      .select({ id: media.id })
      .from(media)
      .where(and(eq(media.websiteId, websiteId), inArray(media.id, unique)));
    if (rows.length !== unique.length)
      throw badRequest("An image is not in this site's media library.", { imageIds: "Unknown image" });
  }
  if (p.additionalFieldsFormId) {
    const [form] = await tx
      .select({ id: forms.id })
      .from(forms)
      .where(and(eq(forms.websiteId, websiteId), eq(forms.id, p.additionalFieldsFormId)));
    if (!form)
      throw badRequest("Choose one of this site's forms.", { additionalFieldsFormId: "Unknown form" });
  }
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

function clean(list: string[] | undefined): string[] {
  return [...new Set((list ?? []).map((s) => s.trim()).filter(Boolean))];
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
  const physicalLike = p.productType === ProductType.PHYSICAL || p.productType === ProductType.SERVICE;
  const neverSoldOut = !physicalLike;
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
        .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.id, own.id)));
    } else {
      await tx.insert(productVariants).values({ id: newId(), websiteId, itemId, ...values });
    }
  }
}

function structured(p: ProductInput) {
  const subscribable = Boolean(p.isSubscribable);
  return {
    productType: p.productType,
    variantOptionOrdering:
      p.productType === ProductType.GIFT_CARD ? [] : (p.variantOptionOrdering ?? []).map((o) => o.trim()),
    isSubscribable: subscribable,
    subscriptionPlan: subscribable ? p.subscriptionPlan : undefined,
    scarcityText: p.scarcityText?.trim() || undefined,
    useCustomAddButtonText: Boolean(p.useCustomAddButtonText),
    customAddButtonText: htmlToText(p.customAddButtonText ?? ""),
    giftCardDenominations: p.productType === ProductType.GIFT_CARD ? p.giftCardDenominations : undefined,
    additionalFieldsFormId: p.additionalFieldsFormId || undefined,
  };
}

async function preflight(db: Db, websiteId: string, p: ProductInput) {
  const fields = checkProduct(p);
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
  if (p.isSubscribable && !(await websiteHasFeature(db, websiteId, Feature.COMMERCE_SUBSCRIPTIONS)))
    throw new ApiError(402, "upgrade_required", SUBSCRIPTION_UPSELL, { isSubscribable: SUBSCRIPTION_UPSELL });
}

async function uniqueUrlId(tx: Tx, websiteId: string, collectionId: string, wanted: string, itemId: string) {
  const rows = await tx
    .select({ urlId: contentItems.urlId })
    .from(contentItems)
    .where(
      and(
        eq(contentItems.websiteId, websiteId),
        eq(contentItems.collectionId, collectionId),
        ne(contentItems.id, itemId),
      ),
    );
  const taken = new Set(rows.map((r) => r.urlId));
  if (!taken.has(wanted)) return wanted;
  for (let i = 2; ; i++) if (!taken.has(`${wanted}-${i}`)) return `${wanted}-${i}`;
}

function checkUrlId(urlId: string, collectionSlug: string): string {
  const s = urlId.trim().toLowerCase();
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s))
    throw badRequest("A URL slug can use only lowercase letters, digits and single hyphens.", {
      urlId: "Invalid",
    });
  if (!urlWithinLimit(`/${collectionSlug}/p/${s}`))
    throw badRequest(LIMIT_MESSAGES.url, { urlId: LIMIT_MESSAGES.url });
  return s;
}

export async function createProduct(db: Db, websiteId: string, p: ProductInput): Promise<ProductJson> {
  if (!p.collectionId) throw badRequest("Choose a store page for the product.", { collectionId: "Required" });
  await preflight(db, websiteId, p);
  return db.transaction(async (tx) => {
    const c = await storeCollection(tx, websiteId, p.collectionId!);
    const [{ n }] = (await tx
      .select({ n: count() })
      .from(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)))) as [
      { n: number },
    ];
    if (Number(n) >= MAX_PRODUCTS_PER_COLLECTION) throw conflict(LIMIT_MESSAGES.products);
    await checkRefs(tx, websiteId, p);
    const id = newId();
    const urlId = p.urlId
      ? checkUrlId(p.urlId, c.urlSlug)
      : await uniqueUrlId(tx, websiteId, c.id, slugify(p.title), id);
    if (!urlWithinLimit(`/${c.urlSlug}/p/${urlId}`))
      throw badRequest(LIMIT_MESSAGES.url, { urlId: LIMIT_MESSAGES.url });
    const categories = clean(p.categories);
    await checkCategories(tx, websiteId, c.id, id, categories);
    const [{ max }] = (await tx
      .select({ max: sql<number>`coalesce(max(${contentItems.ordering}), -1)` })
      .from(contentItems)
      .where(eq(contentItems.collectionId, c.id))) as [{ max: number }];
    const inserted = await tx
      .insert(contentItems)
      .values({
        id,
        websiteId,
        collectionId: c.id,
        recordType: RecordType.STORE_ITEM,
        urlId,
        title: p.title.trim(),
        body: sanitizeRichText(p.body ?? ""),
        excerpt: sanitizeRichText(p.excerpt ?? ""),
        ...seoValues(p),
        tags: clean(p.tags),
        categories,
        mainImageId: p.mainImageId || p.imageIds?.[0] || null,
        imageIds: p.imageIds ?? [],
        status: p.status ?? "published",
        ordering: Number(max) + 1,
        structuredContent: structured(p),
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted.length)
      throw new ApiError(409, "conflict", `Another product already uses the URL ${urlId}.`, {
        urlId: "Taken",
      });
    await writeProduct(tx, websiteId, id, p, []);
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
      const [{ n }] = (await tx
        .select({ n: count() })
        .from(contentItems)
        .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.collectionId, c.id)))) as [
        { n: number },
      ];
      if (Number(n) >= MAX_PRODUCTS_PER_COLLECTION) throw conflict(LIMIT_MESSAGES.products);
    }
    await checkRefs(tx, websiteId, p);
    const existing = await variantsOfItem(tx, websiteId, item.id);
    const foreign = p.variants.find((v) => v.id && !existing.some((e) => e.id === v.id));
    if (foreign && p.productType !== ProductType.GIFT_CARD)
      throw badRequest("A variant does not belong to this product.");
    const urlId = p.urlId ? checkUrlId(p.urlId, c.urlSlug) : item.urlId;
    const categories = clean(p.categories);
    await checkCategories(tx, websiteId, c.id, item.id, categories);
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
    if (clash)
      throw new ApiError(409, "conflict", `Another product already uses the URL ${urlId}.`, {
        urlId: "Taken",
      });
    if (item.status === "published") {
      await recordMove(tx, websiteId, `/${was.urlSlug}/p/${item.urlId}`, `/${c.urlSlug}/p/${urlId}`);
    }
    const [row] = await tx
      .update(contentItems)
      .set({
        collectionId: c.id,
        urlId,
        title: p.title.trim(),
        body: sanitizeRichText(p.body ?? ""),
        excerpt: sanitizeRichText(p.excerpt ?? ""),
        ...seoValues(p),
        tags: clean(p.tags),
        categories,
        mainImageId: p.mainImageId || p.imageIds?.[0] || null,
        imageIds: p.imageIds ?? [],
        status: p.status ?? item.status,
        structuredContent: structured(p),
        updatedAt: sql`now()`,
      })
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, item.id)))
      .returning();
    await writeProduct(tx, websiteId, item.id, p, existing);
    return productJson(row!, await variantsOfItem(tx, websiteId, item.id), c);
  });
}

export async function deleteProduct(db: Db, websiteId: string, productId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await itemOf(tx, websiteId, productId);
    await tx
      .delete(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.id, productId)));
  });
}

// ─── Inventory ──────────────────────────────────────────────────────────────────────────────

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
  const pageSize = Math.min(200, Math.max(1, query.pageSize ?? 20));
  const page = Math.max(1, query.page ?? 1);
  const conditions = [
    eq(contentItems.websiteId, websiteId),
    eq(contentItems.recordType, RecordType.STORE_ITEM),
  ];
  if (query.collectionId) conditions.push(eq(contentItems.collectionId, query.collectionId));
  const q = query.q?.trim();
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
      .offset((page - 1) * pageSize),
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
        productType: Number(sc.productType ?? 1),
        imageUrl: r.item.mainImageId && r.imageFile ? mediaUrl(r.item.mainImageId, r.imageFile) : null,
        priceCents: r.price === null ? null : Number(r.price),
        stock: Number(r.stock),
        unlimited: Boolean(r.unlimited),
        variantCount: Number(r.variantCount),
        variants: variants
          .filter((v) => v.itemId === r.item.id)
          .map((v) => ({
            id: v.id,
            sku: v.sku,
            attributes: v.attributes,
            priceCents: v.priceCents,
            salePriceCents: v.salePriceCents,
            onSale: v.onSale,
            qtyInStock: v.qtyInStock,
            unlimited: v.unlimited,
          })),
      };
    }),
    total,
    page,
    pageSize,
    hasNextPage: page * pageSize < total,
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
      .where(and(eq(productVariants.websiteId, websiteId), eq(productVariants.id, variantId)))
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
  await db.insert(analyticsEvents).values({
    websiteId,
    actor: "user",
    action: e.action,
    objectType: e.objectType,
    pagePath: e.pagePath ?? null,
    sessionId: e.sessionId ?? null,
    data: e.data ?? {},
  });
}
