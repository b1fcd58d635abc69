/**
 * Shopping carts (SPEC §3, §5, §7). A visitor's cart is found by the token in their cart cookie
 * (stored hashed in carts.token_hash). Every call re-checks the rules the browser applies, with
 * the shared rules of @atelier/commerce. Adding never reserves or decrements stock: stock only
 * changes when an order is placed. A change to a cart the call's rate-limit count read (SeenCart)
 * is one statement that writes only if the cart is unchanged since (its row version); otherwise
 * the call is one transaction that locks the cart row first. Either way concurrent adds to one
 * cart are applied one after the other and none is lost.
 */
import {
  type CartEntryJson,
  type CartJson,
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  ProductType,
  canBeSubscription,
  cartDiscounts,
  computeCartTotals,
  parseSubscriptionPlan,
  tracksStock,
  validateAddToCart,
  validateQuantity,
} from "@atelier/commerce";
import { MSG_FORM_INVALID, parseFields, validateForm } from "@atelier/forms";
import { type SQL, and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled, compiledSql, rowOf } from "../../db/compiled.js";
import { cartEntries, carts } from "../../db/schema.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { Feature } from "@atelier/owner-api";
import { type CatalogProduct, type Variant, productForRules, websiteHasFeature } from "../catalog/service.js";
import { keptActiveDiscounts } from "../discounts/service.js";
import { formOfSite } from "../forms/service.js";
import type { SiteReads } from "./site-reads.js";

export type CartRow = typeof carts.$inferSelect;
export type CartEntryRow = typeof cartEntries.$inferSelect;

/** Days a cart cookie lives. */
export const CART_COOKIE_DAYS = 30;
/** Longest additionalFields JSON string accepted. */
const ADDITIONAL_FIELDS_MAX = 20_000;

export const MSG_ADDITIONAL_FIELDS_INVALID = "Additional fields must be a JSON object.";
export const MSG_ENTRY_NOT_FOUND = "That item is no longer in your cart.";
export const MSG_SUBSCRIPTION_PRODUCT_TYPE =
  "Subscriptions are only available for physical and service products.";
export const MSG_SUBSCRIPTION_NOT_SUBSCRIBABLE = "This product is not sold as a subscription.";
export const MSG_SUBSCRIPTION_FEATURE = "Subscriptions are not available on this site's plan.";
export const MSG_SAMPLE_PRODUCT =
  "This is a sample product that shows how the shop will look; it cannot be bought.";
const MSG_SERVICE_SINGLE = "Only one of this service can be added to the cart.";

// ─── The cart as the API answers it (SPEC §3; shapes in @atelier/commerce) ─────────────────

/** What the cart call needs to know about the visitor. */
export interface CartOwner {
  websiteId: string;
  /** Token from the cart cookie, if any. */
  token?: string;
  /** The site's settings and products at the version the call was counted at. */
  reads: SiteReads;
  /**
   * The open cart of `token` as the call's count read it (openCartJson), with its version; null
   * when it read none; undefined when it did not read it.
   */
  seen?: SeenCart | null;
}

/** An open cart read without a lock: its row, its entries, and its row version (xmin), which any write to it changes. */
export interface SeenCart {
  cart: CartRow;
  entries: CartEntryRow[];
  version: string;
}

function priceOf(v: Variant): number {
  return v.onSale ? v.salePriceCents : v.priceCents;
}

/** The empty cart of a visitor who has none yet. */
function emptyCart(websiteId: string, currencyCode: string): CartJson {
  return {
    id: null,
    websiteId,
    orderId: null,
    created: null,
    isPurchased: false,
    currencyCode,
    entries: [],
    shippingOptions: [],
    selectedShippingOption: null,
    shippingLocation: {},
    applicableTaxRules: [],
    coupons: [],
    validCoupons: [],
    invalidCoupons: [],
    discounts: [],
    ...computeCartTotals([]),
  };
}

