/** Taking an order, steps 2 and 3: charging the card and settling what the provider answered, once. */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { orders, payments } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import {
  type OrderLineRow,
  type OrderRow,
  type PaymentRow,
  lineDetailsOf,
  linesOf,
  markPendingOrderPaid,
  orderRow,
} from "../orders/service.js";
import { recordEvent } from "../analytics/service.js";
import {
  type ChargeResult,
  type PaymentEvent,
  PaymentEvents,
  type PaymentMethodInput,
  ProviderUnavailableError,
} from "../payments/provider.js";
import {
  type CheckoutDeps,
  type PlaceOrderContext,
  type PlaceOrderResult,
  MSG_PROVIDER_DOWN,
  MSG_IN_PROGRESS,
  MSG_PAYMENT_ABANDONED,
} from "./checkout-types.js";
import { answerFor, completePaidOrder, releaseOrder } from "./fulfilment.js";
import { settlePaidAtOnce, settlesAtOnce } from "./settle-paid.js";

const p = sql.placeholder;
/** A timestamp placeholder (its value an ISO string), usable in `.set()`. */
const timestampParam = (name: string) => sql<Date>`${p(name)}::timestamptz`;
/** A text placeholder, usable in `.set()`. */
const textParam = (name: string) => sql<string>`${p(name)}`;

/** The payment and the order of the idempotency key `key` on the site `websiteId`, as conditions. */
export const paymentOfKey = and(
  eq(payments.websiteId, p("websiteId")),
  eq(payments.idempotencyKey, p("key")),
);
export const orderOfKey = and(eq(orders.websiteId, p("websiteId")), eq(orders.idempotencyKey, p("key")));

const paymentByKey = compiled("payment_by_key", (db) => db.select().from(payments).where(paymentOfKey));

const paymentAndOrderRowByKey = compiled("payment_and_order_by_key", (db) =>
  db
    .select({ payment: payments, order: orders })
    .from(sql`(select 1) as one`)
    .leftJoin(payments, paymentOfKey)
    .leftJoin(orders, orderOfKey),
);

const unsettled = () => inArray(payments.status, ["pending", "requires_action"]);

/** The payment `id`, while pending, now awaits the buyer's action. */
const paymentRequiresAction = compiled("payment_requires_action", (db) =>
  db
    .update(payments)
    .set({
      status: "requires_action",
      providerRef: textParam("providerRef"),
      updatedAt: timestampParam("now"),
    })
    .where(and(eq(payments.id, p("id")), eq(payments.status, "pending")))
    .returning({ id: payments.id }),
);

/** The provider's reference of the unsettled payment `id`, still processing. */
const paymentProcessing = compiled("payment_processing", (db) =>
  db
    .update(payments)
    .set({ providerRef: textParam("providerRef"), updatedAt: timestampParam("now") })
    .where(and(eq(payments.id, p("id")), unsettled())),
);

/** Settles the unsettled payment `id` (succeeded or failed); answers it when it moved. */
const settlePayment = compiled("payment_settle", (db) =>
  db
    .update(payments)
    .set({
      status: sql`${p("status")}`,
      providerRef: textParam("providerRef"),
      lastError: textParam("lastError"),
      updatedAt: timestampParam("now"),
    })
    .where(and(eq(payments.id, p("id")), unsettled()))
    .returning(),
);

export async function cardPaymentByKey(
  db: Db | Tx,
  websiteId: string,
  key: string,
): Promise<PaymentRow | undefined> {
  const [row] = await paymentByKey(db, { websiteId, key });
  return row;
}

/** The card payment and the order sent with an idempotency key, in one statement (either may be absent). */
export async function paymentAndOrderByKey(
  db: Db | Tx,
  websiteId: string,
  key: string,
): Promise<{ payment?: PaymentRow; order?: OrderRow }> {
  const [row] = await paymentAndOrderRowByKey(db, { websiteId, key });
  return { payment: row?.payment ?? undefined, order: row?.order ?? undefined };
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

export async function chargeAndSettle(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  method: PaymentMethodInput,
  email: string,
  save: boolean,
  /** The order and its lines as the checkout inserted them. */
  known?: { order: OrderRow; lines: OrderLineRow[] },
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
  return settle(deps, ctx, payment, result, known);
}

/** The same idempotencyKey again: answer what became of that payment, settling it if needed. */
export async function resumePayment(
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

/**
 * Applies what the provider answered to our records, once (conditional on the payment's state).
 * The order's row is locked before the payment's, as settlePaidAtOnce locks them: a replay of the
 * same key settling beside the checkout's own settlement would otherwise deadlock with it.
 */
export async function settle(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: PaymentRow,
  result: ChargeResult,
  /** The order and its lines as they were inserted, when the caller has them. */
  known?: { order: OrderRow; lines: OrderLineRow[] },
): Promise<PlaceOrderResult> {
  const { db, clock, payments: provider } = deps;
  const now = clock.now();
  const events: PaymentEvent[] = [];
  if (result.status === "not_found") throw new ApiError(409, "conflict", MSG_IN_PROGRESS);

  if (result.status === "requires_action") {
    await db.transaction(async (tx) => {
      const moved = await paymentRequiresAction(tx, {
        id: payment.id,
        providerRef: result.providerRef,
        now: now.toISOString(),
      });
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
    await paymentProcessing(db, { id: payment.id, providerRef: result.providerRef, now: now.toISOString() });
    const order = (await orderRow(db, payment.orderId ?? ""))!;
    return answerFor(deps, ctx, order, events);
  }

  if (result.status === "succeeded") {
    if (known && settlesAtOnce(payment, known.lines)) {
      const paid = await settlePaidAtOnce(deps, ctx, payment, result, known.order, known.lines);
      if (paid) return answerFor(deps, ctx, paid, events, known.lines);
    }
    let lines: OrderLineRow[] | undefined;
    const order = await db.transaction(async (tx) => {
      const locked = await orderRow(tx, payment.orderId ?? "", { lock: true });
      if (!locked) throw new Error(`payment ${payment.id} has no order`);
      const moved = await settlePayment(tx, {
        id: payment.id,
        status: "succeeded",
        providerRef: result.providerRef,
        lastError: null,
        now: now.toISOString(),
      });
      if (!moved.length) return locked;
      if (payment.status === "requires_action" && provider.testMode) {
        events.push(PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE);
        await recordPaymentEvent(tx, payment, PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE);
      }
      // The order is paid in one update; only an order no longer pending is read as it is.
      const paid = await markPendingOrderPaid(
        tx,
        payment.orderId ?? "",
        { cardLast4: result.cardLast4, wallet: result.wallet },
        now,
      );
      const order = paid ?? locked;
      lines = await completePaidOrder(deps, tx, ctx, order, result.savedMethod, known?.lines);
      return order;
    });
    return answerFor(deps, ctx, order, events, lines);
  }

  // Failed: give back everything the order took, once.
  const released = await db.transaction(async (tx) => {
    const locked = payment.orderId ? await orderRow(tx, payment.orderId, { lock: true }) : undefined;
    const moved = await settlePayment(tx, {
      id: payment.id,
      status: "failed",
      providerRef: result.providerRef ?? payment.providerRef,
      lastError: result.message,
      now: now.toISOString(),
    });
    if (!moved.length) return false;
    if (result.authenticationFailed && provider.testMode) {
      events.push(PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE);
      await recordPaymentEvent(tx, payment, PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE);
    }
    await releaseOrder(tx, locked, now);
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
  await recordEvent(tx, {
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
