/**
 * Orders: created by checkout (pending until paid), shown to the buyer on the confirmation
 * pages and in the confirmation email, and run by the owner (list, search, detail, fulfil with
 * tracking, refund in full or in part with or without restocking, cancel). Money is integer
 * cents; every owner action is one transaction with the order row locked.
 */
import type { Order, OrderLine } from "@atelier/owner-api";
import { likePattern, selectOffsetPage } from "../../lib/paging.js";
import { ProductType, valueMoney } from "@atelier/commerce";
import { type SQL, and, asc, desc, eq, gte, ilike, inArray, notInArray, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled, compiledSql, rowOf } from "../../db/compiled.js";
import { bumpContentVersion } from "../../db/content-version.js";
import { stockChangeCtes, stockNeedsJson } from "../catalog/stock-change.js";
import { orderLines, orders, payments, refunds } from "../../db/schema.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import { isId, newId } from "../../lib/ids.js";
import { type NewEvent, SYSTEM, recordEvent } from "../events/service.js";

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

type PaymentStatus = "pending" | "paid" | "partially_refunded" | "refunded" | "cancelled";
type FulfillmentStatus = "unfulfilled" | "fulfilled" | "not_required";

const FIRST_ORDER_NUMBER = 1001;

const MSG_ORDER_NOT_FOUND = "No such order.";
export const MSG_REFUND_TOO_MUCH = "The refund is more than what is left to refund on this order.";
export const MSG_REFUND_NOTHING = "There is nothing left to refund on this order.";
export const MSG_NOT_PAID = "This order is not paid yet.";
export const MSG_ALREADY_CANCELLED = "This order is cancelled.";
export const MSG_ALREADY_FULFILLED = "This order is already fulfilled.";
export const MSG_CANNOT_CANCEL_FULFILLED = "A fulfilled order cannot be cancelled; refund it instead.";
export const MSG_RESTOCK_TOO_MANY = "You cannot restock more units than the order line has left.";
export const MSG_UNKNOWN_LINE = "That line is not part of this order.";

/** What an order keeps of its pricing and payment (orders.details). */
export interface OrderDetails {
  shippingOption?: { id: string; name: string; costCents: number } | null;
  coupons?: { code: string; kind: string; discountCents: number }[];
  /** Each discount as its own line: automatic discounts by name, coupons by code. */
  discounts?: {
    name: string;
    amountCents: number;
    shippingCents: number;
    discountId?: string;
    couponCode?: string;
  }[];
  taxRules?: { name: string; ratePercent: string; taxCents: number }[];
  giftCards?: { id: string; last4: string; amountCents: number }[];
  giftCardCents?: number;
  cardLast4?: string;
  wallet?: string;
  paymentProvider?: string;
  cartToken?: boolean;
  fulfillment?: { carrier?: string; trackingNumber?: string; trackingUrl?: string; fulfilledAt: string };
  cancelledAt?: string;
  paidAt?: string;
}

/** What an order line keeps besides its columns (order_lines.details). */
export interface LineDetails {
  additionalFields?: unknown;
  isSubscription?: boolean;
  subscriptionPlan?: unknown;
  giftCardRecipient?: { email?: string; name?: string; message?: string };
  giftCardIds?: string[];
  subscriptionId?: string;
  digital?: boolean;
  /** This line's share of the order's discount (minor units). */
  discountCents?: number;
  restockedQuantity?: number;
  /** Units refunded by refunds that named this line (refundLines). */
  refundedQuantity?: number;
  url?: string;
  imageUrl?: string | null;
}

export const detailsOf = (o: OrderRow) => o.details as OrderDetails;
export const lineDetailsOf = (l: OrderLineRow) => l.details as LineDetails;

// ─── Creating orders (checkout) ─────────────────────────────────────────────────────────────

