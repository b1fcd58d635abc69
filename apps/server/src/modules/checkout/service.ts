/**
 * Checkout: quotes (shipping options, tax, coupons, gift cards) and POST /api/commerce/orders.
 *
 * Taking an order is three steps, so that no paid order is ever lost and no buyer is charged
 * for goods we do not have:
 * 1. One transaction re-prices the cart, takes the stock of every line with conditional
 *    updates (a buyer who loses the race for the last units stops here, uncharged), counts
 *    coupon uses, takes gift-card balances, creates the order (pending), records the card
 *    payment (pending) and marks the cart purchased.
 * 2. The provider charges the card, with our payment id as its idempotency key.
 * 3. A second transaction settles the payment: paid (gift cards issued, subscriptions started,
 *    confirmation queued), waiting for 3-D Secure, or failed (everything given back).
 * A process that dies between 2 and 3 leaves a pending payment; the same request again (same
 * idempotencyKey) or the reconciler asks the provider what happened and settles it, once.
 */
import {
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  ProductType,
  type ShippingLocation,
  formatMoney,
  isCountryCode,
  subscriptionPriceText,
} from "@atelier/commerce";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { coupons, payments, websites } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { isValidEmail } from "../../lib/email.js";
import { newId } from "../../lib/ids.js";
import {
  type LineDetails,
  type OrderDetails,
  type OrderLineRow,
  type OrderRow,
  type PaymentRow,
  deletePendingOrder,
  detailsOf,
  insertOrder,
  lineDetailsOf,
  linesOf,
  markOrderPaid,
  orderByIdempotencyKey,
  orderJson,
  orderRow,
  queueGiftCardEmail,
  queueOrderConfirmation,
  recordCommerceEvent,
  setLineDetails,
} from "../orders/service.js";
import {
  type ChargeResult,
  type NextAction,
  type PaymentEvent,
  PaymentEvents,
  type PaymentMethodInput,
  type PaymentProvider,
  ProviderUnavailableError,
  cardDetailErrors,
} from "../payments/provider.js";
import { settingsOf, type Website } from "../sites/service.js";
import { createSubscriptionsForOrder, subscriptionIdsOf } from "../subscriptions/service.js";
import { confirmationUrl, downloadLinks } from "../orders/links.js";
import { issueGiftCard, redeemGiftCard, restoreGiftCard } from "./gift-cards.js";
import { type CheckoutQuote, priceLines, shippingCountries, storeRulesOf } from "./pricing.js";
import {
  type CheckoutLine,
  loadCheckoutCart,
  returnStock,
  setCartPurchased,
  stockNeeds,
  takeStock,
} from "./store.js";

export interface CheckoutDeps {
  db: Db;
  clock: Clock;
  config: Config;
  payments: PaymentProvider;
}

export const MSG_CART_EMPTY = "Your cart is empty.";
export const MSG_CART_ALREADY_PURCHASED = "This cart has already been checked out.";
export const MSG_EMAIL_INVALID = "Please enter a valid email address.";
export const MSG_REQUIRED = "Required";
export const MSG_COUNTRY_INVALID = "Please choose a country.";
export const MSG_CHOOSE_SHIPPING = "Please choose a shipping option.";
export const MSG_FIX_ADDRESS = "Please check the highlighted fields.";
export const MSG_PROVIDER_DOWN =
  "We could not reach the payment provider, and your card has not been charged by this attempt. Please try again.";
export const MSG_IN_PROGRESS = "This order is being processed. Please wait a moment.";
export const MSG_PAYMENT_ABANDONED = "The payment was not completed. Please try again.";
export const MSG_PROCESSING = "Your payment is being processed.";
export const MSG_COUPON_USED_UP_NOW = "This coupon has reached its usage limit.";
export const MSG_GIFT_CARD_SPENT =
  "A gift card you used no longer has enough balance. Please review your order.";

/** A payment nobody settled within this time is asked about by the reconciler. */
export const RECONCILE_AFTER_MS = 10_000;
/** A charge the provider never saw, this old, is given up (its stock and cart given back). */
export const ABANDON_UNSEEN_AFTER_MS = 15 * 60_000;
/** A 3-D Secure challenge nobody finished within this time is cancelled. */
export const ABANDON_CHALLENGE_AFTER_MS = 60 * 60_000;

