/**
 * What an owner does with an order: fulfil it (with carrier and tracking, the buyer emailed),
 * refund it in full or in part (card first, then gift cards, optionally restocking lines), and
 * cancel it (everything refunded and restocked, subscriptions it started stopped). Each is one
 * transaction holding the order's row lock; refunds use a key made of the order's refunded
 * amount so a retried request never refunds twice.
 */
import { type RefundOrder, formatMoney, refundSuggestion } from "@atelier/commerce";
import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { customerSubscriptions, payments } from "../../db/schema.js";
import { ApiError, badRequest } from "../../http/errors.js";
import type { CheckoutDeps } from "../checkout/checkout-types.js";
import { restoreGiftCard } from "../checkout/gift-cards.js";
import { returnStock } from "../checkout/store.js";
import { queueEmail } from "../email/service.js";
import type { Website } from "../sites/service.js";
import {
  MSG_ALREADY_CANCELLED,
  MSG_ALREADY_FULFILLED,
  MSG_CANNOT_CANCEL_FULFILLED,
  MSG_NOT_PAID,
  MSG_REFUND_NOTHING,
  MSG_RESTOCK_TOO_MANY,
  MSG_UNKNOWN_LINE,
  type OrderLineRow,
  type OrderRow,
  assertRefundable,
  detailsOf,
  insertRefund,
  lineDetailsOf,
  linesOf,
  orderDetail,
  ownerOrder,
  setLineDetails,
  updateOrder,
  orderUpdated,
} from "./service.js";
import { recordEvent } from "../analytics/service.js";
import { recordEvent as recordDomainEvent } from "../events/service.js";

/** What an owner's operation needs: the same as a checkout (the database, clock, config and payments). */
export type OrderOpsDeps = CheckoutDeps;

export const MSG_REFUND_ZERO = "Enter an amount to refund, or choose items to restock.";
const MSG_REFUND_FAILED = "The payment provider did not accept the refund";
export const MSG_TRACKING_URL = "The tracking link must start with http:// or https://.";

interface FulfilInput {
  carrier?: string;
  trackingNumber?: string;
  trackingUrl?: string;
  notifyCustomer?: boolean;
}

export async function fulfilOrder(deps: OrderOpsDeps, site: Website, orderId: string, input: FulfilInput) {
  const { db, clock, config } = deps;
  const trackingUrl = input.trackingUrl?.trim() || undefined;
  if (trackingUrl && !/^https?:\/\/\S+$/i.test(trackingUrl))
    throw badRequest(MSG_TRACKING_URL, { trackingUrl: MSG_TRACKING_URL });
  await db.transaction(async (tx) => {
    const order = await ownerOrder(tx, site.id, orderId, { lock: true });
    if (order.status === "pending") throw new ApiError(409, "conflict", MSG_NOT_PAID);
    if (order.status === "cancelled" || order.status === "refunded")
      throw new ApiError(409, "conflict", MSG_ALREADY_CANCELLED);
    const d = detailsOf(order);
    if (d.fulfillment) throw new ApiError(409, "conflict", MSG_ALREADY_FULFILLED);
    const now = clock.now();
    const fulfillment = {
      carrier: input.carrier?.trim() || undefined,
      trackingNumber: input.trackingNumber?.trim() || undefined,
      trackingUrl,
      fulfilledAt: now.toISOString(),
    };
    await updateOrder(tx, order.id, {
      status: order.status === "paid" ? "fulfilled" : order.status,
      trackingNumber: fulfillment.trackingNumber ?? null,
      details: { ...d, fulfillment } as Record<string, unknown>,
      updatedAt: now,
    });
    if (input.notifyCustomer !== false) {
      const lines = await linesOf(tx, order.id);
      const track = [
        fulfillment.carrier ? `Carrier: ${fulfillment.carrier}` : "",
        fulfillment.trackingNumber ? `Tracking number: ${fulfillment.trackingNumber}` : "",
        fulfillment.trackingUrl ? `Track it: ${fulfillment.trackingUrl}` : "",
      ].filter(Boolean);
      await queueEmail(tx, config, {
        websiteId: site.id,
        to: order.email,
        subject: `Your order #${order.orderNumber} from ${site.title} is on its way`,
        text: [
          `Good news: your order #${order.orderNumber} is on its way.`,
          "",
          ...lines.map((l) => `${l.quantity} × ${l.productName}`),
          ...(track.length ? ["", ...track] : []),
        ].join("\n"),
        fromName: site.title,
      });
    }
    await recordDomainEvent(tx, orderUpdated(site.id, order.id, "fulfilled"));
    await recordEvent(tx, {
      websiteId: site.id,
      actor: "user",
      action: "order-fulfilled",
      objectType: "order",
      data: { orderId: order.id, ...fulfillment },
    });
  });
  return orderDetail(db, site.id, orderId);
}