/**
 * Inserts an order and its lines (a JSON array) in one statement, numbered by the website's row in
 * order_counters: its lock makes concurrent orders take numbers one after the other (to the
 * commit), and the greater of it and the orders' highest number counts (orders imported with
 * their numbers). With `bump`, the same statement bumps the site's content version for the
 * order's stock (answered as `contentVersion`); with `take`, it first takes the stock (the
 * variants' rows locked in id order), all or nothing: when a variant has too few units it
 * inserts nothing and answers no row. So the locks other orders wait for (the stock, the site's
 * row, the counter) are taken in one round trip at the very end of the checkout.
 *
 * With `checkCart`, the statement first locks the cart `cartId` and goes on only if it is open
 * and still the row version `cartVersion` (its xmin) the order was priced from; it then answers
 * one row even when it inserted nothing, `atelier_cart_ok` telling why. Such a statement may run
 * on its own, outside a transaction: it writes all or nothing, and its locks last only as long
 * as it does.
 *
 * `also` adds common table expressions that write more in the same statement (they may test
 * `(select ok from go)`); its CTE named `also` is answered as `atelier_also` (JSON).
 */
function orderInsert(mode: { bump: boolean; take: boolean; also?: () => SQL; checkCart?: boolean }) {
  return () => {
    const p = sql.placeholder;
    const websiteId = p("websiteId");
    const orderId = p("id");
    const cart = mode.checkCart
      ? sql`cart_ok as materialized (
          select id from carts
          where id = ${p("cartId")} and xmin::text = ${p("cartVersion")} and is_purchased = false
          for update
        ), `
      : sql``;
    const cartOk = mode.checkCart ? sql`exists (select from cart_ok)` : sql`true`;
    const stock = mode.take
      ? sql`${stockChangeCtes(websiteId, p("needs"), -1, cartOk)},
          go as (select ok from stock_enough)`
      : sql`stock_changed as (select null::text as id, null::int as qty_in_stock where false),
          go as (select ${cartOk} as ok)`;
    const site = mode.bump
      ? bumpContentVersion(websiteId, sql`(select ok from go)`)
      : sql`select null::int as content_version`;
    return sql`with ${cart}${stock}, site as (${site}), counter as (
        insert into order_counters (website_id, last_number)
        select ${websiteId}, (select coalesce(max(o.order_number), ${FIRST_ORDER_NUMBER - 1}::int) + 1
          from orders o where o.website_id = ${websiteId})
        where (select ok from go)
        on conflict (website_id) do update
          set last_number = greatest(order_counters.last_number, excluded.last_number - 1) + 1
        returning last_number
      ), lines as (
        insert into order_lines (id, website_id, order_id, item_id, variant_id, sku, product_name, product_type,
          attributes, unit_price_cents, quantity, details)
        select x.id, ${websiteId}, ${orderId}, x.item_id, x.variant_id, x.sku, x.product_name, x.product_type,
          x.attributes, x.unit_price_cents, x.quantity, x.details
        from jsonb_to_recordset(${p("lines")}::jsonb) as x(id text, item_id text, variant_id text,
          sku text, product_name text, product_type int, attributes jsonb, unit_price_cents int, quantity int,
          details jsonb)
        where (select ok from go)
      ), inserted as (
        insert into orders (id, website_id, order_number, cart_id, email, shipping_address, billing_address,
          status, currency, subtotal_cents, tax_cents, shipping_cents, discount_cents, grand_total_cents,
          test_mode, idempotency_key, details, created_at, updated_at)
        select ${orderId}, ${websiteId}, (select last_number from counter), ${p("cartId")}, ${p("email")},
          ${p("shippingAddress")}::jsonb, ${p("billingAddress")}::jsonb, 'pending', ${p("currency")},
          ${p("subtotalCents")}::int, ${p("taxCents")}::int, ${p("shippingCents")}::int,
          ${p("discountCents")}::int, ${p("grandTotalCents")}::int, ${p("testMode")}::boolean,
          ${p("idempotencyKey")}, ${p("details")}::jsonb, ${p("now")}::timestamptz, ${p("now")}::timestamptz
        where (select ok from go)
        returning *
      )${mode.also ? sql`, ${mode.also()}` : sql``}
      select inserted.*, (select content_version from site) as atelier_content_version,
        (select jsonb_object_agg(id, qty_in_stock) from stock_changed) as atelier_stock_left,
        ${mode.also ? sql`(select to_jsonb(a) from also a)` : sql`null::jsonb`} as atelier_also,
        ${cartOk} as atelier_cart_ok
      from ${mode.checkCart ? sql`(select 1) as atelier_one left join inserted on true` : sql`inserted`}`;
  };
}
type InsertedOrderRow = Record<string, unknown> & {
  atelier_content_version: number | null;
  atelier_stock_left: Record<string, number> | null;
  atelier_also: Record<string, unknown> | null;
  atelier_cart_ok: boolean;
};

