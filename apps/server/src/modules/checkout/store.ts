/**
 * What checkout needs from the cart and the catalog: the visitor's open cart with every line
 * priced from the catalog now, stock taken and given back with conditional updates (never
 * below zero, whatever runs at the same time), and the cart marked purchased. The cart and its
 * entries are read through the cart module; stock lives on product variants, which only
 * orders and the owner's inventory change.
 */
import { ProductType, type SubscriptionPlan, parseSubscriptionPlan, tracksStock } from "@atelier/commerce";
import { eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { rowsOf } from "../../db/rows.js";
import { stockChangeCtes, stockNeedsJson } from "../catalog/stock-change.js";
import { carts } from "../../db/schema.js";
import { type CartEntryRow, type CartRow, findCartWithEntries } from "../cart/service.js";
import type { SiteReads } from "../cart/site-reads.js";
import { recordEvents } from "../events/service.js";
import { inventoryUpdated } from "../catalog/inventory.js";

export interface DigitalFile {
  filename: string;
  contentType: string;
  /** Path under DATA_DIR. */
  storagePath: string;
  byteSize?: number;
}

export interface CheckoutLine {
  entryId: string;
  itemId: string;
  variantId: string;
  sku: string;
  title: string;
  url: string;
  imageUrl: string | null;
  productType: number;
  attributes: Record<string, string>;
  quantity: number;
  /** What one unit costs now: the sale price when on sale. */
  unitPriceCents: number;
  /** The product's categories (automatic discounts about categories). */
  categories: string[];
  weightGrams: number;
  /** Physical goods and services with counted stock (digital goods and gift cards never run out). */
  limitedStock: boolean;
  qtyInStock: number;
  isSubscription: boolean;
  subscriptionPlan?: SubscriptionPlan;
  additionalFields: unknown;
  /** Gift cards: who receives the code (from the product form), if not the buyer. */
  giftCardRecipient?: { email?: string; name?: string; message?: string };
  digitalFile?: DigitalFile;
}

interface CheckoutCart {
  cart: CartRow;
  entries: CartEntryRow[];
  lines: CheckoutLine[];
  /** Entries whose product or variant no longer exists. */
  unavailable: CartEntryRow[];
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
}

/** Gift-card recipient from the product form answers ({recipientEmail, recipientName, message}). */
function recipientOf(fields: unknown, options: Record<string, unknown>) {
  const f = (fields && typeof fields === "object" ? fields : {}) as Record<string, unknown>;
  const email = str(options.recipientEmail) ?? str(f.recipientEmail) ?? str(f.email);
  const name = str(options.recipientName) ?? str(f.recipientName) ?? str(f.name);
  const message = str(options.message) ?? str(f.message);
  return email || name || message ? { email, name, message } : undefined;
}

/** The open cart a token names, each line priced from the catalog now. */
export async function loadCheckoutCart(
  db: Db | Tx,
  reads: SiteReads,
  token: string | undefined,
): Promise<CheckoutCart | undefined> {
  const found = await findCartWithEntries(db, reads.site.id, token);
  return found && checkoutCartOf(db, reads, found.cart, found.entries);
}

/** A cart and its entries (read by the caller), each line priced from the catalog now. */
export async function checkoutCartOf(
  db: Db | Tx,
  reads: SiteReads,
  cart: CartRow,
  entries: CartEntryRow[],
): Promise<CheckoutCart> {
  const products = await reads.products(
    db,
    entries.map((e) => e.itemId),
  );
  const lines: CheckoutLine[] = [];
  const unavailable: CartEntryRow[] = [];
  for (const e of entries) {
    const product = products.get(e.itemId);
    const variant = product?.variants.find((v) => v.id === e.variantId);
    if (!product || !variant || product.productType === ProductType.PAYWALL) {
      unavailable.push(e);
      continue;
    }
    const type = product.productType;
    const sc = product.structuredContent;
    const isSubscription = e.options.subscription === true;
    const file = sc.digitalFile as DigitalFile | undefined;
    lines.push({
      entryId: e.id,
      itemId: product.id,
      variantId: variant.id,
      sku: variant.sku,
      title: product.title,
      url: product.url,
      imageUrl: product.imageUrl ?? null,
      productType: type,
      attributes: variant.attributes,
      quantity: e.quantity,
      unitPriceCents: variant.onSale ? variant.salePriceCents : variant.priceCents,
      categories: product.categories,
      weightGrams: variant.weightGrams,
      limitedStock: tracksStock(type) && !variant.unlimited,
      qtyInStock: variant.qtyInStock,
      isSubscription,
      subscriptionPlan: isSubscription
        ? (parseSubscriptionPlan(e.options.subscriptionPlan) ?? parseSubscriptionPlan(sc.subscriptionPlan))
        : undefined,
      additionalFields: e.additionalFields ?? null,
      giftCardRecipient:
        type === ProductType.GIFT_CARD ? recipientOf(e.additionalFields, e.options) : undefined,
      digitalFile:
        type === ProductType.DIGITAL && file && typeof file.storagePath === "string" ? file : undefined,
    });
  }
  return { cart, entries, lines, unavailable };
}

/** Units of one variant with counted stock that an order takes (or gives back). */
export interface StockNeed {
  variantId: string;
  quantity: number;
}

/** Quantities per variant with counted stock, in a fixed order (so concurrent orders lock alike). */
export function stockNeeds(lines: readonly CheckoutLine[]): StockNeed[] {
  const needs = new Map<string, number>();
  for (const l of lines)
    if (l.limitedStock) needs.set(l.variantId, (needs.get(l.variantId) ?? 0) + l.quantity);
  return [...needs]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([variantId, quantity]) => ({ variantId, quantity }));
}