export interface Address {
  firstName: string;
  lastName: string;
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface PlaceOrderInput {
  email: string;
  shippingAddress?: Address;
  billingAddress?: Address;
  shippingOptionId?: string;
  couponCodes?: string[];
  payment: PaymentMethodInput;
  idempotencyKey: string;
}

export type PlaceOrderResult =
  | {
      kind: "order";
      order: ReturnType<typeof orderJson>;
      confirmationUrl: string;
      subscriptionIds: string[];
      events: PaymentEvent[];
    }
  | {
      kind: "requires_action";
      order: { id: string; orderNumber: number; grandTotalCents: number; currency: string };
      nextAction: NextAction;
      idempotencyKey: string;
      events: PaymentEvent[];
    };

// ─── Quotes ──────────────────────────────────────────────────────────────────────────────────

export interface QuoteInput {
  location?: ShippingLocation;
  shippingOptionId?: string;
  couponCodes?: string[];
}

function quoteJson(quote: CheckoutQuote) {
  const { couponRows: _rows, appliedGiftCards, ...rest } = quote;
  return { ...rest, appliedGiftCards: appliedGiftCards.map(({ id: _id, ...g }) => g) };
}

function lineJson(l: CheckoutLine, currency: string) {
  return {
    id: l.entryId,
    itemId: l.itemId,
    variantId: l.variantId,
    sku: l.sku,
    title: l.title,
    url: l.url,
    imageUrl: l.imageUrl,
    productType: l.productType,
    attributes: l.attributes,
    quantity: l.quantity,
    purchasePriceCents: l.unitPriceCents,
    subTotal: l.unitPriceCents * l.quantity,
    currencyCode: currency,
    isSubscription: l.isSubscription,
    subscriptionPlan: l.subscriptionPlan ?? null,
    subscriptionText: l.subscriptionPlan
      ? subscriptionPriceText(formatMoney(l.unitPriceCents * l.quantity, currency), l.subscriptionPlan)
      : null,
  };
}

/** The checkout page's cart: lines, shipping options, tax, coupons, gift cards, totals. */
export async function quote(deps: CheckoutDeps, site: Website, token: string | undefined, input: QuoteInput) {
  const { db, clock } = deps;
  const settings = await settingsOf(db, site.id);
  const currency = settings.store.currency;
  const loaded = await loadCheckoutCart(db, site.id, token);
  const rules = await storeRulesOf(db, site.id);
  const lines = loaded?.lines ?? [];
  const priced = await priceLines(db, site.id, lines, {
    location: input.location,
    shippingOptionId: input.shippingOptionId,
    codes: input.couponCodes,
    now: clock.now(),
    currency,
  });
  return {
    cart: {
      id: loaded?.cart.id ?? null,
      websiteId: site.id,
      currencyCode: currency,
      isPurchased: false,
      entries: lines.map((l) => lineJson(l, currency)),
      unavailableEntries: (loaded?.unavailable ?? []).map((e) => e.id),
      hasSubscription: lines.some((l) => l.isSubscription),
      ...quoteJson(priced),
    },
    shippingCountries: shippingCountries(rules.shippingRules),
    payment: { provider: deps.payments.name, testMode: deps.payments.testMode },
  };
}

// ─── Input checks ────────────────────────────────────────────────────────────────────────────

const ADDRESS_REQUIRED = ["firstName", "lastName", "line1", "city", "postalCode", "country"] as const;

function cleanAddress(
  prefix: string,
  a: Address | undefined,
  fields: Record<string, string>,
): Address | undefined {
  if (!a) {
    fields[prefix] = MSG_REQUIRED;
    return undefined;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) if (typeof v === "string") out[k] = v.trim();
  for (const k of ADDRESS_REQUIRED) if (!out[k]) fields[`${prefix}.${k}`] = MSG_REQUIRED;
  if (out.country) {
    out.country = out.country.toUpperCase();
    if (!isCountryCode(out.country)) fields[`${prefix}.country`] = MSG_COUNTRY_INVALID;
  }
  if (out.state) out.state = out.state.toUpperCase();
  return out as unknown as Address;
}

function checkInput(input: PlaceOrderInput, requiresShipping: boolean) {
  const fields: Record<string, string> = {};
  const email = input.email.trim();
  if (!isValidEmail(email)) fields.email = MSG_EMAIL_INVALID;
  const shipping = requiresShipping
    ? cleanAddress("shippingAddress", input.shippingAddress, fields)
    : undefined;
  const billing = input.billingAddress
    ? cleanAddress("billingAddress", input.billingAddress, fields)
    : requiresShipping
      ? shipping
      : cleanAddress("billingAddress", undefined, fields);
  Object.assign(fields, cardDetailErrors(input.payment));
  const keys = Object.keys(fields);
  if (keys.length) {
    // A bad email or card detail alone is told in its own words; anything else points at the
    // highlighted fields.
    const [only] = keys.length === 1 ? keys : [];
    const own = only === "email" || only?.startsWith("payment.");
    throw badRequest(own ? fields[only!]! : MSG_FIX_ADDRESS, fields);
  }
  return { email, shipping, billing: billing! };
}

// ─── Taking the order ────────────────────────────────────────────────────────────────────────

type Reserved =
  | { kind: "replay"; payment?: PaymentRow; order?: OrderRow }
  | { kind: "reserved"; order: OrderRow; payment?: PaymentRow; hasSubscription: boolean };

async function cardPaymentByKey(
  db: Db | Tx,
  websiteId: string,
  key: string,
): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.websiteId, websiteId), eq(payments.idempotencyKey, key)));
  return row;
}