/** The statements inserting an order and its lines (see orderInsert), named after `name`. */
export interface OrderInserts {
  plain: (tx: Db | Tx, values: Record<string, unknown>) => Promise<InsertedOrderRow[]>;
  bumpingStock: OrderInserts["plain"];
  takingStock: OrderInserts["plain"];
}

export function orderInsertStatements(
  name: string,
  also?: () => SQL,
  opts: { checkCart?: boolean } = {},
): OrderInserts {
  const { checkCart } = opts;
  return {
    plain: compiledSql<InsertedOrderRow>(name, orderInsert({ bump: false, take: false, also, checkCart })),
    bumpingStock: compiledSql<InsertedOrderRow>(
      `${name}_stock`,
      orderInsert({ bump: true, take: false, also, checkCart }),
    ),
    takingStock: compiledSql<InsertedOrderRow>(
      `${name}_taking_stock`,
      orderInsert({ bump: true, take: true, also, checkCart }),
    ),
  };
}
const ORDER_INSERTS = orderInsertStatements("orders_insert_with_lines");

export interface NewOrder {
  id: string;
  websiteId: string;
  cartId: string | null;
  email: string;
  shippingAddress: Record<string, string> | null;
  billingAddress: Record<string, string> | null;
  currency: string;
  subtotalCents: number;
  taxCents: number;
  shippingCents: number;
  discountCents: number;
  grandTotalCents: number;
  testMode: boolean;
  idempotencyKey: string;
  details: OrderDetails;
  now: Date;
  lines: Omit<OrderLineRow, "orderId" | "websiteId">[];
  /** Bumps the site's content version for the stock the order took (see orderInsert). */
  bumpStock?: boolean;
  /**
   * Takes this stock first, all or nothing, and bumps the content version for it (see
   * orderInsert); the caller writes its inventory events (checkout/store.ts stockEvents).
   */
  takeStock?: readonly { variantId: string; quantity: number }[];
}

export async function insertOrder(tx: Tx, o: Omit<NewOrder, "takeStock">): Promise<OrderRow> {
  const inserted = await insertOrderWithLines(tx, o);
  if (!inserted || inserted === "cart changed") throw new Error(`order ${o.id} was not inserted`);
  return inserted.order;
}

/**
 * Inserts a pending order and its lines; answers both, the lines in the order `linesOf` reads
 * them, with `bumpStock` or `takeStock` the site's new content version, and with `takeStock`
 * the units left of each variant. Answers undefined when `takeStock` found too few units of a
 * variant, and "cart changed" when statements that check the cart (orderInsertStatements) found
 * it changed or bought since it was read (nothing is inserted either way).
 */
export async function insertOrderWithLines(
  tx: Db | Tx,
  o: NewOrder,
  /** Statements that also write more (orderInsertStatements), and the values they take. */
  also?: { statements: OrderInserts; values: Record<string, unknown> },
): Promise<
  | {
      order: OrderRow;
      lines: OrderLineRow[];
      contentVersion?: number;
      stockLeft?: Map<string, number>;
      /** The `also` CTE's row (JSON), when there is one. */
      also?: Record<string, unknown>;
    }
  | undefined
  | "cart changed"