interface RestockLine {
  lineId: string;
  quantity: number;
}

interface RefundInput {
  /** Cents to refund; everything left when omitted. */
  amountCents?: number;
  /** Restocks every unit not restocked yet. */
  restock?: boolean;
  /** Restocks these units only. */
  restockLines?: RestockLine[];
  /**
   * Refunds these units: without amountCents the amount is their price less their pro-rata
   * share of the order's discounts, plus their share of the tax (@atelier/commerce refunds.ts).
   */
  refundLines?: RestockLine[];
  reason?: string;
}

/** An order and its lines as the shared refund rule reads them. */
export function refundOrderOf(order: OrderRow, lines: readonly OrderLineRow[]): RefundOrder {
  return {
    taxCents: order.taxCents,
    shippingCents: order.shippingCents,
    lines: lines.map((l) => ({
      id: l.id,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      discountCents: lineDetailsOf(l).discountCents ?? 0,
      refundedQuantity: lineDetailsOf(l).refundedQuantity ?? 0,
    })),
  };
}

/** The units to refund, checked: each line of the order, never more units than are left. */
export function checkRefundLines(lines: readonly OrderLineRow[], chosen: readonly RestockLine[]) {
  for (const r of chosen) {
    const line = lines.find((l) => l.id === r.lineId);
    if (!line) throw badRequest(MSG_UNKNOWN_LINE, { refundLines: MSG_UNKNOWN_LINE });
    const left = line.quantity - (lineDetailsOf(line).refundedQuantity ?? 0);
    if (r.quantity > left) throw badRequest(MSG_REFUND_TOO_MANY, { refundLines: MSG_REFUND_TOO_MANY });
  }
  return chosen.filter((r) => r.quantity > 0);
}

export const MSG_REFUND_TOO_MANY = "That is more units than are left to refund on this line.";

/** Units of each line still out (not restocked by an earlier refund). */
function restockPlan(lines: readonly OrderLineRow[], restock: boolean | RestockLine[] | undefined) {
  const plan: { line: OrderLineRow; quantity: number }[] = [];
  if (!restock) return plan;
  if (restock === true) {
    for (const l of lines) {
      const left = l.quantity - (lineDetailsOf(l).restockedQuantity ?? 0);
      if (left > 0) plan.push({ line: l, quantity: left });
    }
    return plan;
  }
  for (const r of restock) {
    const line = lines.find((l) => l.id === r.lineId);
    if (!line) throw badRequest(MSG_UNKNOWN_LINE, { restock: MSG_UNKNOWN_LINE });
    const left = line.quantity - (lineDetailsOf(line).restockedQuantity ?? 0);
    if (r.quantity > left) throw badRequest(MSG_RESTOCK_TOO_MANY, { restock: MSG_RESTOCK_TOO_MANY });
    if (r.quantity > 0) plan.push({ line, quantity: r.quantity });
  }
  return plan;
}