/**
 * Adds units (fewer when `sign` is -1) to variants of the site with counted stock, in one
 * statement (stockChangeCtes: locks in id order, never below 0). Answers the variants it changed
 * with their units now, each with its event recorded.
 */
async function addStock(
  tx: Tx,
  websiteId: string,
  needs: readonly StockNeed[],
  sign: 1 | -1,
): Promise<Map<string, number>> {
  const res = await tx.execute(
    sql`with ${stockChangeCtes(websiteId, stockNeedsJson(needs), sign)} select id, qty_in_stock as qty from stock_changed`,
  );
  const changed = new Map(rowsOf<{ id: string; qty: number }>(res).map((r) => [r.id, Number(r.qty)]));
  await recordEvents(
    tx,
    [...new Set(needs.map((n) => n.variantId))]
      .filter((id) => changed.has(id))
      .map((id) => inventoryUpdated(websiteId, id)),
  );
  return changed;
}

/**
 * Takes stock for an order, all or nothing. Answers false (and takes nothing that the caller's
 * rollback will not give back) when a variant has too few units.
 */
export async function takeStock(
  tx: Tx,
  websiteId: string,
  needs: readonly StockNeed[],
  /** Filled with each variant's units left (when taken). */
  left?: Map<string, number>,
): Promise<boolean> {
  if (!needs.length) return true;
  const variants = new Set(needs.map((n) => n.variantId)).size;
  const changed = await addStock(tx, websiteId, needs, -1);
  for (const [id, qty] of changed) left?.set(id, qty);
  return changed.size === variants;
}

/**
 * The inventory events of taking `needs`, for a caller that writes them and takes the stock
 * right after, all or nothing: its rollback takes the events back with the stock.
 */
export function stockEvents(websiteId: string, needs: readonly StockNeed[]) {
  return [...new Set(needs.map((n) => n.variantId))].map((id) => inventoryUpdated(websiteId, id));
}

/** Gives stock back (a failed payment, a cancelled order, a refund that restocks). */
export async function returnStock(tx: Tx, websiteId: string, needs: readonly StockNeed[]): Promise<void> {
  const back = needs.filter((n) => n.quantity > 0);
  if (back.length) await addStock(tx, websiteId, back, 1);
}

/** Marks the cart bought by an order, or (orderId null) open again after a failed payment. */
export async function setCartPurchased(tx: Tx, cartId: string, orderId: string | null, now: Date) {
  await markCart(tx, { cartId, purchased: orderId !== null, orderId, now: now.toISOString() });
}

const markCart = compiled("checkout_cart_purchased", (db) =>
  db
    .update(carts)
    .set({
      isPurchased: sql`${sql.placeholder("purchased")}::boolean`,
      orderId: sql`${sql.placeholder("orderId")}::text`,
      updatedAt: sql`${sql.placeholder("now")}::timestamptz`,
    })
    .where(eq(carts.id, sql.placeholder("cartId"))),
);