> {
  // The lines as the database keeps them (JSON), and as it would answer them.
  const stored = JSON.parse(JSON.stringify(o.lines)) as typeof o.lines;
  const take = o.takeStock?.length ? o.takeStock : undefined;
  const statements = also?.statements ?? ORDER_INSERTS;
  const insert = take ? statements.takingStock : o.bumpStock ? statements.bumpingStock : statements.plain;
  const [row] = await insert(tx, {
    ...also?.values,
    id: o.id,
    websiteId: o.websiteId,
    cartId: o.cartId,
    email: o.email,
    shippingAddress: o.shippingAddress && JSON.stringify(o.shippingAddress),
    billingAddress: o.billingAddress && JSON.stringify(o.billingAddress),
    currency: o.currency,
    subtotalCents: o.subtotalCents,
    taxCents: o.taxCents,
    shippingCents: o.shippingCents,
    discountCents: o.discountCents,
    grandTotalCents: o.grandTotalCents,
    testMode: o.testMode,
    idempotencyKey: o.idempotencyKey,
    details: JSON.stringify(o.details),
    now: o.now.toISOString(),
    ...(take ? { needs: stockNeedsJson(take) } : {}),
    lines: JSON.stringify(
      stored.map((l) => ({
        id: l.id,
        item_id: l.itemId,
        variant_id: l.variantId,
        sku: l.sku,
        product_name: l.productName,
        product_type: l.productType,
        attributes: l.attributes,
        unit_price_cents: l.unitPriceCents,
        quantity: l.quantity,
        details: l.details,
      })),
    ),
  });
  if (!row || row.id == null) {
    if (row?.atelier_cart_ok === false) return "cart changed";
    if (take) return undefined;
    throw new Error(`order ${o.id} was not inserted`);
  }
  const lines: OrderLineRow[] = stored.map((l) => ({
    ...l,
    variantId: l.variantId ?? null,
    orderId: o.id,
    websiteId: o.websiteId,
  }));
  // Ids are lowercase hex: JavaScript orders them as PostgreSQL does.
  lines.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const {
    atelier_content_version: contentVersion,
    atelier_stock_left: left,
    atelier_also: alsoRow,
    atelier_cart_ok: _cartOk,
    ...orderColumns
  } = row;
  return {
    order: rowOf(orders, orderColumns),
    lines,
    contentVersion: contentVersion ?? undefined,
    stockLeft: left ? new Map(Object.entries(left).map(([id, qty]) => [id, Number(qty)])) : undefined,
    also: alsoRow ?? undefined,
  };
}

export async function orderRow(db: Db | Tx, orderId: string, opts: { lock?: boolean } = {}) {
  if (!isId(orderId)) return undefined;
  const q = db.select().from(orders).where(eq(orders.id, orderId));
  const [row] = opts.lock ? await q.for("update") : await q;
  return row;
}

/** Whether a site has an order (placed, not pending or cancelled) by an email since a time. */
export async function hasOrderBy(db: Db | Tx, websiteId: string, email: string, since: Date) {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.websiteId, websiteId),
        sql`lower(${orders.email}) = ${email.toLowerCase()}`,
        gte(orders.createdAt, since),
        notInArray(orders.status, ["pending", "cancelled"]),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function orderByIdempotencyKey(db: Db | Tx, websiteId: string, key: string) {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.websiteId, websiteId), eq(orders.idempotencyKey, key)));
  return row;
}

export async function linesOf(db: Db | Tx, orderId: string): Promise<OrderLineRow[]> {
  return db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id));
}

/** The lines of these orders, in the same order as `linesOf` answers them. */
export async function linesOfOrders(db: Db | Tx, orderIds: string[]): Promise<OrderLineRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(orderLines)
    .where(inArray(orderLines.orderId, orderIds))
    .orderBy(asc(orderLines.id));
}

async function paymentsOf(db: Db | Tx, orderId: string): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(asc(payments.createdAt));
}