function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if ((e as { code?: string }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export interface PlaceOrderContext {
  site: Website;
  /** The cart's token: from the cart cookie or the cartToken of an express or subscription checkout. */
  cartToken: string | undefined;
  viaCartToken: boolean;
  /** Origin of the request (links in emails and the 3-D Secure return address). */
  origin: string;
}

export async function placeOrder(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  input: PlaceOrderInput,
): Promise<PlaceOrderResult> {
  const { db } = deps;
  const site = ctx.site;
  // A key seen before is found inside the transaction, after the cart's lock (see reserve).
  let reserved: Reserved;
  try {
    reserved = await reserve(deps, ctx, input);
  } catch (err) {
    // The same key sent twice at once: the other request took the order.
    if (!isUniqueViolation(err)) throw err;
    reserved = { kind: "replay", payment: await cardPaymentByKey(db, site.id, input.idempotencyKey) };
    if (!reserved.payment) reserved.order = await orderByIdempotencyKey(db, site.id, input.idempotencyKey);
  }
  if (reserved.kind === "replay") {
    if (reserved.payment) return resumePayment(deps, ctx, reserved.payment, input.payment);
    if (reserved.order) return answerFor(deps, ctx, reserved.order, []);
    throw new ApiError(409, "conflict", MSG_IN_PROGRESS);
  }
  if (!reserved.payment) {
    // Nothing to charge (gift cards paid it all): the order was settled in the same transaction.
    return answerFor(deps, ctx, reserved.order, []);
  }
  return chargeAndSettle(deps, ctx, reserved.payment, input.payment, input.email, reserved.hasSubscription);
}

async function reserve(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  input: PlaceOrderInput,
): Promise<Reserved> {
  const { db, clock, payments: provider } = deps;
  const site = ctx.site;
  const now = clock.now();
  return db.transaction(async (tx): Promise<Reserved> => {
    const settings = await settingsOf(tx as unknown as Db, site.id);
    const currency = settings.store.currency;
    const loaded = await loadCheckoutCart(tx, site.id, ctx.cartToken, { lock: true });
    // Someone with the same key got here first (the cart row lock made us wait for them).
    const again = await cardPaymentByKey(tx, site.id, input.idempotencyKey);
    if (again) return { kind: "replay", payment: again };
    const againOrder = await orderByIdempotencyKey(tx, site.id, input.idempotencyKey);
    if (againOrder) return { kind: "replay", order: againOrder };
    if (!loaded) throw badRequest(MSG_CART_EMPTY);
    if (loaded.unavailable.length) throw badRequest(MSG_VARIANT_UNAVAILABLE);
    if (!loaded.lines.length) throw badRequest(MSG_CART_EMPTY);
    const lines = loaded.lines;
    const requiresShipping = lines.some((l) => l.productType === ProductType.PHYSICAL);
    const { email, shipping, billing } = checkInput(input, requiresShipping);

    const priced = await priceLines(tx, site.id, lines, {
      location: shipping
        ? {
            country: shipping.country,
            state: shipping.state,
            postalCode: shipping.postalCode,
            city: shipping.city,
          }
        : {
            country: billing.country,
            state: billing.state,
            postalCode: billing.postalCode,
            city: billing.city,
          },
      shippingOptionId: input.shippingOptionId,
      codes: input.couponCodes,
      now,
      currency,
      lock: true,
    });
    if (priced.shippingError)
      throw badRequest(priced.shippingError, { shippingOptionId: priced.shippingError });
    if (priced.requiresShipping && !priced.selectedShippingOption && priced.shippingOptions.length > 0)
      throw badRequest(MSG_CHOOSE_SHIPPING, { shippingOptionId: MSG_CHOOSE_SHIPPING });
    const firstInvalid = priced.invalidCoupons[0];
    if (firstInvalid) throw badRequest(firstInvalid.reason, { couponCodes: firstInvalid.reason });

    // Stock: all or nothing; the loser of a race for the last units stops here, uncharged.
    const needs = stockNeeds(lines);
    if (!(await takeStock(tx, site.id, needs))) throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
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
    for (const g of priced.appliedGiftCards) {
      if (!(await redeemGiftCard(tx, g.id, g.amountCents)))
        throw new ApiError(409, "conflict", MSG_GIFT_CARD_SPENT);
    }

    const orderId = newId();
    const details: OrderDetails & { stockTaken: typeof needs; couponIds: string[] } = {
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
      stockTaken: needs,
    };
    const order = await insertOrder(tx, {
      id: orderId,
      websiteId: site.id,
      cartId: loaded.cart.id,
      email,
      shippingAddress: shipping ? (shipping as unknown as Record<string, string>) : null,
      billingAddress: billing as unknown as Record<string, string>,
      currency,
      subtotalCents: priced.subtotalCents,
      taxCents: priced.taxCents,
      shippingCents: priced.shippingCostCents,
      discountCents: priced.discountCents,
      grandTotalCents: priced.grandTotalCents,
      testMode: provider.testMode,
      idempotencyKey: input.idempotencyKey,
      details,
      now,
      lines: lines.map((l) => ({
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
        } satisfies LineDetails as Record<string, unknown>,
      })),
    });
    for (const g of priced.appliedGiftCards) {
      await tx.insert(payments).values({
        id: newId(),
        websiteId: site.id,
        orderId,
        cartId: loaded.cart.id,
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
    await setCartPurchased(tx, loaded.cart.id, orderId, now);
    if (priced.amountDueCents === 0) {
      const paid = await markOrderPaid(tx, order, {}, now);
      await completePaidOrder(deps, tx, ctx, paid, undefined);
      return { kind: "reserved", order: paid, hasSubscription: false };
    }
    const [payment] = await tx
      .insert(payments)
      .values({
        id: newId(),
        websiteId: site.id,
        orderId,
        cartId: loaded.cart.id,
        idempotencyKey: input.idempotencyKey,
        provider: provider.name,
        amountCents: priced.amountDueCents,
        currency,
        status: "pending",
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return {
      kind: "reserved",
      order,
      payment: payment!,
      hasSubscription: lines.some((l) => l.isSubscription),
    };
  });
}

function chargeRequest(
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  method: PaymentMethodInput,
  email: string,
  save: boolean,
) {
  const back = new URL("/checkout", ctx.origin);
  back.searchParams.set("paymentReturn", payment.idempotencyKey);
  if (ctx.viaCartToken && ctx.cartToken) back.searchParams.set("cartToken", ctx.cartToken);
  return {
    idempotencyKey: payment.id,
    amountCents: payment.amountCents,
    currency: payment.currency,
    method,
    email,
    description: `${ctx.site.title} order`,
    returnUrl: back.toString(),
    saveForFutureUse: save,
    metadata: { websiteId: ctx.site.id, orderId: payment.orderId ?? "" },
  };
}

async function orderHasSubscription(db: Db, orderId: string | null): Promise<boolean> {
  if (!orderId) return false;
  return (await linesOf(db, orderId)).some((l) => lineDetailsOf(l).isSubscription);
}

async function chargeAndSettle(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  method: PaymentMethodInput,
  email: string,
  save: boolean,
): Promise<PlaceOrderResult> {
  let result: ChargeResult;
  try {
    result = await deps.payments.charge(chargeRequest(ctx, payment, method, email, save));
  } catch (err) {
    if (err instanceof ProviderUnavailableError) {
      // Unknown outcome: the payment stays pending; the same request again finds out.
      throw new ApiError(503, "payment_provider_unavailable", MSG_PROVIDER_DOWN);
    }
    throw err;
  }
  return settle(deps, ctx, payment, result);
}

/** The same idempotencyKey again: answer what became of that payment, settling it if needed. */
async function resumePayment(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  method: PaymentMethodInput | undefined,
): Promise<PlaceOrderResult> {
  if (payment.status === "succeeded" || payment.status === "refunded") {
    const order = payment.orderId ? await orderRow(deps.db, payment.orderId) : undefined;
    if (order) return answerFor(deps, ctx, order, []);
  }
  if (payment.status === "failed") {
    throw new ApiError(402, "payment_declined", payment.lastError ?? MSG_PAYMENT_ABANDONED);
  }
  let result: ChargeResult;
  try {
    result = await deps.payments.lookup(payment.id, payment.providerRef);
    if (result.status === "not_found" && method && payment.status === "pending") {
      // Never reached the provider (or the answer was lost before it recorded anything):
      // charge now under the same key, which the provider never charges twice.
      const order = payment.orderId ? await orderRow(deps.db, payment.orderId) : undefined;
      const save = await orderHasSubscription(deps.db, payment.orderId);
      result = await deps.payments.charge(chargeRequest(ctx, payment, method, order?.email ?? "", save));
    }
  } catch (err) {
    if (err instanceof ProviderUnavailableError)
      throw new ApiError(503, "payment_provider_unavailable", MSG_PROVIDER_DOWN);
    throw err;
  }
  if (result.status === "not_found") throw new ApiError(409, "conflict", MSG_IN_PROGRESS);
  return settle(deps, ctx, payment, result);
}

/** Applies what the provider answered to our records, once (conditional on the payment's state). */
export async function settle(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  result: ChargeResult,
): Promise<PlaceOrderResult> {
  const { db, clock, payments: provider } = deps;
  const now = clock.now();
  const events: PaymentEvent[] = [];
  if (result.status === "not_found") throw new ApiError(409, "conflict", MSG_IN_PROGRESS);

  if (result.status === "requires_action") {
    await db.transaction(async (tx) => {
      const moved = await tx
        .update(payments)
        .set({ status: "requires_action", providerRef: result.providerRef, updatedAt: now })
        .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
        .returning({ id: payments.id });
      if (moved.length && provider.testMode) {
        const event =
          result.wallet === "apple_pay"
            ? PaymentEvents.APPLE_PAY_EXTRA_AUTH_REQUIRED_TEST_MODE
            : PaymentEvents.EXTRA_AUTH_REQUIRED_TEST_MODE;
        events.push(event);
        await recordPaymentEvent(tx, payment, event);
      }
    });
    const order = (await orderRow(db, payment.orderId ?? ""))!;
    return {
      kind: "requires_action",
      order: {
        id: order.id,
        orderNumber: order.orderNumber,
        grandTotalCents: order.grandTotalCents,
        currency: order.currency,
      },
      nextAction: result.nextAction,
      idempotencyKey: payment.idempotencyKey,
      events,
    };
  }

  if (result.status === "processing") {
    await db
      .update(payments)
      .set({ providerRef: result.providerRef, updatedAt: now })
      .where(and(eq(payments.id, payment.id), inArray(payments.status, ["pending", "requires_action"])));
    const order = (await orderRow(db, payment.orderId ?? ""))!;
    return answerFor(deps, ctx, order, events);
  }

  if (result.status === "succeeded") {
    let lines: OrderLineRow[] | undefined;
    const order = await db.transaction(async (tx) => {
      const moved = await tx
        .update(payments)
        .set({ status: "succeeded", providerRef: result.providerRef, lastError: null, updatedAt: now })
        .where(and(eq(payments.id, payment.id), inArray(payments.status, ["pending", "requires_action"])))
        .returning();
      const current = await orderRow(tx, payment.orderId ?? "", { lock: true });
      if (!current) throw new Error(`payment ${payment.id} has no order`);
      if (!moved.length) return current;
      if (payment.status === "requires_action" && provider.testMode) {
        events.push(PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE);
        await recordPaymentEvent(tx, payment, PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE);
      }
      const paid = await markOrderPaid(
        tx,
        current,
        { cardLast4: result.cardLast4, wallet: result.wallet },
        now,
      );
      lines = await completePaidOrder(deps, tx, ctx, paid, result.savedMethod);
      return paid;
    });
    return answerFor(deps, ctx, order, events, lines);
  }

  // Failed: give back everything the order took, once.
  const released = await db.transaction(async (tx) => {
    const moved = await tx
      .update(payments)
      .set({
        status: "failed",
        providerRef: result.providerRef ?? payment.providerRef,
        lastError: result.message,
        updatedAt: now,
      })
      .where(and(eq(payments.id, payment.id), inArray(payments.status, ["pending", "requires_action"])))
      .returning();
    if (!moved.length) return false;
    if (result.authenticationFailed && provider.testMode) {
      events.push(PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE);
      await recordPaymentEvent(tx, payment, PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE);
    }
    await releaseOrder(tx, payment.orderId, now);
    return true;
  });
  if (!released) {
    // Someone settled it first; answer what they decided.
    const fresh = await cardPaymentByKey(db, payment.websiteId, payment.idempotencyKey);
    if (fresh && fresh.status !== "failed") return resumePayment(deps, ctx, fresh, undefined);
  }
  throw new ApiError(402, "payment_declined", result.message, undefined, {
    declineCode: result.code,
    ...(events.length ? { events } : {}),
  });
}

async function recordPaymentEvent(tx: Tx, payment: PaymentRow, event: PaymentEvent) {
  await recordCommerceEvent(tx, {
    websiteId: payment.websiteId,
    actor: "user",
    action: event,
    objectType: "payment",
    data: {
      paymentId: payment.id,
      orderId: payment.orderId,
      amountCents: payment.amountCents,
      currency: payment.currency,
      testMode: true,
    },
  });
}

/** Gives back what a pending order took (stock, coupon uses, gift-card balances, the cart) and drops it. */
export async function releaseOrder(tx: Tx, orderId: string | null, now: Date): Promise<void> {
  if (!orderId) return;
  const order = await orderRow(tx, orderId, { lock: true });
  if (order?.status !== "pending") return;
  const d = detailsOf(order) as OrderDetails & {
    stockTaken?: { variantId: string; quantity: number }[];
    couponIds?: string[];
  };
  await returnStock(tx, order.websiteId, d.stockTaken ?? []);
  if (d.couponIds?.length) {
    await tx
      .update(coupons)
      .set({ timesUsed: sql`greatest(0, ${coupons.timesUsed} - 1)` })
      .where(inArray(coupons.id, d.couponIds));
  }
  for (const g of d.giftCards ?? []) await restoreGiftCard(tx, g.id, g.amountCents);
  await tx
    .update(payments)
    .set({ status: "refunded", updatedAt: now })
    .where(and(eq(payments.orderId, order.id), eq(payments.provider, "gift_card")));
  await tx.update(payments).set({ orderId: null }).where(eq(payments.orderId, order.id));
  if (order.cartId) await setCartPurchased(tx, order.cartId, null, now);
  await deletePendingOrder(tx, order.id);
}

/** After the money: gift cards issued and emailed, subscriptions started, confirmation queued. */
async function completePaidOrder(
  deps: CheckoutDeps,
  tx: Tx,
  ctx: PlaceOrderContext,
  order: OrderRow,
  savedMethod: string | undefined,
): Promise<OrderLineRow[]> {
  const { config, clock } = deps;
  const lines = await linesOf(tx, order.id);
  const giftCards: { last4: string; amountCents: number; recipientEmail: string }[] = [];
  for (const line of lines) {
    if (line.productType !== ProductType.GIFT_CARD) continue;
    const d = lineDetailsOf(line);
    const to =
      d.giftCardRecipient?.email && isValidEmail(d.giftCardRecipient.email)
        ? d.giftCardRecipient.email
        : order.email;
    const ids: string[] = [];
    for (let i = 0; i < line.quantity; i++) {
      const { card, code } = await issueGiftCard(tx, {
        websiteId: order.websiteId,
        amountCents: line.unitPriceCents,
        currency: order.currency,
        orderId: order.id,
        recipientEmail: to,
      });
      ids.push(card.id);
      giftCards.push({ last4: card.codeLast4, amountCents: card.initialCents, recipientEmail: to });
      await queueGiftCardEmail(tx, config, ctx.site, {
        to,
        code,
        amountCents: card.initialCents,
        currency: order.currency,
        fromEmail: order.email,
        recipientName: d.giftCardRecipient?.name,
        message: d.giftCardRecipient?.message,
        shopUrl: new URL("/", ctx.origin).toString(),
      });
    }
    await setLineDetails(tx, line, { giftCardIds: ids });
  }
  const subs = await createSubscriptionsForOrder(tx, {
    order,
    lines,
    savedMethod: savedMethod ?? null,
    provider: deps.payments.name,
    now: clock.now(),
  });
  const downloads = await downloadLinks(config.dataDir, ctx.origin, order, lines, clock.now());
  await queueOrderConfirmation(tx, config, ctx.site, order, lines, {
    orderUrl: await confirmationUrl(config.dataDir, ctx.origin, order),
    downloads,
    giftCards,
    subscriptions: subs.map((s) => ({ productName: s.productName, text: s.text })),
  });
  await recordCommerceEvent(tx, {
    websiteId: order.websiteId,
    actor: "user",
    action: "order-placed",
    objectType: "order",
    data: { order: orderJson(order, lines).analytics },
  });
  // Lines carry the gift cards and subscriptions made above.
  return giftCards.length || subs.length ? linesOf(tx, order.id) : lines;
}

async function answerFor(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  order: OrderRow,
  events: PaymentEvent[],
  known?: OrderLineRow[],
): Promise<PlaceOrderResult> {
  const lines = known ?? (await linesOf(deps.db, order.id));
  return {
    kind: "order",
    order: orderJson(order, lines),
    confirmationUrl: await confirmationUrl(deps.config.dataDir, ctx.origin, order),
    subscriptionIds: subscriptionIdsOf(lines),
    events,
  };
}

// ─── Reconciliation ──────────────────────────────────────────────────────────────────────────

/**
 * Settles payments nobody settled: a process died between the charge and the commit, a buyer
 * left a 3-D Secure challenge, the provider was unreachable. Asks the provider under each
 * payment's key; safe to run in every process at once (settling is conditional).
 */
export async function reconcilePendingPayments(
  deps: CheckoutDeps,
  origin: string,
): Promise<{ settled: number }> {
  const { db, clock } = deps;
  const now = clock.now();
  const stale = await db
    .select()
    .from(payments)
    .where(
      and(
        inArray(payments.status, ["pending", "requires_action"]),
        sql`${payments.provider} <> 'gift_card'`,
        lt(payments.updatedAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .limit(200);
  let settled = 0;
  for (const p of stale) {
    const ctx = await contextForPayment(db, p, origin);
    if (!ctx) continue;
    try {
      let result = await deps.payments.lookup(p.id, p.providerRef);
      const age = now.getTime() - p.createdAt.getTime();
      if (result.status === "requires_action" && age > ABANDON_CHALLENGE_AFTER_MS && result.providerRef) {
        await deps.payments.cancel(result.providerRef);
        result = await deps.payments.lookup(p.id, result.providerRef);
      }
      if (result.status === "not_found") {
        if (age < ABANDON_UNSEEN_AFTER_MS) continue;
        result = { status: "failed", code: "abandoned", message: MSG_PAYMENT_ABANDONED };
      }
      if (result.status === "requires_action" || result.status === "processing") continue;
      await settle(deps, ctx, p, result).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
      });
      settled++;
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
    }
  }
  return { settled };
}

async function contextForPayment(
  db: Db,
  p: PaymentRow,
  origin: string,
): Promise<PlaceOrderContext | undefined> {
  const [site] = await db.select().from(websites).where(eq(websites.id, p.websiteId));
  if (!site) return undefined;
  return { site, cartToken: undefined, viaCartToken: false, origin };
}
