/**
 * Shopping carts (SPEC §3, §5, §7). A visitor's cart is found by the token in their cart cookie
 * (stored hashed in carts.token_hash). Every call re-checks the rules the browser applies, with
 * the shared rules of @atelier/commerce. Adding never reserves or decrements stock: stock only
 * changes when an order is placed. Each call is one transaction; the cart row is locked first,
 * so concurrent adds to one cart are applied one after the other and none is lost.
 */
import {
  type CartEntryJson,
  type CartJson,
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  ProductType,
  canBeSubscription,
  computeCartTotals,
  parseSubscriptionPlan,
  tracksStock,
  validateAddToCart,
  validateQuantity,
} from "@atelier/commerce";
import { MSG_FORM_INVALID, parseFields, validateForm } from "@atelier/forms";
import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { cartEntries, carts } from "../../db/schema.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { Feature } from "@atelier/owner-api";
import {
  type CatalogProduct,
  type Variant,
  productById,
  productForRules,
  productsByIds,
  websiteHasFeature,
} from "../catalog/service.js";
import { formOfSite } from "../forms/service.js";
import { settingsOf } from "../sites/service.js";

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
    ...computeCartTotals([]),
  };
}

/** Builds the cart JSON from its row and entries, pricing every line from the catalog now. */
async function cartJson(db: Db | Tx, cart: CartRow, entries: CartEntryRow[]): Promise<CartJson> {
  const settings = await settingsOf(db as Db, cart.websiteId);
  const currencyCode = settings.store.currency;
  const products = await productsByIds(
    db as Db,
    cart.websiteId,
    entries.map((e) => e.itemId),
  );
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
  const totals = computeCartTotals(
    lines
      .filter((l) => l.available)
      .map((l) => ({
        unitPriceCents: l.purchasePriceCents,
        quantity: l.quantity,
        productType: l.productType,
      })),
  );
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
    ...totals,
  };
}

// ─── Finding and creating carts ──────────────────────────────────────────────────────────────

/** The open (not purchased) cart a token names on a website, optionally locked for update. */
export async function findCart(
  db: Db | Tx,
  websiteId: string,
  token: string | undefined,
  opts: { lock?: boolean } = {},
): Promise<CartRow | undefined> {
  if (!token || token.length > 200) return undefined;
  const query = db
    .select()
    .from(carts)
    .where(
      and(
        eq(carts.tokenHash, hashToken(token)),
        eq(carts.websiteId, websiteId),
        eq(carts.isPurchased, false),
      ),
    );
  const [row] = opts.lock ? await query.for("update") : await query;
  return row;
}

export async function entriesOf(db: Db | Tx, cartId: string): Promise<CartEntryRow[]> {
  return db
    .select()
    .from(cartEntries)
    .where(eq(cartEntries.cartId, cartId))
    .orderBy(asc(cartEntries.createdAt), asc(cartEntries.id));
}

async function createCart(tx: Tx, websiteId: string, now: Date): Promise<{ cart: CartRow; token: string }> {
  const token = newToken();
  const [cart] = await tx
    .insert(carts)
    .values({ id: newId(), websiteId, tokenHash: hashToken(token), createdAt: now, updatedAt: now })
    .returning();
  return { cart: cart!, token };
}

/** The visitor's cart, or the empty cart when they have none. */
export async function getCart(db: Db, owner: CartOwner): Promise<CartJson> {
  const cart = await findCart(db, owner.websiteId, owner.token);
  if (!cart) {
    const settings = await settingsOf(db, owner.websiteId);
    return emptyCart(owner.websiteId, settings.store.currency);
  }
  return cartJson(db, cart, await entriesOf(db, cart.id));
}

/** The number of units in a visitor's cart (for the header indicator of rendered pages). */
export async function cartQuantity(db: Db, websiteId: string, token: string | undefined): Promise<number> {
  const cart = await findCart(db, websiteId, token);
  if (!cart) return 0;
  const rows = await entriesOf(db, cart.id);
  return rows.reduce((n, e) => n + e.quantity, 0);
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
  websiteId: string,
): Promise<void> {
  if (product.productType !== ProductType.SERVICE || total <= 1) return;
  const settings = await settingsOf(db as Db, websiteId);
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
  return db.transaction(async (tx) => {
    const product = await productById(tx as unknown as Db, owner.websiteId, input.itemId);
    const fields = await checkAdditionalFields(tx, product, additionalFields);
    let cart = input.isExpress ? undefined : await findCart(tx, owner.websiteId, owner.token, { lock: true });
    let token: string | undefined;
    const existing = cart ? await entriesOf(tx, cart.id) : [];
    const inCart = (variantId: string) =>
      existing.filter((e) => e.variantId === variantId).reduce((n, e) => n + e.quantity, 0);
    const { variant, quantity } = checkAdd(product, input.sku, input.quantity, inCart);
    await serviceLimit(tx, product!, quantity + inCart(variant.id), owner.websiteId);

    if (!cart) ({ cart, token } = await createCart(tx, owner.websiteId, now));
    const same =
      fields === null
        ? existing.find(
            (e) => e.variantId === variant.id && e.additionalFields == null && !e.options.subscription,
          )
        : undefined;
    let entryId: string;
    let updated = false;
    if (same) {
      entryId = same.id;
      updated = true;
      await tx
        .update(cartEntries)
        .set({ quantity: same.quantity + quantity })
        .where(eq(cartEntries.id, same.id));
    } else {
      entryId = newId();
      await tx.insert(cartEntries).values({
        id: entryId,
        websiteId: owner.websiteId,
        cartId: cart.id,
        itemId: product!.id,
        variantId: variant.id,
        sku: variant.sku,
        quantity,
        additionalFields: fields,
        createdAt: now,
      });
    }
    const shoppingCart = await changedCart(tx, cart, now);
    const entry = shoppingCart.entries.find((e) => e.id === entryId)!;
    return {
      shoppingCart,
      newlyAdded: entry,
      updatedEntry: updated ? entry : undefined,
      newToken: token,
    };
  });
}