/** The domain event of a change to a placed order (webhooks' `order.updated`). */
export function orderUpdated(
  websiteId: string,
  orderId: string,
  change: "paid" | "fulfilled" | "refunded" | "cancelled",
): NewEvent {
  return {
    websiteId,
    type: "order.updated",
    entity: { type: "order", id: orderId },
    actor: SYSTEM,
    payload: { change },
  };
}

/**
 * The order becomes paid (status pending → paid), with what the payment told us. An order is
 * placed when it is paid (a pending order whose payment fails is deleted), so this is when
 * `order.created` is recorded, in the same transaction.
 */
export async function markOrderPaid(
  tx: Tx,
  order: OrderRow,
  patch: OrderDetails,
  now: Date,
): Promise<OrderRow> {
  const [row] = await tx
    .update(orders)
    .set({
      status: "paid",
      details: { ...detailsOf(order), ...patch, paidAt: now.toISOString() } as Record<string, unknown>,
      updatedAt: now,
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, "pending")))
    .returning();
  if (row) await orderCreated(tx, row);
  return row ?? order;
}

/**
 * markOrderPaid by id, without reading the order first: its details get `patch` and paidAt added
 * in the update itself. Undefined when the order is not pending (paid or released before).
 */
export async function markPendingOrderPaid(
  tx: Tx,
  orderId: string,
  patch: OrderDetails,
  now: Date,
): Promise<OrderRow | undefined> {
  if (!isId(orderId)) return undefined;
  const [row] = await payPendingOrder(tx, {
    id: orderId,
    added: JSON.stringify({ ...patch, paidAt: now.toISOString() }),
    now: now.toISOString(),
  });
  if (row) await orderCreated(tx, row);
  return row;
}

const payPendingOrder = compiled("orders_pay_pending", (db) =>
  db
    .update(orders)
    .set({
      status: "paid",
      details: sql`${orders.details} || ${sql.placeholder("added")}::jsonb`,
      updatedAt: sql`${sql.placeholder("now")}::timestamptz`,
    })
    .where(and(eq(orders.id, sql.placeholder("id")), eq(orders.status, "pending")))
    .returning(),
);

async function orderCreated(tx: Tx, row: OrderRow) {
  await recordEvent(tx, orderCreatedEvent(row));
}

/** The outbox event of an order that is placed (paid, or pending a later payment). */
export function orderCreatedEvent(row: Pick<OrderRow, "id" | "websiteId" | "status">): NewEvent {
  return {
    websiteId: row.websiteId,
    type: "order.created",
    entity: { type: "order", id: row.id },
    actor: SYSTEM,
    payload: { status: row.status },
  };
}

/** A pending order whose payment failed disappears (its lines go with it). */
export async function deletePendingOrder(tx: Tx, orderId: string): Promise<void> {
  await tx.delete(orders).where(and(eq(orders.id, orderId), eq(orders.status, "pending")));
}

export async function setLineDetails(tx: Tx, line: OrderLineRow, patch: LineDetails): Promise<void> {
  await tx
    .update(orderLines)
    .set({ details: { ...lineDetailsOf(line), ...patch } as Record<string, unknown> })
    .where(eq(orderLines.id, line.id));
}

// ─── The order as the API answers it ─────────────────────────────────────────────────────────

function paymentStatusOf(order: OrderRow): PaymentStatus {
  if (order.status === "cancelled") return "cancelled";
  if (order.status === "pending") return "pending";
  if (order.refundedCents > 0 && order.refundedCents >= order.grandTotalCents) return "refunded";
  if (order.refundedCents > 0) return "partially_refunded";
  return "paid";
}

function fulfillmentStatusOf(order: OrderRow, lines: readonly OrderLineRow[]): FulfillmentStatus {
  if (detailsOf(order).fulfillment) return "fulfilled";
  return lines.some((l) => l.productType === ProductType.PHYSICAL) ? "unfulfilled" : "not_required";
}