/** Builds the cart JSON from its row and entries, pricing every line from the catalog now. */
async function cartJson(
  db: Db | Tx,
  reads: SiteReads,
  cart: CartRow,
  entries: CartEntryRow[],
  now: Date,
): Promise<CartJson> {
  // One after the other: `db` may be a transaction, whose connection runs one query at a time.
  const settings = await reads.settings(db);
  const products = await reads.products(
    db,
    entries.map((e) => e.itemId),
  );
  const currencyCode = settings.store.currency;
  const lines: CartEntryJson[] = [];
  for (const e of entries) {
    const product = products.get(e.itemId);
    const variant = product?.variants.find((v) => v.id === e.variantId);
    const available = Boolean(product && variant);
    const price = variant ? priceOf(variant) : 0;
    lines.push({
      id: e.id,
      itemId: e.itemId,
      variantId: e.variantId,
      sku: e.sku,
      chosenVariant: {
        id: variant?.id ?? null,
        sku: e.sku,
        attributes: variant?.attributes ?? {},
        qtyInStock: variant?.qtyInStock ?? 0,
        unlimited: variant?.unlimited ?? false,
      },
      quantity: e.quantity,
      additionalFields: e.additionalFields ?? null,
      title: product?.title ?? "",
      url: product?.url ?? "",
      imageUrl: product?.imageUrl ?? null,
      productType: product?.productType ?? ProductType.PHYSICAL,
      purchasePriceCents: price,
      unitPriceCents: variant?.priceCents ?? 0,
      onSale: variant?.onSale ?? false,
      subTotal: price * e.quantity,
      currencyCode,
      isSubscription: e.options.subscription === true,
      available,
    });
  }
  const priced = lines
    .filter((l) => l.available)
    .map((l) => ({
      unitPriceCents: l.purchasePriceCents,
      quantity: l.quantity,
      productType: l.productType,
      itemId: l.itemId,
      categories: products.get(l.itemId)?.categories ?? [],
    }));
  const automaticDiscounts = priced.length ? await keptActiveDiscounts(db, reads) : [];
  const discount = cartDiscounts(priced, {
    currency: currencyCode,
    now,
    timeZone: reads.site.timeZone,
    automaticDiscounts,
  });
  const totals = computeCartTotals(priced, { discountCents: discount.discountCents });
  return {
    id: cart.id,
    websiteId: cart.websiteId,
    orderId: cart.orderId,
    created: cart.createdAt.getTime(),
    isPurchased: cart.isPurchased,
    currencyCode,
    entries: lines,
    shippingOptions: [],
    selectedShippingOption: cart.selectedShippingOptionId,
    shippingLocation: cart.shippingLocation ?? {},
    applicableTaxRules: [],
    coupons: cart.couponCodes,
    validCoupons: [],
    invalidCoupons: [],
    discounts: discount.discounts,
    ...totals,
  };
}

// ─── Finding and creating carts ──────────────────────────────────────────────────────────────

/** The open (not purchased) cart a token names on a website, optionally locked for update. */
const cartByToken = (db: Db) =>
  db
    .select()
    .from(carts)
    .where(
      and(
        eq(carts.tokenHash, sql.placeholder("tokenHash")),
        eq(carts.websiteId, sql.placeholder("websiteId")),
        eq(carts.isPurchased, false),
      ),
    );
const openCart = compiled("cart_open", cartByToken);
const openCartLocked = compiled("cart_open_locked", (db) => cartByToken(db).for("update"));

export async function findCart(
  db: Db | Tx,
  websiteId: string,
  token: string | undefined,
  opts: { lock?: boolean } = {},
): Promise<CartRow | undefined> {
  if (!token || token.length > 200) return undefined;
  const values = { tokenHash: hashToken(token), websiteId };
  const [row] = opts.lock ? await openCartLocked(db, values) : await openCart(db, values);
  return row;
}

/**
 * The open cart a token names with its entries (in their order): read in one statement, or, to
 * lock the cart for update, in two: the lock first, then the entries, read after it is granted.
 * (One statement would read the entries as they were when it started, before the transaction
 * that held the lock committed, and a change made meanwhile would be lost.)
 */
export async function findCartWithEntries(
  db: Db | Tx,
  websiteId: string,
  token: string | undefined,
  opts: { lock?: boolean } = {},
): Promise<{ cart: CartRow; entries: CartEntryRow[] } | undefined> {
  if (!token || token.length > 200) return undefined;
  if (opts.lock) {
    const cart = await findCart(db, websiteId, token, opts);
    return cart && { cart, entries: await entriesOf(db, cart.id) };
  }
  const rows = await openCartWithEntries(db, { tokenHash: hashToken(token), websiteId });
  const first = rows[0];
  if (!first) return undefined;
  const entries: CartEntryRow[] = [];
  for (const r of rows) if (r.entry) entries.push(r.entry);
  return { cart: first.cart, entries };
}