/** Sends money back: the card first, then the gift cards that paid (newest first). */
async function moneyBack(deps: OrderOpsDeps, tx: Tx, order: OrderRow, amount: number) {
  const d = detailsOf(order);
  const giftCents = d.giftCardCents ?? 0;
  const cardCents = order.grandTotalCents - giftCents;
  const cardRefunded = Math.min(order.refundedCents, cardCents);
  const toCard = Math.min(amount, cardCents - cardRefunded);
  let toGift = amount - toCard;
  if (toCard > 0) {
    const [card] = await tx
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.orderId, order.id),
          inArray(payments.status, ["succeeded", "refunded"]),
          inArray(payments.provider, ["test", "stripe"]),
        ),
      );
    if (!card?.providerRef) throw new ApiError(409, "conflict", MSG_REFUND_NOTHING);
    const result = await deps.payments.refund({
      idempotencyKey: `refund:${order.id}:${order.refundedCents}:${toCard}`,
      providerRef: card.providerRef,
      amountCents: toCard,
    });
    if (!result.ok) throw new ApiError(402, "refund_failed", `${MSG_REFUND_FAILED}: ${result.message}`);
    if (cardRefunded + toCard >= cardCents) {
      await tx
        .update(payments)
        .set({ status: "refunded", updatedAt: deps.clock.now() })
        .where(eq(payments.id, card.id));
    }
  }
  // Gift cards get back what they paid, last used first.
  const giftRefundedBefore = Math.max(0, order.refundedCents - cardCents);
  let skip = giftRefundedBefore;
  for (const g of [...(d.giftCards ?? [])].reverse()) {
    if (toGift <= 0) break;
    const already = Math.min(skip, g.amountCents);
    skip -= already;
    const back = Math.min(toGift, g.amountCents - already);
    if (back <= 0) continue;
    await restoreGiftCard(tx, g.id, back);
    toGift -= back;
  }
  return { toCard, toGift: amount - toCard };
}

async function restockLines(tx: Tx, order: OrderRow, plan: { line: OrderLineRow; quantity: number }[]) {
  await returnStock(
    tx,
    order.websiteId,
    plan.filter((p) => p.line.variantId).map((p) => ({ variantId: p.line.variantId!, quantity: p.quantity })),
  );
  for (const p of plan) {
    await setLineDetails(tx, p.line, {
      restockedQuantity: (lineDetailsOf(p.line).restockedQuantity ?? 0) + p.quantity,
    });
  }
}

export async function refundOrder(deps: OrderOpsDeps, site: Website, orderId: string, input: RefundInput) {
  const { db, clock, config } = deps;
  await db.transaction(async (tx) => {
    const order = await ownerOrder(tx, site.id, orderId, { lock: true });
    const left = order.grandTotalCents - order.refundedCents;
    const lines = await linesOf(tx, order.id);
    const chosen = checkRefundLines(lines, input.refundLines ?? []);
    const suggested = chosen.length ? refundSuggestion(refundOrderOf(order, lines), chosen) : undefined;
    const amount = input.amountCents ?? (suggested ? Math.min(suggested.amountCents, left) : left);
    assertRefundable(order, amount);
    const plan = restockPlan(lines, input.restockLines?.length ? input.restockLines : input.restock);
    if (amount <= 0 && plan.length === 0) {
      // A zero refund that restocks nothing: say what is missing, unless nothing is left at all.
      if (left > 0) throw badRequest(MSG_REFUND_ZERO, { amountCents: MSG_REFUND_ZERO });
      throw new ApiError(409, "conflict", MSG_REFUND_NOTHING);
    }
    const now = clock.now();
    if (amount > 0) await moneyBack(deps, tx, order, amount);
    await restockLines(tx, order, plan);
    for (const l of suggested?.lines ?? []) {
      const line = lines.find((x) => x.id === l.lineId)!;
      const fresh = (await linesOf(tx, order.id)).find((x) => x.id === line.id) ?? line;
      await setLineDetails(tx, fresh, {
        refundedQuantity: (lineDetailsOf(fresh).refundedQuantity ?? 0) + l.quantity,
      });
    }
    const refunded = order.refundedCents + amount;
    const full = refunded >= order.grandTotalCents;
    await insertRefund(tx, {
      websiteId: site.id,
      orderId: order.id,
      amountCents: amount,
      restocked: plan.length > 0,
      reason: input.reason?.trim() || undefined,
      now,
    });
    await updateOrder(tx, order.id, {
      refundedCents: refunded,
      status: full ? "refunded" : order.status === "paid" ? "partially_refunded" : order.status,
      updatedAt: now,
    });
    if (amount > 0) {
      await queueEmail(tx, config, {
        websiteId: site.id,
        to: order.email,
        subject: `A refund for your order #${order.orderNumber} from ${site.title}`,
        text: [
          `We refunded ${formatMoney(amount, order.currency)} for your order #${order.orderNumber}.`,
          ...(input.reason?.trim() ? ["", `Reason: ${input.reason.trim()}`] : []),
          "",
          "Card refunds can take a few days to appear on your statement.",
        ].join("\n"),
        fromName: site.title,
      });
    }
    await recordDomainEvent(tx, orderUpdated(site.id, order.id, "refunded"));
    await recordEvent(tx, {
      websiteId: site.id,
      actor: "user",
      action: "order-refunded",
      objectType: "order",
      data: {
        orderId: order.id,
        amountCents: amount,
        restocked: plan.map((p) => ({ lineId: p.line.id, quantity: p.quantity })),
      },
    });
  });
  return orderDetail(db, site.id, orderId);
}