function lineJson(l: OrderLineRow): OrderLine {
  const d = lineDetailsOf(l);
  return {
    id: l.id,
    itemId: l.itemId,
    variantId: l.variantId,
    sku: l.sku,
    productName: l.productName,
    productType: l.productType,
    attributes: l.attributes,
    quantity: l.quantity,
    unitPriceCents: l.unitPriceCents,
    subtotalCents: l.unitPriceCents * l.quantity,
    discountCents: d.discountCents ?? 0,
    additionalFields: d.additionalFields ?? null,
    isSubscription: d.isSubscription === true,
    restockedQuantity: d.restockedQuantity ?? 0,
    refundedQuantity: d.refundedQuantity ?? 0,
    url: d.url ?? null,
    imageUrl: d.imageUrl ?? null,
  };
}

/** The Order analytics payload of SPEC §3. */
function orderAnalytics(order: OrderRow, lines: readonly OrderLineRow[]) {
  return {
    id: order.id,
    purchasedCartId: order.cartId,
    testMode: order.testMode,
    websiteId: order.websiteId,
    grandTotal: valueMoney(order.grandTotalCents, order.currency),
    shippingTotal: valueMoney(order.shippingCents, order.currency),
    taxTotal: valueMoney(order.taxCents, order.currency),
    items: lines.map((l) => ({
      productName: l.productName,
      sku: l.sku,
      unitPrice: valueMoney(l.unitPriceCents, order.currency),
      quantity: l.quantity,
    })),
  };
}

/** An order's discounts, each as its own line (orders from before discount lines: their coupons). */
export function discountLinesOf(
  d: OrderDetails,
): { name: string; amountCents: number; shippingCents: number }[] {
  if (d.discounts)
    return d.discounts.map(({ name, amountCents, shippingCents }) => ({ name, amountCents, shippingCents }));
  return (d.coupons ?? [])
    .filter((c) => c.discountCents > 0)
    .map((c) => ({ name: `Discount (${c.code})`, amountCents: c.discountCents, shippingCents: 0 }));
}

/** An order as the owner API and the buyer's order view answer it: the shared `Order`, and more. */
export function orderJson(order: OrderRow, lines: readonly OrderLineRow[]) {
  const d = detailsOf(order);
  const giftCardCents = d.giftCardCents ?? 0;
  const json = {
    id: order.id,
    orderNumber: order.orderNumber,
    websiteId: order.websiteId,
    status: order.status,
    paymentStatus: paymentStatusOf(order),
    fulfillmentStatus: fulfillmentStatusOf(order, lines),
    email: order.email,
    currency: order.currency,
    subtotalCents: order.subtotalCents,
    discountCents: order.discountCents,
    discounts: discountLinesOf(d),
    shippingCents: order.shippingCents,
    taxCents: order.taxCents,
    grandTotalCents: order.grandTotalCents,
    giftCardCents,
    /** What the card paid. */
    chargedCents: order.grandTotalCents - giftCardCents,
    refundedCents: order.refundedCents,
    testMode: order.testMode,
    shippingAddress: order.shippingAddress ?? null,
    billingAddress: order.billingAddress ?? null,
    shippingOption: d.shippingOption ?? null,
    coupons: d.coupons ?? [],
    taxRules: d.taxRules ?? [],
    giftCards: (d.giftCards ?? []).map((g) => ({ last4: g.last4, amountCents: g.amountCents })),
    cardLast4: d.cardLast4 ?? null,
    wallet: d.wallet ?? null,
    fulfillment: d.fulfillment ?? null,
    trackingNumber: order.trackingNumber,
    createdOn: order.createdAt.getTime(),
    modifiedOn: order.updatedAt.getTime(),
    lines: lines.map(lineJson),
    analytics: orderAnalytics(order, lines),
  };
  return json satisfies Order;
}

// ─── The owner's API ─────────────────────────────────────────────────────────────────────────

interface OrderListQuery {
  q?: string;
  status?: string;
  limit: number;
  offset: number;
}