const openCartWithEntries = compiled("cart_open_with_entries", (db) =>
  db
    .select({ cart: carts, entry: cartEntries })
    .from(carts)
    .leftJoin(cartEntries, eq(cartEntries.cartId, carts.id))
    .where(
      and(
        eq(carts.tokenHash, sql.placeholder("tokenHash")),
        eq(carts.websiteId, sql.placeholder("websiteId")),
        eq(carts.isPurchased, false),
      ),
    )
    .orderBy(asc(cartEntries.createdAt), asc(cartEntries.id)),
);

const cartEntriesInOrder = compiled("cart_entries", (db) =>
  db
    .select()
    .from(cartEntries)
    .where(eq(cartEntries.cartId, sql.placeholder("cartId")))
    .orderBy(asc(cartEntries.createdAt), asc(cartEntries.id)),
);

/** A cart's entries in their order. */
function entriesOf(db: Db | Tx, cartId: string): Promise<CartEntryRow[]> {
  return cartEntriesInOrder(db, { cartId });
}

/**
 * The open cart whose token hash is the placeholder `tokenHash` on the site `siteId`, as one JSON
 * value: its row, its version (xmin: every write to the cart, an entry's included, changes it)
 * and its entries in their order; null when there is none. The cart is found by its token alone
 * (its unique index; offset 0 keeps the planner from reaching it by the site's carts instead).
 * For a call's rate-limit count to read in its own statement (rate-limit.ts ReadWithCount); a
 * write made from it checks the version.
 */
export function openCartJson(siteId: SQL): SQL {
  return sql`(select jsonb_build_object('row', to_jsonb(c), 'version', c.version, 'entries', coalesce(
      (select jsonb_agg(to_jsonb(e) order by e.created_at, e.id) from cart_entries e where e.cart_id = c.id),
      '[]'::jsonb))
    from (select carts.*, xmin::text as version from carts where token_hash = ${sql.placeholder("tokenHash")} offset 0) c
    where c.website_id = ${siteId} and c.is_purchased = false)`;
}

/** The value of openCartJson's `tokenHash` for a cart token (null without one). */
export function tokenHashValue(token: string | undefined): string | null {
  return token && token.length <= 200 ? hashToken(token) : null;
}

/** What openCartJson read, as rows. */
export function seenCartOfJson(json: unknown): SeenCart | null {
  if (!json) return null;
  const seen = json as { row: Record<string, unknown>; version: string; entries: Record<string, unknown>[] };
  return {
    cart: rowOf(carts, seen.row),
    version: seen.version,
    entries: seen.entries.map((e) => rowOf(cartEntries, e)),
  };
}

/** A cart (open or purchased) and its entries by the cart's id, for the recovery emails. */
export async function cartById(
  db: Db | Tx,
  websiteId: string,
  cartId: string,
): Promise<{ cart: CartRow; entries: CartEntryRow[] } | undefined> {
  const [cart] = await db
    .select()
    .from(carts)
    .where(and(eq(carts.id, cartId), eq(carts.websiteId, websiteId)));
  return cart && { cart, entries: await entriesOf(db, cart.id) };
}

/**
 * Gives an open cart a new cookie token (a recovery link restoring it in another browser): the
 * answer is the token for that browser's cart cookie; an older cookie no longer names the cart.
 */
export async function renewCartToken(tx: Tx, cartId: string, now: Date): Promise<string | undefined> {
  const token = newToken();
  const [row] = await tx
    .update(carts)
    .set({ tokenHash: hashToken(token), updatedAt: now })
    .where(and(eq(carts.id, cartId), eq(carts.isPurchased, false)))
    .returning({ id: carts.id });
  return row ? token : undefined;
}

/** A new cart's row, as the database would hold it once inserted (see insertCartWithEntry). */
function newCart(websiteId: string, now: Date): { cart: CartRow; token: string } {
  const token = newToken();
  const cart: CartRow = {
    id: newId(),
    websiteId,
    tokenHash: hashToken(token),
    siteUserId: null,
    isPurchased: false,
    orderId: null,
    shippingLocation: null,
    selectedShippingOptionId: null,
    couponCodes: [],
    createdAt: now,
    updatedAt: now,
  };
  return { cart, token };
}

const jsonb = (value: unknown) => (value == null ? null : JSON.stringify(value));

const p = sql.placeholder;

/** Inserts the entry given by the placeholders when `when` holds. */
const insertEntrySql = (
  when: SQL,
) => sql`insert into cart_entries (id, website_id, cart_id, item_id, variant_id, sku, quantity, additional_fields, options, created_at)
    select ${p("entryId")}, ${p("websiteId")}, ${p("cartId")}, ${p("itemId")}, ${p("variantId")}, ${p("sku")},
      ${p("quantity")}::int, ${p("additionalFields")}::jsonb, ${p("options")}::jsonb, ${p("createdAt")}::timestamptz
    where ${when}
    returning id`;

