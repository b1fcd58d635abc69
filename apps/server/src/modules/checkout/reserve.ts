/**
 * Taking an order, step 1: one transaction re-prices the cart, takes stock, coupon uses and gift-card
 * balances, creates the pending order and its pending card payment, and marks the cart purchased.
 */
import {
  MSG_NOT_ENOUGH_STOCK,
  MSG_VARIANT_UNAVAILABLE,
  ProductType,
  allocateProRata,
  couponNotCombinableMessage,
} from "@atelier/commerce";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { compiled, rowOf } from "../../db/compiled.js";
import { cartEntries, coupons, orders, payments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import {
  type LineDetails,
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
import { keptStoreRules, priceLines } from "./pricing.js";
import { eventRowsJson, eventsInsertCtes } from "../events/service.js";
import { type CartEntryRow, findCart } from "../cart/service.js";
import { checkoutCartOf, stockEvents, stockNeeds, takeStock } from "./store.js";
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
const ORDER_AND_HOLD = orderInsertStatements("checkout_order", () => {
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
});

export async function reserve(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
  input: PlaceOrderInput,
): Promise<Reserved> {
  const { db, clock, payments: provider } = deps;
  const site = ctx.site;
  const now = clock.now();
  // The stock change's own content version, and the products it changed (StoreCache keeps the rest).
  let stockVersion: number | undefined;
  let stockItems: string[] = [];
  const stockLeft = new Map<string, number>();
  const reserved = await db.transaction(async (tx): Promise<Reserved> => {
    // One after the other: a transaction's connection runs one query at a time.
    const settings = await ctx.reads.settings(tx);
    const rules = await keptStoreRules(tx, ctx.reads);
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
      rules,
      reads: ctx.reads,
      timeZone: site.timeZone,
      email,
    });
    if (priced.shippingError)
      throw badRequest(priced.shippingError, { shippingOptionId: priced.shippingError });
    if (priced.requiresShipping && !priced.selectedShippingOption && priced.shippingOptions.length > 0)
      throw badRequest(MSG_CHOOSE_SHIPPING, { shippingOptionId: MSG_CHOOSE_SHIPPING });
    // A code set aside for an automatic discount that saves more is not a mistake of the buyer's.
    const setAside = priced.automaticDiscount
      ? couponNotCombinableMessage(priced.automaticDiscount.name)
      : "";
    const firstInvalid = priced.invalidCoupons.find((c) => c.reason !== setAside);
    if (firstInvalid) throw badRequest(firstInvalid.reason, { couponCodes: firstInvalid.reason });

    const needs = stockNeeds(lines);
    // When the units this process last saw are too few (a drop selling out), the stock is tried
    // first, so that the many who come too late are answered before anything is written.
    const seen = new Map(lines.map((l) => [l.variantId, l.qtyInStock]));
    let stockTaken = false;
    if (needs.some((n) => (seen.get(n.variantId) ?? n.quantity) < n.quantity)) {
      if (!(await takeStock(tx, site.id, needs, stockLeft)))
        throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
      stockTaken = true;
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
      stockTaken: needs,
    };
    // The order's discount kept on its lines too, pro rata to what each line costs (gift cards take none).
    const lineDiscounts = allocateProRata(
      priced.discountCents,
      lines.map((l) => (l.productType === ProductType.GIFT_CARD ? 0 : l.unitPriceCents * l.quantity)),
    );
    // The gift cards' payments first (settled already; no foreign key ties them to the order).
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
    // Then the locks other orders wait for, as late and as briefly as can be, in one statement
    // held to the commit: the stock, all or nothing (the loser of a race for the last units stops
    // here, uncharged), the site's row (the stock's content version) and the order's number; the
    // same statement writes the card payment and marks the cart purchased (ORDER_AND_HOLD).
    const inserted = await insertOrderWithLines(
      tx,
      {
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
        bumpStock: needs.length > 0,
        takeStock: stockTaken ? undefined : needs,
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
      },
      {
        statements: ORDER_AND_HOLD,
        values: {
          paymentId: newId(),
          provider: provider.name,
          amountCents: priced.amountDueCents,
          events: eventRowsJson(stockTaken ? [] : stockEvents(site.id, needs)),
        },
      },
    );
    if (!inserted) throw new ApiError(409, "out_of_stock", MSG_NOT_ENOUGH_STOCK);
    const payment = inserted.also && rowOf(payments, inserted.also);
    const { order, lines: orderLines, contentVersion } = inserted;
    for (const [id, qty] of inserted.stockLeft ?? []) stockLeft.set(id, qty);
    if (contentVersion !== undefined) {
      stockVersion = contentVersion;
      stockItems = lines.filter((l) => l.limitedStock).map((l) => l.itemId);
    }
    // The discount's use, counted with the order (its use row names the order).
    if (priced.automaticDiscount) {
      const taken = await takeDiscountUse(tx, site.id, priced.automaticDiscount.id, {
        orderId,
        email,
        now,
        perCustomerLimit: priced.discountPerCustomerLimit,
      });
      if (!taken) throw new ApiError(409, "conflict", MSG_DISCOUNT_USED_UP_NOW);
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
  if (stockVersion !== undefined) ctx.reads.stockBumped(stockVersion, stockItems, stockLeft);
  return reserved;
}