/** Orders of a website, newest first; `q` matches the number, email or a buyer's name. */
export async function listOrders(db: Db, websiteId: string, query: OrderListQuery) {
  const filters = [eq(orders.websiteId, websiteId)];
  // Orders waiting for their payment are not orders yet for the owner, unless asked for.
  if (query.status) filters.push(eq(orders.status, query.status));
  else filters.push(sql`${orders.status} <> 'pending'`);
  const q = query.q?.trim();
  if (q) {
    const like = likePattern(q);
    const digits = q.replace(/^#/, "");
    filters.push(
      or(
        ilike(orders.email, like),
        sql`(${orders.shippingAddress}->>'firstName') || ' ' || (${orders.shippingAddress}->>'lastName') ilike ${like}`,
        sql`(${orders.billingAddress}->>'firstName') || ' ' || (${orders.billingAddress}->>'lastName') ilike ${like}`,
        ...(/^\d{1,9}$/.test(digits) ? [eq(orders.orderNumber, Number(digits))] : []),
        sql`exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orders.id} and (${orderLines.productName} ilike ${like} or ${orderLines.sku} ilike ${like}))`,
      )!,
    );
  }
  const { rows, total } = await selectOffsetPage(
    db,
    orders,
    and(...filters),
    [desc(orders.orderNumber)],
    query,
  );
  const lines = await linesOfOrders(
    db,
    rows.map((r) => r.id),
  );
  return {
    orders: rows.map((o) =>
      orderJson(
        o,
        lines.filter((l) => l.orderId === o.id),
      ),
    ),
    total,
  };
}

export async function ownerOrder(
  db: Db | Tx,
  websiteId: string,
  orderId: string,
  opts: { lock?: boolean } = {},
) {
  const order = await orderRow(db, orderId, opts);
  if (!order || order.websiteId !== websiteId) throw notFound(MSG_ORDER_NOT_FOUND);
  return order;
}

export async function orderDetail(db: Db, websiteId: string, orderId: string) {
  const order = await ownerOrder(db, websiteId, orderId);
  const [lines, pays, refs] = await Promise.all([
    linesOf(db, order.id),
    paymentsOf(db, order.id),
    db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.createdAt)),
  ]);
  return {
    order: orderJson(order, lines),
    payments: pays.map((p) => ({
      id: p.id,
      provider: p.provider,
      status: p.status,
      amountCents: p.amountCents,
      currency: p.currency,
      providerRef: p.providerRef,
      lastError: p.lastError,
      createdOn: p.createdAt.getTime(),
    })),
    refunds: refs.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      restocked: r.restocked,
      reason: r.reason,
      createdOn: r.createdAt.getTime(),
    })),
  };
}

export function assertRefundable(order: OrderRow, amountCents: number) {
  if (order.status === "pending") throw new ApiError(409, "conflict", MSG_NOT_PAID);
  if (order.status === "cancelled") throw new ApiError(409, "conflict", MSG_ALREADY_CANCELLED);
  const left = order.grandTotalCents - order.refundedCents;
  if (left <= 0) throw new ApiError(409, "conflict", MSG_REFUND_NOTHING);
  if (amountCents > left) throw badRequest(MSG_REFUND_TOO_MUCH, { amountCents: MSG_REFUND_TOO_MUCH });
}

export async function insertRefund(
  tx: Tx,
  r: {
    websiteId: string;
    orderId: string;
    amountCents: number;
    restocked: boolean;
    reason?: string;
    now: Date;
  },
) {
  await tx.insert(refunds).values({
    id: newId(),
    websiteId: r.websiteId,
    orderId: r.orderId,
    amountCents: r.amountCents,
    restocked: r.restocked,
    reason: r.reason ?? null,
    createdAt: r.now,
  });
}

export async function updateOrder(tx: Tx, orderId: string, set: Partial<typeof orders.$inferInsert>) {
  const [row] = await tx.update(orders).set(set).where(eq(orders.id, orderId)).returning();
  return row!;
}