/**
 * A statement writing one entry of the cart `cartId` and touching the cart (updated at `now`) in
 * a CTE: `locked` for a cart the transaction has locked; `checked` for one read without a lock,
 * which touches the cart and writes the entry only if the cart is still open at the row version
 * `version` (SeenCart), and answers no row otherwise.
 */
function entryWrite(name: string, write: (when: SQL) => SQL) {
  const touching = (checked: boolean) => () =>
    sql`with touched as (
      update carts set updated_at = ${p("now")}::timestamptz where id = ${p("cartId")}
        ${checked ? sql`and xmin::text = ${p("version")} and is_purchased = false` : sql``}
      returning id
    ) ${write(checked ? sql`exists (select from touched)` : sql`true`)}`;
  return {
    locked: compiledSql<{ id: string }>(name, touching(false)),
    checked: compiledSql<{ id: string }>(`${name}_checked`, touching(true)),
  };
}

const insertEntryWithNewCart = compiledSql(
  "cart_entry_insert_new_cart",
  () =>
    sql`with new_cart as (
      insert into carts (id, website_id, token_hash, created_at, updated_at)
      values (${p("cartId")}, ${p("websiteId")}, ${p("tokenHash")}, ${p("now")}::timestamptz, ${p("now")}::timestamptz)
    ) ${insertEntrySql(sql`true`)}`,
);
const insertEntry = entryWrite("cart_entry_insert", insertEntrySql);
const setQuantityOfEntry = entryWrite(
  "cart_entry_set_quantity",
  (when) =>
    sql`update cart_entries set quantity = ${p("quantity")} where id = ${p("entryId")} and ${when} returning id`,
);
const setEntryFields = entryWrite(
  "cart_entry_set_fields",
  (when) =>
    sql`update cart_entries set additional_fields = ${p("additionalFields")}::jsonb where id = ${p("entryId")} and ${when} returning id`,
);
const deleteEntry = entryWrite(
  "cart_entry_delete",
  (when) => sql`delete from cart_entries where id = ${p("entryId")} and ${when} returning id`,
);

/** Runs an entry's write on a cart locked by the caller, or (`version`) checked unchanged since it was read; answers whether it wrote. */
async function runEntryWrite(
  db: Db | Tx,
  statement: ReturnType<typeof entryWrite>,
  values: Record<string, unknown>,
  version: string | undefined,
): Promise<boolean> {
  if (version === undefined) {
    await statement.locked(db, values);
    return true;
  }
  return (await statement.checked(db, { ...values, version })).length > 0;
}

/**
 * Inserts an entry and, in the same statement (one round trip, atomic), either inserts its new
 * cart or marks the existing cart updated at `now` (with `version`, only if it is unchanged:
 * see entryWrite). Answers whether it wrote.
 */
async function writeEntry(
  db: Db | Tx,
  cart: CartRow,
  entry: CartEntryRow,
  cartIsNew: boolean,
  now: Date,
  version?: string,
): Promise<boolean> {
  const e = entry;
  const values = {
    entryId: e.id,
    websiteId: e.websiteId,
    cartId: cart.id,
    itemId: e.itemId,
    variantId: e.variantId,
    sku: e.sku,
    quantity: e.quantity,
    additionalFields: jsonb(e.additionalFields),
    options: jsonb(e.options),
    createdAt: e.createdAt.toISOString(),
    now: now.toISOString(),
  };
  if (!cartIsNew) return runEntryWrite(db, insertEntry, values, version);
  await insertEntryWithNewCart(db, { ...values, tokenHash: cart.tokenHash });
  return true;
}

/** The one column of an entry a call changes. */
type EntryChange = { quantity: number } | { additionalFields: unknown };

/** Sets one entry's column and marks its cart updated at `now`, in one statement (with `version`: see entryWrite). */
async function updateEntry(
  db: Db | Tx,
  cart: CartRow,
  entryId: string,
  set: EntryChange,
  now: Date,
  version?: string,
): Promise<boolean> {
  const values = { cartId: cart.id, entryId, now: now.toISOString() };
  if ("quantity" in set)
    return runEntryWrite(db, setQuantityOfEntry, { ...values, quantity: set.quantity }, version);
  return runEntryWrite(
    db,
    setEntryFields,
    { ...values, additionalFields: jsonb(set.additionalFields) },
    version,
  );
}

