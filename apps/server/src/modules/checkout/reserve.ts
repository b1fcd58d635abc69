/**
 * Taking an order, step 1: re-prices the cart, takes stock, coupon uses and gift-card balances,
 * creates the pending order and its pending card payment, and marks the cart purchased, all or
 * nothing. An order paid by card alone (no codes, no automatic discount) is written by one
 * statement that commits on its own (reserveAtOnce), so the locks other orders wait for are held
 * only while it runs; any other order, and one whose cart changed meanwhile, takes a transaction
 * (reserveInTransaction).
 */
import {
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  ProductType,
  allocateProRata,
  couponNotCombinableMessage,
  normalizeCode,
} from "@atelier/commerce";
import { type SQL, and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled, rowOf } from "../../db/compiled.js";
import { cartEntries, coupons, orders, payments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import {
  type LineDetails,
  type NewOrder,
  type OrderDetails,
  type OrderLineRow,
  type OrderRow,
  type PaymentRow,
  insertOrderWithLines,
  markOrderPaid,
  orderInsertStatements,
} from "../orders/service.js";
import { MSG_DISCOUNT_USED_UP_NOW, takeDiscountUse } from "../discounts/service.js";
import { redeemGiftCard } from "./gift-cards.js";
import { type CheckoutQuote, keptStoreRules, priceLines } from "./pricing.js";
import { eventRowsJson, eventsInsertCtes } from "../events/service.js";
import {
  type CartEntryRow,
  type CartRow,
  type SeenCart,
  findCart,
  openCartJson,
  seenCartOfJson,
} from "../cart/service.js";
import { type CheckoutLine, checkoutCartOf, stockEvents, stockNeeds, takeStock } from "./store.js";
import {
  type CheckoutDeps,
  type NewOrderContext,
  type PlaceOrderInput,
  MSG_CART_EMPTY,
  MSG_CHOOSE_SHIPPING,
  MSG_COUPON_USED_UP_NOW,
  MSG_GIFT_CARD_SPENT,
} from "./checkout-types.js";
import { completePaidOrder } from "./fulfilment.js";
import { checkInput } from "./order-input.js";
import { orderOfKey, paymentOfKey } from "./payment.js";

export type Reserved =
  | { kind: "replay"; payment?: PaymentRow; order?: OrderRow }
  | {
      kind: "reserved";
      order: OrderRow;
      lines: OrderLineRow[];
      payment?: PaymentRow;
      hasSubscription: boolean;
    };

/**
 * The payment and the order of an idempotency key (a request with the same key got here first)
 * and, one row each, the entries of the cart `cartId` in their order: read in one statement once
 * the cart's lock is held, so both are as that lock's last holder left them.
 */
const keyAndEntries = compiled("checkout_key_and_entries", (db) => {
  const p = sql.placeholder;
  return db
    .select({ payment: payments, order: orders, entry: cartEntries })
    .from(sql`(select 1) as one`)
    .leftJoin(payments, paymentOfKey)
    .leftJoin(orders, orderOfKey)
    .leftJoin(cartEntries, eq(cartEntries.cartId, p("cartId")))
    .orderBy(asc(cartEntries.createdAt), asc(cartEntries.id));
});

async function readKeyAndEntries(tx: Tx, websiteId: string, key: string, cartId: string | undefined) {
  const rows = await keyAndEntries(tx, { websiteId, key, cartId: cartId ?? null });
  const entries: CartEntryRow[] = [];
  for (const r of rows) if (r.entry) entries.push(r.entry);
  return { payment: rows[0]?.payment ?? undefined, order: rows[0]?.order ?? undefined, entries };
}

/**
 * The order's statements (orders/service.ts orderInsertStatements), each writing in the same
 * statement the rows no one else waits for: the card payment the order waits for (pending until
 * the provider answers; none when nothing is due), answered as the `also` row; the cart marked
 * purchased by the order; and the inventory events of the stock the statement takes. No foreign
 * key ties them to the order. Nothing is written when the stock runs short.
 */
function orderAndHoldAlso() {
  const p = sql.placeholder;
  const go = sql`(select ok from go)`;
  return sql`payment as (
      insert into payments (id, website_id, order_id, cart_id, idempotency_key, provider, amount_cents,
        currency, status, created_at, updated_at)
      select ${p("paymentId")}, ${p("websiteId")}, ${p("id")}, ${p("cartId")}, ${p("idempotencyKey")},
        ${p("provider")}, ${p("amountCents")}::int, ${p("currency")}, 'pending', ${p("now")}::timestamptz,
        ${p("now")}::timestamptz
      where ${p("amountCents")}::int > 0 and ${go}
      returning *
    ), cart as (
      update carts set is_purchased = true, order_id = ${p("id")}, updated_at = ${p("now")}::timestamptz
      where id = ${p("cartId")} and ${go}
    ), ${eventsInsertCtes(p("events"), go)}, also as (select * from payment)`;
}
const ORDER_AND_HOLD = orderInsertStatements("checkout_order", orderAndHoldAlso);

/**
 * The same statements checking first that the cart is open and unchanged since it was read
 * (orderInsertStatements' checkCart): run on their own, outside a transaction, by reserveAtOnce.
 */
const ORDER_AT_ONCE = orderInsertStatements("checkout_order_at_once", orderAndHoldAlso, { checkCart: true });

/** What an order attempt finds before it is priced: its key's payment and order, and the open cart with its version. */
export interface SeenBeforeOrder {
  payment?: PaymentRow;
  order?: OrderRow;
  cart?: SeenCart;
}

/**
 * What an order attempt finds before it is priced, as one JSON value on the site `siteId`, for
 * the order's rate-limit count to read in its own statement (routes.ts): the payment and the
 * order of the idempotency key (placeholder `key`) and the open cart of the token (openCartJson,
 * placeholder `tokenHash`, null without a cart token) with its version and entries.
 */
export function keyAndCartJson(siteId: SQL): SQL {
  const p = sql.placeholder;
  return sql`jsonb_build_object(
      'payment', (select to_jsonb(x) from payments x where x.website_id = ${siteId} and x.idempotency_key = ${p("key")}),
      'order', (select to_jsonb(x) from orders x where x.website_id = ${siteId} and x.idempotency_key = ${p("key")}),
      'cart', ${openCartJson(siteId)})`;
}

type Json = Record<string, unknown>;

/** What keyAndCartJson read, as rows. */
export function seenOfJson(json: unknown): SeenBeforeOrder {
  const seen = (json ?? {}) as { payment?: Json; order?: Json; cart?: unknown };
  return {
    payment: seen.payment ? rowOf(payments, seen.payment) : undefined,
    order: seen.order ? rowOf(orders, seen.order) : undefined,
    cart: seenCartOfJson(seen.cart) ?? undefined,
  };
}

export async function reserve(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
): Promise<Reserved> {
  return (await reserveAtOnce(deps, ctx, input)) ?? (await reserveInTransaction(deps, ctx, input));
}

/** What checkout knows once the buyer's input is checked and the cart priced for it. */
interface Priced {
  priced: CheckoutQuote;
  email: string;
  shipping: ReturnType<typeof checkInput>["shipping"];
  billing: ReturnType<typeof checkInput>["billing"];
}

/** Checks what the buyer typed and prices the cart's lines for it; throws the buyer's mistakes. */
async function priceFor(
  db: Db | Tx,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
  lines: CheckoutLine[],
  opts: { now: Date; currency: string; lock: boolean },
): Promise<Priced> {
  const requiresShipping = lines.some((l) => l.productType === ProductType.PHYSICAL);
  const { email, shipping, billing } = checkInput(input, requiresShipping);
  const at = shipping ?? billing;
  const priced = await priceLines(db, ctx.site.id, lines, {
    location: { country: at.country, state: at.state, postalCode: at.postalCode, city: at.city },
    shippingOptionId: input.shippingOptionId,
    codes: input.couponCodes,
    now: opts.now,
    currency: opts.currency,
    lock: opts.lock,
    rules: await keptStoreRules(db, ctx.reads),
    reads: ctx.reads,
    timeZone: ctx.site.timeZone,
    email,
  });
  if (priced.shippingError)
    throw badRequest(priced.shippingError, { shippingOptionId: priced.shippingError });
  if (priced.requiresShipping && !priced.selectedShippingOption && priced.shippingOptions.length > 0)
    throw badRequest(MSG_CHOOSE_SHIPPING, { shippingOptionId: MSG_CHOOSE_SHIPPING });
  // A code set aside for an automatic discount that saves more is not a mistake of the buyer's.
  const setAside = priced.automaticDiscount ? couponNotCombinableMessage(priced.automaticDiscount.name) : "";
  const firstInvalid = priced.invalidCoupons.find((c) => c.reason !== setAside);
  if (firstInvalid) throw badRequest(firstInvalid.reason, { couponCodes: firstInvalid.reason });
  return { priced, email, shipping, billing };
}

/** The pending order (its row and lines) for a priced cart. */
function newOrder(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
  cart: CartRow,
  lines: CheckoutLine[],
  { priced, email, shipping, billing }: Priced,
  at: { orderId: string; now: Date; currency: string },
): Omit<NewOrder, "bumpStock" | "takeStock"> {
  const provider = deps.payments;
  const details: OrderDetails & { stockTaken: ReturnType<typeof stockNeeds>; couponIds: string[] } = {
    shippingOption: priced.selectedShippingOption
      ? {
          id: priced.selectedShippingOption.id,
          name: priced.selectedShippingOption.name,
          costCents: priced.selectedShippingOption.costCents,
        }
      : null,
    coupons: priced.validCoupons.map((c) => ({
      code: c.code,
      kind: c.kind,
      discountCents: c.discountCents,
    })),
    couponIds: priced.validCoupons.map((c) => c.id),
    discounts: priced.discounts,
    taxRules: priced.applicableTaxRules.map((t) => ({
      name: t.name,
      ratePercent: t.ratePercent,
      taxCents: t.taxCents,
    })),
    giftCards: priced.appliedGiftCards.map((g) => ({
      id: g.id,
      last4: g.last4,
      amountCents: g.amountCents,
    })),
    giftCardCents: priced.giftCardCents,
    paymentProvider: priced.amountDueCents > 0 ? provider.name : "gift_card",
    cartToken: ctx.viaCartToken,
    stockTaken: stockNeeds(lines),
  };
  // The order's discount kept on its lines too, pro rata to what each line costs (gift cards take none).
  const lineDiscounts = allocateProRata(
    priced.discountCents,
    lines.map((l) => (l.productType === ProductType.GIFT_CARD ? 0 : l.unitPriceCents * l.quantity)),
  );
  return {
    id: at.orderId,
    websiteId: ctx.site.id,
    cartId: cart.id,
    email,
    shippingAddress: shipping ? (shipping as unknown as Record<string, string>) : null,
    billingAddress: billing as unknown as Record<string, string>,
    currency: at.currency,
    subtotalCents: priced.subtotalCents,
    taxCents: priced.taxCents,
    shippingCents: priced.shippingCostCents,
    discountCents: priced.discountCents,
    grandTotalCents: priced.grandTotalCents,
    testMode: provider.testMode,
    idempotencyKey: input.idempotencyKey,
    details,
    now: at.now,
    lines: lines.map((l, i) => ({
      id: newId(),
      itemId: l.itemId,
      variantId: l.variantId,
      sku: l.sku,
      productName: l.title,
      productType: l.productType,
      attributes: l.attributes,
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      details: {
        additionalFields: l.additionalFields ?? undefined,
        isSubscription: l.isSubscription || undefined,
        subscriptionPlan: l.subscriptionPlan,
        giftCardRecipient: l.giftCardRecipient,
        digital: l.productType === ProductType.DIGITAL || undefined,
        url: l.url,
        imageUrl: l.imageUrl,
        discountCents: lineDiscounts[i] || undefined,
      } satisfies LineDetails as Record<string, unknown>,
    })),
  };
}

/** Tells the site's reads of the stock an inserted order took (the products it changed). */
function stockTaken(
  ctx: NewOrderContext,
  lines: CheckoutLine[],
  inserted: { contentVersion?: number; stockLeft?: Map<string, number> },
) {
  if (inserted.contentVersion === undefined) return;
  const items = lines.filter((l) => l.limitedStock).map((l) => l.itemId);
  ctx.reads.stockBumped(inserted.contentVersion, items, inserted.stockLeft ?? new Map());
}

/**
 * An order paid by card alone in one statement that commits on its own: the cart and the key
 * read without locks by the order's count (ctx.seen, keyAndCartJson), the cart is priced, and
 * ORDER_AT_ONCE takes the stock, all or nothing, only if the cart is still open and unchanged.
 * Answers undefined when the order needs the transaction instead: nothing read with the count,
 * codes typed (coupons, gift cards), an automatic discount, nothing to charge, a cart not found,
 * empty or with a line no longer sold, or changed meanwhile (the transaction then answers what
 * the buyer is told). A request with the same key at the same time is kept out by the cart's
 * lock and version, or by the key's unique index (placeOrder).
 */
async function reserveAtOnce(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
): Promise<Reserved | undefined> {
  const seen = ctx.seen;
  if (!seen || (input.couponCodes ?? []).some((c) => normalizeCode(c))) return undefined;
  const { db, clock, payments: provider } = deps;
  const site = ctx.site;
  const now = clock.now();
  const currency = (await ctx.reads.settings(db)).store.currency;
  if (seen.payment) return { kind: "replay", payment: seen.payment };
  if (seen.order) return { kind: "replay", order: seen.order };
  if (!seen.cart) return undefined;
  const loaded = await checkoutCartOf(db, ctx.reads, seen.cart.cart, seen.cart.entries);
  if (loaded.unavailable.length || !loaded.lines.length) return undefined;
  const lines = loaded.lines;
  const priced = await priceFor(db, ctx, input, lines, { now, currency, lock: false });
  if (priced.priced.automaticDiscount || priced.priced.amountDueCents <= 0) return undefined;
  const needs = stockNeeds(lines);
  const order = newOrder(deps, ctx, input, seen.cart.cart, lines, priced, {
    orderId: newId(),
    now,
    currency,
  });
  const inserted = await insertOrderWithLines(
    db,
    { ...order, bumpStock: needs.length > 0, takeStock: needs },
    {
      statements: ORDER_AT_ONCE,
      values: {
        cartVersion: seen.cart.version,
        paymentId: newId(),
        provider: provider.name,
        amountCents: priced.priced.amountDueCents,
        events: eventRowsJson(stockEvents(site.id, needs)),
      },
    },
  );
  if (inserted === "cart changed") return undefined;
  if (!inserted) throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
  stockTaken(ctx, lines, inserted);
  return {
    kind: "reserved",
    order: inserted.order,
    lines: inserted.lines,
    payment: inserted.also && rowOf(payments, inserted.also),
    hasSubscription: lines.some((l) => l.isSubscription),
  };
}

/** Any order, in one transaction that locks the cart first. */
async function reserveInTransaction(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
): Promise<Reserved> {
  const { db, clock, payments: provider } = deps;
  const site = ctx.site;
  const now = clock.now();
  let taken:
    | { lines: CheckoutLine[]; inserted: { contentVersion?: number; stockLeft?: Map<string, number> } }
    | undefined;
  const reserved = await db.transaction(async (tx): Promise<Reserved> => {
    // One after the other: a transaction's connection runs one query at a time.
    const settings = await ctx.reads.settings(tx);
    const currency = settings.store.currency;
    const cart = await findCart(tx, site.id, ctx.cartToken, { lock: true });
    // Someone with the same key got here first (the cart row lock made us wait for them).
    const again = await readKeyAndEntries(tx, site.id, input.idempotencyKey, cart?.id);
    if (again.payment) return { kind: "replay", payment: again.payment };
    if (again.order) return { kind: "replay", order: again.order };
    if (!cart) throw badRequest(MSG_CART_EMPTY);
    const loaded = await checkoutCartOf(tx, ctx.reads, cart, again.entries);
    if (loaded.unavailable.length) throw badRequest(MSG_VARIANT_UNAVAILABLE);
    if (!loaded.lines.length) throw badRequest(MSG_CART_EMPTY);
    const lines = loaded.lines;
    const pricedFor = await priceFor(tx, ctx, input, lines, { now, currency, lock: true });
    const { priced, email } = pricedFor;

    const needs = stockNeeds(lines);
    // When the units this process last saw are too few (a drop selling out), the stock is tried
    // first, so that the many who come too late are answered before anything is written.
    const seen = new Map(lines.map((l) => [l.variantId, l.qtyInStock]));
    let stockFirst = false;
    const stockLeft = new Map<string, number>();
    if (needs.some((n) => (seen.get(n.variantId) ?? n.quantity) < n.quantity)) {
      if (!(await takeStock(tx, site.id, needs, stockLeft)))
        throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
      stockFirst = true;
    }
    for (const c of priced.validCoupons) {
      const done = await tx
        .update(coupons)
        .set({ timesUsed: sql`${coupons.timesUsed} + 1` })
        .where(
          and(
            eq(coupons.id, c.id),
            sql`(${coupons.usageLimit} is null or ${coupons.timesUsed} < ${coupons.usageLimit})`,
          ),
        )
        .returning({ id: coupons.id });
      if (!done.length) throw badRequest(MSG_COUPON_USED_UP_NOW, { couponCodes: MSG_COUPON_USED_UP_NOW });
    }
    const orderId = newId();
    for (const g of priced.appliedGiftCards) {
      if (!(await redeemGiftCard(tx, g.id, g.amountCents)))
        throw new ApiError(409, "conflict", MSG_GIFT_CARD_SPENT);
    }
    // The gift cards' payments first (settled already; no foreign key ties them to the order).
    for (const g of priced.appliedGiftCards) {
      await tx.insert(payments).values({
        id: newId(),
        websiteId: site.id,
        orderId,
        cartId: cart.id,
        idempotencyKey: `${input.idempotencyKey}#gift-card:${g.id}`,
        provider: "gift_card",
        providerRef: g.id,
        amountCents: g.amountCents,
        currency,
        status: "succeeded",
        createdAt: now,
        updatedAt: now,
      });
    }
    // Then the locks other orders wait for, as late and as briefly as can be, in one statement
    // held to the commit: the stock, all or nothing (the loser of a race for the last units stops
    // here, uncharged), the site's row (the stock's content version) and the order's number; the
    // same statement writes the card payment and marks the cart purchased (ORDER_AND_HOLD).
    const inserted = await insertOrderWithLines(
      tx,
      {
        ...newOrder(deps, ctx, input, cart, lines, pricedFor, { orderId, now, currency }),
        bumpStock: needs.length > 0,
        takeStock: stockFirst ? undefined : needs,
      },
      {
        statements: ORDER_AND_HOLD,
        values: {
          paymentId: newId(),
          provider: provider.name,
          amountCents: priced.amountDueCents,
          events: eventRowsJson(stockFirst ? [] : stockEvents(site.id, needs)),
        },
      },
    );
    if (inserted === "cart changed") throw new Error("ORDER_AND_HOLD does not check the cart");
    if (!inserted) throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
    const payment = inserted.also && rowOf(payments, inserted.also);
    const { order, lines: orderLines } = inserted;
    for (const [id, qty] of inserted.stockLeft ?? []) stockLeft.set(id, qty);
    taken = { lines, inserted: { contentVersion: inserted.contentVersion, stockLeft } };
    // The discount's use, counted with the order (its use row names the order).
    if (priced.automaticDiscount) {
      const done = await takeDiscountUse(tx, site.id, priced.automaticDiscount.id, {
        orderId,
        email,
        now,
        perCustomerLimit: priced.discountPerCustomerLimit,
      });
      if (!done) throw new ApiError(409, "conflict", MSG_DISCOUNT_USED_UP_NOW);
    }
    if (!payment) {
      const paid = await markOrderPaid(tx, order, {}, now);
      const paidLines = await completePaidOrder(deps, tx, ctx, paid, undefined, orderLines);
      return { kind: "reserved", order: paid, lines: paidLines, hasSubscription: false };
    }
    return {
      kind: "reserved",
      order,
      lines: orderLines,
      payment,
      hasSubscription: lines.some((l) => l.isSubscription),
    };
  });
  if (taken) stockTaken(ctx, taken.lines, taken.inserted);
  return reserved;
}
