/**
 * A card order's settlement in the common case, in one statement: the payment succeeds, the
 * order is paid, and its outbox event (with a job per consumer), confirmation email (with its
 * sending job when the server can send) and analytics event are written. The general path
 * (payment.ts `settle`, fulfilment.ts `completePaidOrder`) takes seven round trips for the same
 * writes; under a sale, round trips are most of a checkout's Node CPU (docs/benchmarks.md).
 *
 * The common case: a payment still pending (no 3-D Secure step on record), an order with no gift
 * cards or subscriptions to make, the order and its lines as the checkout inserted them. Everything
 * written is made here by the general path's own functions (the same email, event and analytics
 * data); only their inserts are the statement's. The statement changes nothing unless the order is
 * still pending and the payment still unsettled (both checked under the order's row lock), and
 * then the caller falls back to the general path, which finds out what happened.
 */
import { ProductType } from "@atelier/commerce";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { compiledSql } from "../../db/compiled.js";
import { outboxEmail } from "../email/service.js";
import { eventRowsJson, eventsInsertCtes } from "../events/service.js";
import {
  type OrderLineRow,
  type OrderRow,
  detailsOf,
  lineDetailsOf,
  orderCreatedEvent,
} from "../orders/service.js";
import type { ChargeResult } from "../payments/provider.js";
import type { CheckoutDeps, PlaceOrderContext } from "./checkout-types.js";
import { confirmationEmail, orderPlacedAnalytics } from "./fulfilment.js";

const p = sql.placeholder;

const settlePaidOrder = compiledSql<{ id: string }>(
  "checkout_settle_paid",
  () => sql`with target as (
      select id from orders where id = ${p("orderId")} and status = 'pending' for update
    ), moved as (
      update payments set status = 'succeeded', provider_ref = ${p("providerRef")}, last_error = null,
        updated_at = ${p("now")}::timestamptz
      where id = ${p("paymentId")} and status = 'pending' and exists (select 1 from target)
      returning id
    ), paid as (
      update orders set status = 'paid', details = details || ${p("added")}::jsonb,
        updated_at = ${p("now")}::timestamptz
      where id = (select id from target) and exists (select 1 from moved)
      returning id, website_id
    ), ${eventsInsertCtes(p("events"), sql`exists (select 1 from paid)`)}, email as (
      insert into outbound_emails (id, website_id, to_address, subject, text_body, html_body, headers, status)
      select ${p("emailId")}, website_id, ${p("emailTo")}, ${p("emailSubject")}, ${p("emailText")},
        ${p("emailHtml")}, ${p("emailHeaders")}::jsonb, ${p("emailStatus")}
      from paid
    ), email_job as (
      insert into jobs (kind, payload, run_at, max_attempts)
      select ${p("emailJobKind")}::text, ${p("emailJobPayload")}::jsonb, date_trunc('milliseconds', now()),
        ${p("emailJobMaxAttempts")}::int
      from paid where ${p("emailJobKind")}::text is not null
    ), analytics as (
      insert into analytics_events (website_id, actor, action, object_type, data)
      select website_id, ${p("analyticsActor")}, ${p("analyticsAction")}, ${p("analyticsObjectType")},
        ${p("analyticsData")}::jsonb
      from paid
    )
    select id from paid`,
);

/** Whether an order's settlement can be the one statement (nothing to issue or start for it). */
export function settlesAtOnce(payment: { status: string }, lines: readonly OrderLineRow[]): boolean {
  return (
    payment.status === "pending" &&
    lines.every((l) => l.productType !== ProductType.GIFT_CARD && !lineDetailsOf(l).isSubscription)
  );
}

/**
 * Settles a succeeded charge of a pending order in one statement; answers the paid order, or
 * undefined when the statement found the order or the payment already moved on (nothing written).
 */
export async function settlePaidAtOnce(
  deps: CheckoutDeps,
  ctx: PlaceOrderContext,
  payment: { id: string },
  result: Extract<ChargeResult, { status: "succeeded" }>,
  order: OrderRow,
  lines: readonly OrderLineRow[],
): Promise<OrderRow | undefined> {
  const now = deps.clock.now();
  const added = JSON.stringify({
    cardLast4: result.cardLast4,
    wallet: result.wallet,
    paidAt: now.toISOString(),
  });
  // The row the update makes: what the email, the event and the answer are made from.
  const paid: OrderRow = {
    ...order,
    status: "paid",
    details: { ...detailsOf(order), ...JSON.parse(added) },
    updatedAt: now,
  };
  const email = outboxEmail(
    deps.config,
    await confirmationEmail(deps, deps.db as Db, ctx, paid, lines, { giftCards: [], subscriptions: [] }),
  );
  const analytics = orderPlacedAnalytics(paid, lines);
  const rows = await settlePaidOrder(deps.db, {
    orderId: order.id,
    paymentId: payment.id,
    providerRef: result.providerRef,
    now: now.toISOString(),
    added,
    events: eventRowsJson([orderCreatedEvent(paid)]),
    emailId: email.row.id,
    emailTo: email.row.toAddress,
    emailSubject: email.row.subject,
    emailText: email.row.textBody,
    emailHtml: email.row.htmlBody,
    emailHeaders: email.row.headers ? JSON.stringify(email.row.headers) : null,
    emailStatus: email.row.status,
    emailJobKind: email.job?.kind ?? null,
    emailJobPayload: email.job ? JSON.stringify(email.job.payload) : null,
    emailJobMaxAttempts: email.job?.maxAttempts ?? null,
    analyticsActor: analytics.actor,
    analyticsAction: analytics.action,
    analyticsObjectType: analytics.objectType,
    analyticsData: JSON.stringify(analytics.data),
  });
  return rows.length ? paid : undefined;
}