/** The visitor's cart, or the empty cart when they have none. */
export async function getCart(db: Db, owner: CartOwner, now: Date): Promise<CartJson> {
  // The cart as the call's count read it, if it did.
  const found =
    owner.seen !== undefined ? owner.seen : await findCartWithEntries(db, owner.websiteId, owner.token);
  if (!found) {
    const settings = await owner.reads.settings(db);
    return emptyCart(owner.websiteId, settings.store.currency);
  }
  return cartJson(db, owner.reads, found.cart, found.entries, now);
}

/** The number of units in a visitor's cart (for the header indicator of rendered pages). */
export async function cartQuantity(db: Db, websiteId: string, token: string | undefined): Promise<number> {
  const found = await findCartWithEntries(db, websiteId, token);
  return found ? found.entries.reduce((n, e) => n + e.quantity, 0) : 0;
}

// ─── Input checks ────────────────────────────────────────────────────────────────────────────

/** additionalFields arrive as a JSON string (SPEC §7); blank or `"null"` (`JSON.stringify(null)`) means none. */
function parseAdditionalFields(input: unknown): Record<string, unknown> | unknown[] | null {
  if (input === undefined || input === null) return null;
  if (typeof input === "object") return input as Record<string, unknown>;
  if (typeof input !== "string") throw badRequest(MSG_ADDITIONAL_FIELDS_INVALID);
  if (input.trim() === "") return null;
  if (input.length > ADDITIONAL_FIELDS_MAX) throw badRequest(MSG_ADDITIONAL_FIELDS_INVALID);
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    throw badRequest(MSG_ADDITIONAL_FIELDS_INVALID);
  }
  if (parsed === null) return null;
  if (typeof parsed !== "object") throw badRequest(MSG_ADDITIONAL_FIELDS_INVALID);
  return parsed as Record<string, unknown>;
}

/**
 * The additional fields of a product with an additional-fields form are checked with the form's
 * own rules (@atelier/forms), exactly as the browser checks them; answers are stored normalized.
 */
async function checkAdditionalFields(
  db: Db | Tx,
  product: CatalogProduct | undefined,
  parsed: Record<string, unknown> | unknown[] | null,
): Promise<unknown> {
  const formId = product?.structuredContent.additionalFieldsFormId;
  if (!product || typeof formId !== "string" || formId === "") return parsed;
  const form = await formOfSite(db, product.websiteId, formId);
  if (!form) return parsed;
  if (Array.isArray(parsed)) throw badRequest(MSG_ADDITIONAL_FIELDS_INVALID);
  const result = validateForm(parseFields(form.fields), parsed ?? {});
  if (!result.valid)
    throw new ApiError(400, "invalid_fields", result.message ?? MSG_FORM_INVALID, result.errors);
  return Object.keys(result.answers).length ? result.answers : null;
}

function quantityOrThrow(input: unknown): number {
  const check = validateQuantity(input);
  if (!check.ok) throw badRequest(check.error, { quantity: check.error });
  return check.quantity;
}

/**
 * The variant an add names: by sku, else the only variant; the SPEC's messages for unknown
 * items, missing options, gift cards without a denomination, quantity and stock.
 */
function checkAdd(
  product: CatalogProduct | undefined,
  sku: string | undefined,
  quantity: unknown,
  alreadyInCart: (variantId: string) => number,
): { variant: Variant; quantity: number } {
  if (!product || product.productType === ProductType.PAYWALL || product.variants.length === 0) {
    throw badRequest(MSG_VARIANT_UNAVAILABLE);
  }
  if (product.isSample) throw new ApiError(400, "sample_product", MSG_SAMPLE_PRODUCT);
  const bySku = sku ? product.variants.find((v) => v.sku === sku) : undefined;
  if (sku && !bySku) throw badRequest(MSG_VARIANT_UNAVAILABLE);
  const isGiftCard = product.productType === ProductType.GIFT_CARD;
  if (isGiftCard && !bySku) throw badRequest(MSG_GIFT_CARD_DENOMINATION);
  const result = validateAddToCart({
    product: productForRules(product),
    selection: bySku ? bySku.attributes : {},
    giftCardDenomination: isGiftCard ? bySku?.id : undefined,
    // A missing quantity means 1; a null one is not a number.
    quantity: quantity === null ? "" : (quantity ?? 1),
    alreadyInCart: bySku ? alreadyInCart(bySku.id) : 0,
  });
  if (!result.ok) {
    const isQuantity = result.error.startsWith("Quantity");
    throw badRequest(result.error, isQuantity ? { quantity: result.error } : undefined);
  }
  const variant = product.variants.find((v) => v.id === result.variant.id)!;
  return { variant, quantity: result.quantity };
}