export async function cancelOrder(
  deps: OrderOpsDeps,
  site: Website,
  orderId: string,
  input: { restock?: boolean; reason?: string; notifyCustomer?: boolean },
) {
  const { db, clock, config } = deps;
  await db.transaction(async (tx) => {
    const order = await ownerOrder(tx, site.id, orderId, { lock: true });
    if (order.status === "pending") throw new ApiError(409, "conflict", MSG_NOT_PAID);
    if (order.status === "cancelled") throw new ApiError(409, "conflict", MSG_ALREADY_CANCELLED);
    const d = detailsOf(order);
    if (d.fulfillment) throw new ApiError(409, "conflict", MSG_CANNOT_CANCEL_FULFILLED);
    const now = clock.now();
    const lines = await linesOf(tx, order.id);
    const amount = order.grandTotalCents - order.refundedCents;
    if (amount > 0) await moneyBack(deps, tx, order, amount);
    const plan = restockPlan(lines, input.restock !== false);
    await restockLines(tx, order, plan);
    if (amount > 0 || plan.length) {
      await insertRefund(tx, {
        websiteId: site.id,
        orderId: order.id,
        amountCents: amount,
        restocked: plan.length > 0,
        reason: input.reason?.trim() || "Order cancelled",
        now,
      });
    }
    const subscriptionIds = lines
      .map((l) => lineDetailsOf(l).subscriptionId)
      .filter((x): x is string => Boolean(x));
    if (subscriptionIds.length) {
      await tx
        .update(customerSubscriptions)
        .set({ status: "cancelled", nextBillingAt: null })
        .where(
          and(
            inArray(customerSubscriptions.id, subscriptionIds),
            eq(customerSubscriptions.websiteId, site.id),
          ),
        );
    }
    await updateOrder(tx, order.id, {
      status: "cancelled",
      refundedCents: order.grandTotalCents,
      details: { ...d, cancelledAt: now.toISOString() } as Record<string, unknown>,
      updatedAt: now,
    });
    if (input.notifyCustomer !== false) {
      await queueEmail(tx, config, {
        websiteId: site.id,
        to: order.email,
        subject: `Your order #${order.orderNumber} from ${site.title} was cancelled`,
        text: [
          `Your order #${order.orderNumber} was cancelled${amount > 0 ? ` and ${formatMoney(amount, order.currency)} refunded` : ""}.`,
          ...(input.reason?.trim() ? ["", `Reason: ${input.reason.trim()}`] : []),
        ].join("\n"),
        fromName: site.title,
      });
    }
    await recordDomainEvent(tx, orderUpdated(site.id, order.id, "cancelled"));
    await recordEvent(tx, {
      websiteId: site.id,
      actor: "user",
      action: "order-cancelled",
      objectType: "order",
      data: { orderId: order.id, refundedCents: amount },
    });
  });
  return orderDetail(db, site.id, orderId);
}
