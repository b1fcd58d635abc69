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
 *
 * Step 1 is in reserve.ts, steps 2 and 3 in payment.ts, what follows a decided payment in
 * fulfilment.ts, quotes in quote.ts and the reconciler in reconcile.ts.
 */
import { ApiError } from "../../http/errors.js";
import {
  type CheckoutDeps,
  type NewOrderContext,
  type PlaceOrderInput,
  type PlaceOrderResult,
  MSG_IN_PROGRESS,
} from "./checkout-types.js";
import { answerFor } from "./fulfilment.js";
import { type Reserved, reserve } from "./reserve.js";
import { chargeAndSettle, paymentAndOrderByKey, resumePayment } from "./payment.js";

export {
  type CheckoutDeps,
  MSG_CART_EMPTY,
  MSG_EMAIL_INVALID,
  MSG_FIX_ADDRESS,
  type PlaceOrderInput,
} from "./checkout-types.js";
export { quote } from "./quote.js";
export { reconcilePendingPayments } from "./reconcile.js";

function isUniqueViolation(err: unknown): boolean {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if ((e as { code?: string }).code === "23505") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

export async function placeOrder(
  deps: CheckoutDeps,
  ctx: NewOrderContext,
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
    reserved = { kind: "replay", ...(await paymentAndOrderByKey(db, site.id, input.idempotencyKey)) };
  }
  if (reserved.kind === "replay") {
    if (reserved.payment) return resumePayment(deps, ctx, reserved.payment, input.payment);
    if (reserved.order) return answerFor(deps, ctx, reserved.order, []);
    throw new ApiError(409, "conflict", MSG_IN_PROGRESS);
  }
  if (!reserved.payment) {
    // Nothing to charge (gift cards paid it all): the order was settled in the same transaction.
    return answerFor(deps, ctx, reserved.order, [], reserved.lines);
  }
  return chargeAndSettle(deps, ctx, reserved.payment, input.payment, input.email, reserved.hasSubscription, {
    order: reserved.order,
    lines: reserved.lines,
  });
}