async function serviceLimit(
  db: Db | Tx,
  product: CatalogProduct,
  total: number,
  reads: SiteReads,
): Promise<void> {
  if (product.productType !== ProductType.SERVICE || total <= 1) return;
  const settings = await reads.settings(db);
  if (!settings.store.multipleQuantityAllowedForServices) throw badRequest(MSG_SERVICE_SINGLE);
}

// ─── Calls ───────────────────────────────────────────────────────────────────────────────────

interface AddEntryInput {
  itemId: string;
  sku?: string;
  quantity?: unknown;
  additionalFields?: unknown;
  /** Express checkout: a new cart holding only this entry. */
  isExpress?: boolean;
}

interface AddEntryResult {
  shoppingCart: CartJson;
  newlyAdded: CartEntryJson;
  updatedEntry?: CartEntryJson;
  /** Set when a new cart was made: the token for the cookie (or, for express, the checkout). */
  newToken?: string;
}

export async function addEntry(
  db: Db,
  clock: Clock,
  owner: CartOwner,
  input: AddEntryInput,
): Promise<AddEntryResult> {
  const additionalFields = parseAdditionalFields(input.additionalFields);
  const now = clock.now();
  const product = (await owner.reads.products(db, [input.itemId])).get(input.itemId);
  const fields = await checkAdditionalFields(db, product, additionalFields);
  /** Adds to `found` (undefined: a new cart); with `version` (found read without a lock), undefined if the cart changed since. */
  const add = async (
    tx: Db | Tx,
    found: { cart: CartRow; entries: CartEntryRow[] } | undefined,
    version?: string,
  ): Promise<AddEntryResult | undefined> => {
    const existing = found?.entries ?? [];
    const inCart = (variantId: string) =>
      existing.filter((e) => e.variantId === variantId).reduce((n, e) => n + e.quantity, 0);
    const { variant, quantity } = checkAdd(product, input.sku, input.quantity, inCart);
    await serviceLimit(tx, product!, quantity + inCart(variant.id), owner.reads);
    const { cart, token } = found ? { cart: found.cart, token: undefined } : newCart(owner.websiteId, now);
    const same =
      fields === null
        ? existing.find(
            (e) => e.variantId === variant.id && e.additionalFields == null && !e.options.subscription,
          )
        : undefined;
    let entries: CartEntryRow[];
    let entryId: string;
    if (same) {
      entryId = same.id;
      if (!(await updateEntry(tx, cart, same.id, { quantity: same.quantity + quantity }, now, version)))
        return undefined;
      entries = existing.map((e) => (e.id === same.id ? { ...e, quantity: same.quantity + quantity } : e));
    } else {
      const entry: CartEntryRow = {
        id: newId(),
        websiteId: owner.websiteId,
        cartId: cart.id,
        itemId: product!.id,
        variantId: variant.id,
        sku: variant.sku,
        quantity,
        additionalFields: fields,
        options: {},
        createdAt: now,
      };
      entryId = entry.id;
      if (!(await writeEntry(tx, cart, entry, !found, now, version))) return undefined;
      entries = [...existing, entry];
    }
    const shoppingCart = await cartJson(tx, owner.reads, { ...cart, updatedAt: now }, entries, now);
    const entry = shoppingCart.entries.find((e) => e.id === entryId)!;
    return {
      shoppingCart,
      newlyAdded: entry,
      updatedEntry: same ? entry : undefined,
      newToken: token,
    };
  };
  // A visitor without a cart (or an express checkout) gets a new one: one statement, no lock.
  if (input.isExpress || !owner.token || owner.seen === null) return (await add(db, undefined))!;
  // The cart as the call's count read it, written in one statement if it is unchanged since.
  const atOnce = owner.seen && (await add(db, owner.seen, owner.seen.version));
  if (atOnce) return atOnce;
  return db.transaction(
    async (tx) =>
      (await add(tx, await findCartWithEntries(tx, owner.websiteId, owner.token, { lock: true })))!,
  );
}

/** The cart after one entry changed, answered as it now is. */
async function changedCart(
  db: Db | Tx,
  reads: SiteReads,
  cart: CartRow,
  entries: CartEntryRow[],
  now: Date,
): Promise<CartJson> {
  return cartJson(db, reads, { ...cart, updatedAt: now }, entries, now);
}