/** The cart changed: it is marked updated and answered as it now is. */
async function changedCart(tx: Tx, cart: CartRow, now: Date): Promise<CartJson> {
  await tx.update(carts).set({ updatedAt: now }).where(eq(carts.id, cart.id));
  return cartJson(tx, cart, await entriesOf(tx, cart.id));
}

/** Changes one entry of the cart; answers the cart and the entry as they now are. */
async function changeEntry(
  tx: Tx,
  cart: CartRow,
  entryId: string,
  set: Partial<typeof cartEntries.$inferInsert>,
  now: Date,
): Promise<{ shoppingCart: CartJson; updatedEntry: CartEntryJson }> {
  await tx.update(cartEntries).set(set).where(eq(cartEntries.id, entryId));
  const shoppingCart = await changedCart(tx, cart, now);
  return { shoppingCart, updatedEntry: shoppingCart.entries.find((e) => e.id === entryId)! };
}

async function lockedCartAndEntry(tx: Tx, owner: CartOwner, entryId: string) {
  const cart = await findCart(tx, owner.websiteId, owner.token, { lock: true });
  if (!cart) throw notFound(MSG_ENTRY_NOT_FOUND);
  const entries = await entriesOf(tx, cart.id);
  const entry = entries.find((e) => e.id === entryId);
  if (!entry) throw notFound(MSG_ENTRY_NOT_FOUND);
  return { cart, entries, entry };
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
  return db.transaction(async (tx) => {
    const { cart, entry } = await lockedCartAndEntry(tx, owner, input.entryId);
    if (entry.itemId !== input.itemId || (input.sku && entry.sku !== input.sku)) {
      throw badRequest(MSG_VARIANT_UNAVAILABLE);
    }
    const product = await productById(tx as unknown as Db, owner.websiteId, entry.itemId);
    const fields = await checkAdditionalFields(tx, product, additionalFields);
    return changeEntry(tx, cart, entry.id, { additionalFields: fields }, clock.now());
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
  return db.transaction(async (tx) => {
    const { cart, entries, entry } = await lockedCartAndEntry(tx, owner, entryId);
    const product = await productById(tx as unknown as Db, owner.websiteId, entry.itemId);
    const variant = product?.variants.find((v) => v.id === entry.variantId);
    if (!product || !variant) throw badRequest(MSG_VARIANT_UNAVAILABLE);
    const others = entries
      .filter((e) => e.id !== entry.id && e.variantId === variant.id)
      .reduce((n, e) => n + e.quantity, 0);
    const limited = tracksStock(product.productType) && !variant.unlimited;
    if (limited && quantity + others > variant.qtyInStock) throw badRequest(MSG_NOT_ENOUGH_STOCK);
    await serviceLimit(tx, product, quantity + others, owner.websiteId);
    return changeEntry(tx, cart, entry.id, { quantity }, clock.now());
  });
}

/** Removes one entry from the visitor's cart. */
export async function removeEntry(
  db: Db,
  clock: Clock,
  owner: CartOwner,
  entryId: string,
): Promise<{ shoppingCart: CartJson }> {
  return db.transaction(async (tx) => {
    const { cart, entry } = await lockedCartAndEntry(tx, owner, entryId);
    await tx.delete(cartEntries).where(eq(cartEntries.id, entry.id));
    return { shoppingCart: await changedCart(tx, cart, clock.now()) };
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
  websiteId: string,
  input: SubscriptionInput,
): Promise<{ cartToken: string }> {
  const additionalFields = parseAdditionalFields(input.additionalFields);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const product = await productById(tx as unknown as Db, websiteId, input.itemId);
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
    await serviceLimit(tx, product, quantity, websiteId);
    const fields = await checkAdditionalFields(tx, product, additionalFields);
    const { cart, token } = await createCart(tx, websiteId, now);
    await tx.insert(cartEntries).values({
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
    });
    return { cartToken: token };
  });
}

/**
 * The additional-fields form of a product (its public definition: name and fields), for the
 * add-to-cart modal. Not found when the product has none.
 */
export async function additionalFieldsFormOf(
  db: Db,
  websiteId: string,
  itemId: string,
): Promise<{ form: { id: string; name: string; fields: unknown[] } }> {
  const product = await productById(db, websiteId, itemId);
  const formId = product?.structuredContent.additionalFieldsFormId;
  const form = typeof formId === "string" && formId ? await formOfSite(db, websiteId, formId) : undefined;
  if (!form) throw notFound("This product has no additional fields.");
  return { form: { id: form.id, name: form.name, fields: parseFields(form.fields) } };
}

/** Stock of every variant of a product (SPEC §7 inventory call). */
export async function stockOf(
  db: Db,
  websiteId: string,
  itemId: string,
): Promise<{ results: { variantId: string; sku: string; unlimited: boolean; qtyInStock: number }[] }> {
  const product = await productById(db, websiteId, itemId);
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
