/**
 * What becomes of an order once its payment is decided: a paid order gets its gift cards (issued and
 * emailed), subscriptions and confirmation email; a failed one gives back all it took.
 */
import { isValidEmail } from "@atelier/forms";
import { ProductType } from "@atelier/commerce";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { coupons, payments } from "../../db/schema.js";
import {
  type OrderDetails,
  type OrderLineRow,
  type OrderRow,
  deletePendingOrder,
  detailsOf,
  lineDetailsOf,
  linesOf,
  orderJson,
  setLineDetails,
} from "../orders/service.js";
import { recordEvent } from "../analytics/service.js";
import { type ConfirmationExtras, orderConfirmationEmail, queueGiftCardEmail } from "../orders/emails.js";
import { type EmailMessage, queueEmail } from "../email/service.js";
import type { PaymentEvent } from "../payments/provider.js";
import { createSubscriptionsForOrder, subscriptionIdsOf } from "../subscriptions/service.js";
import { confirmationUrl, downloadLinks } from "../orders/links.js";
import { issueGiftCard, restoreGiftCard } from "./gift-cards.js";
import { type StockNeed, returnStock, setCartPurchased } from "./store.js";
import type { CheckoutDeps, NewOrderContext, PlaceOrderContext, PlaceOrderResult } from "./checkout-types.js";
import { emailDesignOf } from "../design/service.js";

/**
 * Gives back what a pending order took (stock, coupon uses, gift-card balances, the cart) and
 * drops it; `order` is its row as read under its lock in `tx`.
 */
export async function releaseOrder(tx: Tx, order: OrderRow | undefined, now: Date): Promise<void> {
  if (order?.status !== "pending") return;
  const d = detailsOf(order) as OrderDetails & {
    stockTaken?: StockNeed[];
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
export async function completePaidOrder(
  deps: CheckoutDeps,
  tx: Tx,
  ctx: PlaceOrderContext,
  order: OrderRow,
  savedMethod: string | undefined,
  knownLines?: OrderLineRow[],
): Promise<OrderLineRow[]> {
  const { config, clock } = deps;
  const lines = knownLines ?? (await linesOf(tx, order.id));
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
  const email = await confirmationEmail(deps, tx, ctx, order, lines, {
    giftCards,
    subscriptions: subs.map((s) => ({ productName: s.productName, text: s.text })),
  });
  await queueEmail(tx, config, email);
  await recordEvent(tx, orderPlacedAnalytics(order, lines));
  // Lines carry the gift cards and subscriptions made above.
  return giftCards.length || subs.length ? linesOf(tx, order.id) : lines;
}

/** A paid order's confirmation email, with its order link and download links. */
export async function confirmationEmail(
  deps: CheckoutDeps,
  db: Db | Tx,
  ctx: PlaceOrderContext,
  order: OrderRow,
  lines: readonly OrderLineRow[],
  made: Pick<ConfirmationExtras, "giftCards" | "subscriptions">,
): Promise<EmailMessage> {
  const { config, clock } = deps;
  const downloads = await downloadLinks(config.dataDir, ctx.origin, order, lines, clock.now());
  // The email design read once per content version when the checkout keeps the site's reads.
  const reads = (ctx as Partial<NewOrderContext>).reads;
  const design = reads && (await reads.keep("email-design", db, (d) => emailDesignOf(d as Db, ctx.site)));
  const orderUrl = await confirmationUrl(config.dataDir, ctx.origin, order);
  return orderConfirmationEmail(db, ctx.site, order, lines, { orderUrl, downloads, ...made }, design);
}

/** The analytics event of a paid order (the sales reports count it). */
export function orderPlacedAnalytics(order: OrderRow, lines: readonly OrderLineRow[]) {
  return {
    websiteId: order.websiteId,
    actor: "user" as const,
    action: "order-placed",
    objectType: "order",
    data: { order: orderJson(order, lines).analytics },
  };
}

export async function answerFor(
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