/** Changes one entry of the cart; answers the cart and the entry as they now are. */
async function changeEntry(
  tx: Db | Tx,
  reads: SiteReads,
  found: { cart: CartRow; entries: CartEntryRow[] },
  entryId: string,
  set: EntryChange,
  now: Date,
  version?: string,
): Promise<{ shoppingCart: CartJson; updatedEntry: CartEntryJson } | undefined> {
  if (!(await updateEntry(tx, found.cart, entryId, set, now, version))) return undefined;
  const entries = found.entries.map((e) => (e.id === entryId ? ({ ...e, ...set } as CartEntryRow) : e));
  const shoppingCart = await changedCart(tx, reads, found.cart, entries, now);
  return { shoppingCart, updatedEntry: shoppingCart.entries.find((e) => e.id === entryId)! };
}

async function lockedCartAndEntry(tx: Tx, owner: CartOwner, entryId: string) {
  return cartAndEntry(await findCartWithEntries(tx, owner.websiteId, owner.token, { lock: true }), entryId);
}

function cartAndEntry(found: { cart: CartRow; entries: CartEntryRow[] } | null | undefined, entryId: string) {
  if (!found) throw notFound(MSG_ENTRY_NOT_FOUND);
  const entry = found.entries.find((e) => e.id === entryId);
  if (!entry) throw notFound(MSG_ENTRY_NOT_FOUND);
  return { found, entries: found.entries, entry };
}

/**
 * Runs `change` on the cart the call's count read (owner.seen), writing only if the cart is
 * unchanged since; else (or when it was not read) in a transaction that locks the cart first.
 * `change` answers undefined when its checked write found the cart changed.
 */
async function changeCart<T>(
  db: Db,
  owner: CartOwner,
  entryId: string,
  change: (exec: Db | Tx, found: ReturnType<typeof cartAndEntry>, version?: string) => Promise<T | undefined>,
): Promise<T> {
  if (owner.seen !== undefined) {
    const done = await change(db, cartAndEntry(owner.seen, entryId), owner.seen?.version);
    if (done !== undefined) return done;
  }
  return db.transaction(async (tx) => (await change(tx, await lockedCartAndEntry(tx, owner, entryId)))!);
}

interface AdditionalFieldsInput {
  entryId: string;
  itemId: string;
  sku?: string;
  additionalFields?: unknown;
}

/** Replaces the additional fields (the product's extra form) of one entry. */
export async function updateAdditionalFields(
  db: Db,
  clock: Clock,
  owner: CartOwner,
  input: AdditionalFieldsInput,
): Promise<{ shoppingCart: CartJson; updatedEntry: CartEntryJson }> {
  const additionalFields = parseAdditionalFields(input.additionalFields);
  return changeCart(db, owner, input.entryId, async (tx, { found, entry }, version) => {
    if (entry.itemId !== input.itemId || (input.sku && entry.sku !== input.sku)) {
      throw badRequest(MSG_VARIANT_UNAVAILABLE);
    }
    const product = (await owner.reads.products(tx, [entry.itemId])).get(entry.itemId);
    const fields = await checkAdditionalFields(tx, product, additionalFields);
    return changeEntry(tx, owner.reads, found, entry.id, { additionalFields: fields }, clock.now(), version);
  });
}

/** Sets the quantity of one entry (1 to 9999, within stock counting the other lines of the variant). */
export async function setEntryQuantity(
  db: Db,
  clock: Clock,
  owner: CartOwner,
  entryId: string,
  quantityInput: unknown,
): Promise<{ shoppingCart: CartJson; updatedEntry: CartEntryJson }> {
  const quantity = quantityOrThrow(quantityInput);
  return changeCart(db, owner, entryId, async (tx, { found, entries, entry }, version) => {
    const product = (await owner.reads.products(tx, [entry.itemId])).get(entry.itemId);
    const variant = product?.variants.find((v) => v.id === entry.variantId);
    if (!product || !variant) throw badRequest(MSG_VARIANT_UNAVAILABLE);
    const others = entries
      .filter((e) => e.id !== entry.id && e.variantId === variant.id)
      .reduce((n, e) => n + e.quantity, 0);
    const limited = tracksStock(product.productType) && !variant.unlimited;
    if (limited && quantity + others > variant.qtyInStock) throw badRequest(MSG_NOT_ENOUGH_STOCK);
    await serviceLimit(tx, product, quantity + others, owner.reads);
    return changeEntry(tx, owner.reads, found, entry.id, { quantity }, clock.now(), version);
  });
}

/** Removes one entry from the visitor's cart. */
export async function removeEntry(
  db: Db,
  clock: Clock,
  owner: CartOwner,
  entryId: string,
): Promise<{ shoppingCart: CartJson }> {
  return changeCart(db, owner, entryId, async (tx, { found, entry }, version) => {
    const now = clock.now();
    const values = { cartId: found.cart.id, entryId: entry.id, now: now.toISOString() };
    if (!(await runEntryWrite(tx, deleteEntry, values, version))) return undefined;
    const entries = found.entries.filter((e) => e.id !== entry.id);
    return { shoppingCart: await changedCart(tx, owner.reads, found.cart, entries, now) };
  });
}

interface SubscriptionInput {
  itemId: string;
  sku?: string;
  qty?: unknown;
  additionalFields?: unknown;
}

/**
 * A cart of its own for a subscription purchase: only physical and service products sold as
 * subscriptions, only with the commerce-subscriptions feature. Answers the cart's token, which
 * the subscription checkout page takes.
 */
export async function createSubscriptionCart(
  db: Db,
  clock: Clock,
  reads: SiteReads,
  input: SubscriptionInput,
): Promise<{ cartToken: string }> {
  const additionalFields = parseAdditionalFields(input.additionalFields);
  const now = clock.now();
  const websiteId = reads.site.id;
  return db.transaction(async (tx) => {
    const product = (await reads.products(tx, [input.itemId])).get(input.itemId);
    if (!product) throw badRequest(MSG_VARIANT_UNAVAILABLE);
    if (product.isSample) throw new ApiError(400, "sample_product", MSG_SAMPLE_PRODUCT);
    if (!canBeSubscription(product.productType)) throw badRequest(MSG_SUBSCRIPTION_PRODUCT_TYPE);
    const sc = product.structuredContent;
    const plan = parseSubscriptionPlan(sc.subscriptionPlan);
    const subscribable = sc.isSubscribable === true || sc.isSubscribable === "true";
    if (!subscribable || !plan) throw badRequest(MSG_SUBSCRIPTION_NOT_SUBSCRIBABLE);
    if (!(await websiteHasFeature(tx as unknown as Db, websiteId, Feature.COMMERCE_SUBSCRIPTIONS))) {
      throw new ApiError(403, "feature_required", MSG_SUBSCRIPTION_FEATURE);
    }
    const { variant, quantity } = checkAdd(product, input.sku, input.qty, () => 0);
    await serviceLimit(tx, product, quantity, reads);
    const fields = await checkAdditionalFields(tx, product, additionalFields);
    const { cart, token } = newCart(websiteId, now);
    const entry: CartEntryRow = {
      id: newId(),
      websiteId,
      cartId: cart.id,
      itemId: product.id,
      variantId: variant.id,
      sku: variant.sku,
      quantity,
      additionalFields: fields,
      options: { subscription: true, subscriptionPlan: plan },
      createdAt: now,
    };
    await writeEntry(tx, cart, entry, true, now);
    return { cartToken: token };
  });
}

/**
 * The additional-fields form of a product (its public definition: name and fields), for the
 * add-to-cart modal. Not found when the product has none.
 */
export async function additionalFieldsFormOf(
  db: Db,
  reads: SiteReads,
  itemId: string,
): Promise<{ form: { id: string; name: string; fields: unknown[] } }> {
  const websiteId = reads.site.id;
  const product = (await reads.products(db, [itemId])).get(itemId);
  const formId = product?.structuredContent.additionalFieldsFormId;
  const form = typeof formId === "string" && formId ? await formOfSite(db, websiteId, formId) : undefined;
  if (!form) throw notFound("This product has no additional fields.");
  return { form: { id: form.id, name: form.name, fields: parseFields(form.fields) } };
}

/** Stock of every variant of a product (SPEC §7 inventory call). */
export async function stockOf(
  db: Db,
  reads: SiteReads,
  itemId: string,
): Promise<{ results: { variantId: string; sku: string; unlimited: boolean; qtyInStock: number }[] }> {
  const product = (await reads.products(db, [itemId])).get(itemId);
  if (!product) throw notFound("No such product.");
  const alwaysAvailable =
    product.productType === ProductType.DIGITAL || product.productType === ProductType.GIFT_CARD;
  return {
    results: product.variants.map((v) => ({
      variantId: v.id,
      sku: v.sku,
      unlimited: alwaysAvailable || v.unlimited,
      qtyInStock: v.qtyInStock,
    })),
  };
}
