/**
 * Abandoned checkouts and recovery emails (issue 24). The checkout saves the shopper's email
 * (`saveContact`); the recurring scan (`scanAbandonedCheckouts`, on the jobs queue at least once
 * a minute) claims due rows with `FOR UPDATE SKIP LOCKED`, marks a checkout abandoned once it has
 * been quiet for the store's "abandoned after" time (recording `checkout.abandoned`), and sends
 * the owner's reminders through the email outbox in the same transaction as the row's counter:
 * with several processes scanning, a shopper never gets two copies of a reminder. Orders stop
 * reminders (checked before each send, and recorded by the `order.created` consumer, which also
 * attributes recovered revenue).
 */
import { isValidEmail } from "@atelier/forms";
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { abandonedCheckouts, carts, orders, recoveryUnsubscribes } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { isId, newId } from "../../lib/ids.js";
import { CART_COOKIE_DAYS, cartById, findCart, renewCartToken } from "../cart/service.js";
import { MSG_CART_EMPTY, MSG_EMAIL_INVALID } from "../checkout/checkout-types.js";
import { SYSTEM, type DomainEvent, recordEvent, registerEventConsumer } from "../events/service.js";
import { registerRecurringJob } from "../jobs/service.js";
import { hasOrderBy } from "../orders/service.js";
import { type CartView, cartViewOf, queueReminder } from "./email.js";
import { type RecoverySettings, type Reminder, recoverySettingsOf } from "./settings.js";

export type CheckoutRow = typeof abandonedCheckouts.$inferSelect;

/** How often the scan looks for newly abandoned checkouts and due reminders. */
export const SCAN_EVERY_MS = 60_000;
export const SCAN_JOB = "recovery.scan";
/** Orders by the same email this long after a reminder count as recovered. */
export const ATTRIBUTION_MS = 7 * DAY_MS;
/** Recovered revenue is summed over this window. */
export const REVENUE_WINDOW_MS = 30 * DAY_MS;
const MINUTE = 60_000;
const CART_LIFE_MS = CART_COOKIE_DAYS * DAY_MS;

export const MSG_NO_REMINDER_LEFT = "Every reminder has been sent to this shopper.";
export const MSG_REMINDERS_STOPPED = "Reminders to this shopper have stopped.";

export type CheckoutStatus = "not_contacted" | "reminded" | "recovered" | "unsubscribed";
export const CHECKOUT_STATUSES: CheckoutStatus[] = ["not_contacted", "reminded", "recovered", "unsubscribed"];

export function statusOf(row: Pick<CheckoutRow, "orderId" | "stopped" | "remindersSent">): CheckoutStatus {
  if (row.orderId) return "recovered";
  if (row.stopped === "unsubscribed") return "unsubscribed";
  return row.remindersSent > 0 ? "reminded" : "not_contacted";
}

// ─── The checkout saves the shopper's email ──────────────────────────────────────────────────

export interface ContactInput {
  websiteId: string;
  cartToken: string | undefined;
  email: string;
  firstName?: string;
  /** The site's address as the shopper used it (links in reminders go there). */
  origin: string;
}

/** Saves the email of the visitor's open cart (a new checkout row, or the same one updated). */
export async function saveContact(deps: Pick<Deps, "db" | "clock">, input: ContactInput): Promise<void> {
  const email = input.email.trim().toLowerCase();
  if (!isValidEmail(email)) throw badRequest(MSG_EMAIL_INVALID, { email: MSG_EMAIL_INVALID });
  const firstName = input.firstName?.trim().slice(0, 100) || null;
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const cart = await findCart(tx, input.websiteId, input.cartToken);
    if (!cart) throw badRequest(MSG_CART_EMPTY);
    const nextCheckAt = new Date(now.getTime() + MINUTE);
    await tx
      .insert(abandonedCheckouts)
      .values({
        id: newId(),
        websiteId: input.websiteId,
        cartId: cart.id,
        email,
        firstName,
        contactedAt: now,
        origin: input.origin,
        nextCheckAt,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: abandonedCheckouts.cartId,
        set: {
          email,
          firstName: firstName ?? sql`${abandonedCheckouts.firstName}`,
          contactedAt: now,
          origin: input.origin,
          nextCheckAt: sql`case when ${abandonedCheckouts.stopped} is null then ${nextCheckAt.toISOString()}::timestamptz else ${abandonedCheckouts.nextCheckAt} end`,
          updatedAt: now,
        },
      });
  });
}

// ─── The scan ────────────────────────────────────────────────────────────────────────────────

/** What the scan decided for a row: columns to set. */
type Patch = Partial<typeof abandonedCheckouts.$inferInsert>;

/**
 * The reminder to send now and when to look next: among the enabled reminders from `next` on,
 * the last one already due is sent (missed earlier ones are skipped, so a late scan sends one
 * email, not a burst); the next look is when the first later one falls due.
 */
export function reminderPlan(
  reminders: readonly Reminder[],
  next: number,
  abandonedAt: Date,
  now: Date,
): { send?: number; nextAt?: Date } {
  const at = (r: Reminder) => new Date(abandonedAt.getTime() + r.delayMinutes * MINUTE);
  const left = reminders.map((r, i) => ({ r, i })).filter(({ r, i }) => i >= next && r.enabled);
  const due = left.filter(({ r }) => at(r) <= now);
  const send = due.length ? due[due.length - 1]!.i : undefined;
  const later = left.filter(({ r, i }) => at(r) > now && (send === undefined || i > send));
  const nextAt = later.length ? new Date(Math.min(...later.map(({ r }) => at(r).getTime()))) : undefined;
  return { send, nextAt };
}

/** The last sign of life of a checkout: the email given, the cart changed or restored. */
function lastActive(row: CheckoutRow, cartUpdatedAt: Date): Date {
  const times = [row.contactedAt, cartUpdatedAt, row.restoredAt].filter((d): d is Date => Boolean(d));
  return new Date(Math.max(...times.map((d) => d.getTime())));
}

async function isUnsubscribed(db: Db | Tx, websiteId: string, email: string) {
  const [row] = await db
    .select({ email: recoveryUnsubscribes.email })
    .from(recoveryUnsubscribes)
    .where(and(eq(recoveryUnsubscribes.websiteId, websiteId), eq(recoveryUnsubscribes.email, email)));
  return Boolean(row);
}

/** Why reminders to this checkout must stop now, if they must. */
async function stopReason(tx: Tx, row: CheckoutRow, cart: { isPurchased: boolean } | undefined) {
  if (!cart || cart.isPurchased || (await hasOrderBy(tx, row.websiteId, row.email, row.createdAt)))
    return "ordered";
  if (await isUnsubscribed(tx, row.websiteId, row.email)) return "unsubscribed";
  return undefined;
}

/** One checkout of a site by id, locked for update when asked. */
async function checkoutRow(db: Db | Tx, websiteId: string, id: string, opts: { lock?: boolean } = {}) {
  const query = db
    .select()
    .from(abandonedCheckouts)
    .where(and(eq(abandonedCheckouts.websiteId, websiteId), eq(abandonedCheckouts.id, id)));
  const [row] = opts.lock ? await query.for("update") : await query;
  return row;
}

async function patchRow(tx: Tx, id: string, patch: Patch, now: Date) {
  await tx
    .update(abandonedCheckouts)
    .set({ ...patch, updatedAt: now })
    .where(eq(abandonedCheckouts.id, id));
}

/** Sends reminder `index` of a locked row and records it: the email and the counter commit together. */
async function sendReminder(
  deps: Deps,
  tx: Tx,
  row: CheckoutRow,
  settings: RecoverySettings,
  index: number,
  view: CartView,
  now: Date,
): Promise<Patch> {
  const expires = new Date(lastActiveOf(row, view).getTime() + CART_LIFE_MS);
  const coupon = await queueReminder(deps, tx, {
    row,
    reminder: settings.reminders[index]!,
    view,
    expires,
    now,
  });
  return {
    remindersSent: row.remindersSent + 1,
    nextReminder: index + 1,
    lastReminderAt: now,
    subtotalCents: view.subtotalCents,
    ...(coupon ? { couponCodes: [...row.couponCodes, coupon] } : {}),
  };
}

const lastActiveOf = (row: CheckoutRow, view: CartView) => lastActive(row, view.cartUpdatedAt);

/** Looks at one claimed row: abandoned yet? a reminder due? reminders to stop? */
async function step(deps: Deps, tx: Tx, row: CheckoutRow, settings: RecoverySettings, now: Date) {
  const found = await cartById(tx, row.websiteId, row.cartId);
  const stopped = await stopReason(tx, row, found?.cart);
  if (stopped || !found) {
    return patchRow(tx, row.id, { stopped: stopped ?? "ordered", nextCheckAt: null }, now);
  }
  const view = await cartViewOf(tx, row.websiteId, found);
  const active = lastActive(row, found.cart.updatedAt);
  if (active.getTime() + CART_LIFE_MS <= now.getTime()) {
    return patchRow(tx, row.id, { stopped: "expired", nextCheckAt: null }, now);
  }
  const quietFrom = new Date(active.getTime() + settings.abandonedAfterMinutes * MINUTE);
  if (quietFrom > now) return patchRow(tx, row.id, { nextCheckAt: quietFrom }, now);
  if (!view.lines.length) {
    // Nothing in the cart: not a checkout to win back (yet).
    return patchRow(
      tx,
      row.id,
      { nextCheckAt: new Date(now.getTime() + settings.abandonedAfterMinutes * MINUTE) },
      now,
    );
  }
  let abandonedAt = row.abandonedAt;
  const patch: Patch = {};
  if (!abandonedAt) {
    abandonedAt = quietFrom;
    Object.assign(patch, { abandonedAt, subtotalCents: view.subtotalCents });
    await recordEvent(tx, {
      websiteId: row.websiteId,
      type: "checkout.abandoned",
      entity: { type: "checkout", id: row.id },
      actor: SYSTEM,
      payload: { subtotalCents: view.subtotalCents, currency: view.currency },
    });
  }
  if (!settings.enabled) return patchRow(tx, row.id, { ...patch, nextCheckAt: null }, now);
  const plan = reminderPlan(settings.reminders, row.nextReminder, abandonedAt, now);
  if (plan.send === undefined) {
    const finished = !plan.nextAt;
    return patchRow(
      tx,
      row.id,
      { ...patch, nextCheckAt: plan.nextAt ?? null, ...(finished ? { stopped: "finished" } : {}) },
      now,
    );
  }
  if (view.lines.every((l) => l.soldOut)) {
    return patchRow(tx, row.id, { ...patch, stopped: "sold_out", nextCheckAt: null }, now);
  }
  const sent = await sendReminder(deps, tx, { ...row, abandonedAt }, settings, plan.send, view, now);
  return patchRow(
    tx,
    row.id,
    { ...patch, ...sent, nextCheckAt: plan.nextAt ?? null, ...(plan.nextAt ? {} : { stopped: "finished" }) },
    now,
  );
}

/**
 * Claims due checkout rows (skipping those another process holds) and moves each on. Answers
 * how many rows it looked at. Runs batches until none is due.
 */
export async function scanAbandonedCheckouts(deps: Deps, batch = 50): Promise<number> {
  let seen = 0;
  for (;;) {
    const now = deps.clock.now();
    const n = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(abandonedCheckouts)
        .where(and(isNull(abandonedCheckouts.stopped), lte(abandonedCheckouts.nextCheckAt, now)))
        .orderBy(asc(abandonedCheckouts.nextCheckAt))
        .limit(batch)
        .for("update", { skipLocked: true });
      const settings = new Map<string, RecoverySettings>();
      for (const row of rows) {
        const s = settings.get(row.websiteId) ?? (await recoverySettingsOf(tx, row.websiteId));
        settings.set(row.websiteId, s);
        await step(deps, tx, row, s, now);
      }
      return rows.length;
    });
    seen += n;
    if (n < batch) return seen;
  }
}

registerRecurringJob(SCAN_JOB, SCAN_EVERY_MS, async (deps) => {
  await scanAbandonedCheckouts(deps);
});

/** After the settings change: every open checkout of the site is looked at again by the next scan. */
export async function recheckSite(tx: Tx, websiteId: string, now: Date) {
  await tx
    .update(abandonedCheckouts)
    .set({ nextCheckAt: now })
    .where(and(eq(abandonedCheckouts.websiteId, websiteId), isNull(abandonedCheckouts.stopped)));
}

// ─── "Send reminder now" ─────────────────────────────────────────────────────────────────────

/** Sends the next reminder of an abandoned checkout at once (the owner's button). */
export async function remindNow(deps: Deps, websiteId: string, id: string): Promise<CheckoutRow> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await checkoutRow(tx, websiteId, id, { lock: true });
    if (!row?.abandonedAt) throw notFound("No such abandoned checkout.");
    const found = await cartById(tx, websiteId, row.cartId);
    const stopped =
      row.stopped === "unsubscribed" || row.stopped === "ordered"
        ? row.stopped
        : await stopReason(tx, row, found?.cart);
    if (stopped || !found) {
      await patchRow(tx, row.id, { stopped: stopped ?? "ordered", nextCheckAt: null }, now);
      throw new ApiError(409, "conflict", MSG_REMINDERS_STOPPED);
    }
    const settings = await recoverySettingsOf(tx, websiteId);
    const index = settings.reminders.findIndex((r, i) => i >= row.nextReminder && r.enabled);
    if (index < 0) throw new ApiError(409, "conflict", MSG_NO_REMINDER_LEFT);
    const view = await cartViewOf(tx, websiteId, found);
    const sent = await sendReminder(deps, tx, row, settings, index, view, now);
    const plan = reminderPlan(settings.reminders, index + 1, row.abandonedAt, now);
    const left = settings.reminders.some((r, i) => i > index && r.enabled);
    const patch: Patch = {
      ...sent,
      nextCheckAt: left ? (plan.nextAt ?? now) : null,
      ...(left ? { stopped: null } : { stopped: "finished" }),
    };
    await patchRow(tx, row.id, patch, now);
    return { ...row, ...patch } as CheckoutRow;
  });
}

// ─── Restoring a cart and unsubscribing ──────────────────────────────────────────────────────

/** Restores the checkout's cart for the browser that opened the link: the answer is its cart token. */
export async function restoreCheckoutCart(
  deps: Pick<Deps, "db" | "clock">,
  websiteId: string,
  id: string,
): Promise<string | undefined> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await checkoutRow(tx, websiteId, id, { lock: true });
    if (!row) return undefined;
    const token = await renewCartToken(tx, row.cartId, now);
    if (!token) return undefined;
    await patchRow(tx, row.id, { restoredAt: now }, now);
    // The latest reminder's single-use code comes back with the cart: the checkout applies it.
    const code = row.couponCodes[row.couponCodes.length - 1];
    if (code) {
      await tx
        .update(carts)
        .set({ couponCodes: sql`array_append(array_remove(${carts.couponCodes}, ${code}), ${code})` })
        .where(eq(carts.id, row.cartId));
    }
    return token;
  });
}

/** Unsubscribes the checkout's email from the site's recovery emails; stops every open checkout of it. */
export async function unsubscribeCheckout(deps: Pick<Deps, "db" | "clock">, websiteId: string, id: string) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const row = await checkoutRow(tx, websiteId, id);
    if (!row) return false;
    await tx
      .insert(recoveryUnsubscribes)
      .values({ websiteId, email: row.email, createdAt: now })
      .onConflictDoNothing();
    await tx
      .update(abandonedCheckouts)
      .set({ stopped: "unsubscribed", nextCheckAt: null, updatedAt: now })
      .where(
        and(
          eq(abandonedCheckouts.websiteId, websiteId),
          eq(abandonedCheckouts.email, row.email),
          or(isNull(abandonedCheckouts.stopped), eq(abandonedCheckouts.stopped, "finished")),
          isNull(abandonedCheckouts.orderId),
        ),
      );
    return true;
  });
}

// ─── Orders: stop reminders, attribute recovered revenue ──────────────────────────────────────

/**
 * The order, and whether any open checkout may be its: most orders have none, and end here. An
 * email of printable ASCII only is matched as trim and toLowerCase would spell it; any other
 * counts every open checkout of the site (the locked read in attributeOrder matches exactly).
 */
const orderAndCandidates = compiled("recovery_order_candidates", (db) =>
  db
    .select({
      order: orders,
      candidates: sql<boolean>`exists (select 1 from ${abandonedCheckouts} a
        where a.website_id = ${orders.websiteId} and a.order_id is null
        and (a.cart_id = ${orders.cartId} or case when ${orders.email} ~ '^[!-~]*$'
          then a.email = translate(${orders.email}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')
          else true end))`,
    })
    .from(orders)
    .where(eq(orders.id, sql.placeholder("orderId"))),
);

/**
 * An order stops the reminders of every checkout of its cart or email, and is recovered
 * revenue for one of them: the checkout whose recovery link restored its cart, else the one
 * last reminded within 7 days before it.
 */
export async function attributeOrder(deps: Pick<Deps, "db" | "clock">, orderId: string): Promise<void> {
  if (!isId(orderId)) return;
  // The order, and whether any open checkout may be its: most orders have none, and end here. An
  // email of printable ASCII only is matched as trim and toLowerCase would spell it; any other
  // counts every open checkout of the site (the locked read below matches exactly).
  const [found] = await orderAndCandidates(deps.db, { orderId });
  const order = found?.order;
  if (!order || order.status === "pending" || !found.candidates) return;
  await deps.db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(abandonedCheckouts)
      .where(
        and(
          eq(abandonedCheckouts.websiteId, order.websiteId),
          isNull(abandonedCheckouts.orderId),
          or(
            order.cartId ? eq(abandonedCheckouts.cartId, order.cartId) : undefined,
            eq(abandonedCheckouts.email, order.email.trim().toLowerCase()),
          ),
        ),
      )
      .for("update");
    if (!rows.length) return;
    const placed = order.createdAt.getTime();
    const viaLink = rows.find((r) => r.cartId === order.cartId && r.restoredAt && r.abandonedAt);
    const reminded = rows
      .filter(
        (r) =>
          r.lastReminderAt &&
          placed >= r.lastReminderAt.getTime() - MINUTE &&
          placed - r.lastReminderAt.getTime() <= ATTRIBUTION_MS,
      )
      .sort((a, b) => b.lastReminderAt!.getTime() - a.lastReminderAt!.getTime())[0];
    const credited = viaLink ?? reminded;
    const now = deps.clock.now();
    for (const r of rows) {
      const patch: Patch = { stopped: r.stopped ?? "ordered", nextCheckAt: null };
      // The checkout whose cart became the order is the one it recovered, credited or not.
      if (r.abandonedAt && (r === credited || r.cartId === order.cartId)) patch.orderId = order.id;
      if (r === credited)
        Object.assign(patch, { recoveredCents: order.grandTotalCents, recoveredAt: order.createdAt });
      await patchRow(tx, r.id, patch, now);
    }
  });
}

registerEventConsumer("recovery", {
  types: ["order.created"],
  handle: async (deps, event: DomainEvent) => {
    if (event.entityId) await attributeOrder(deps, event.entityId);
  },
});

// ─── The owner's list ────────────────────────────────────────────────────────────────────────

function statusWhere(status: CheckoutStatus | undefined) {
  const notUnsubscribed = or(
    isNull(abandonedCheckouts.stopped),
    sql`${abandonedCheckouts.stopped} <> 'unsubscribed'`,
  );
  switch (status) {
    case "recovered":
      return isNotNull(abandonedCheckouts.orderId);
    case "unsubscribed":
      return and(isNull(abandonedCheckouts.orderId), eq(abandonedCheckouts.stopped, "unsubscribed"));
    case "reminded":
      return and(
        isNull(abandonedCheckouts.orderId),
        notUnsubscribed,
        sql`${abandonedCheckouts.remindersSent} > 0`,
      );
    case "not_contacted":
      return and(
        isNull(abandonedCheckouts.orderId),
        notUnsubscribed,
        eq(abandonedCheckouts.remindersSent, 0),
      );
    default:
      return undefined;
  }
}

function encodeCursor(row: CheckoutRow): string {
  return Buffer.from(`${row.abandonedAt!.getTime()}:${row.id}`).toString("base64url");
}

function decodeCursor(cursor: string | undefined): { at: Date; id: string } | undefined {
  if (!cursor) return undefined;
  const [ms, id] = Buffer.from(cursor, "base64url").toString().split(":");
  const at = new Date(Number(ms));
  if (!id || Number.isNaN(at.getTime())) throw badRequest("This page cursor is not valid.");
  return { at, id };
}

export const PAGE_SIZE = 50;

/** Abandoned checkouts of a site, newest first, with recovered revenue of the last 30 days. */
export async function listAbandonedCheckouts(
  deps: Pick<Deps, "db" | "clock">,
  websiteId: string,
  opts: { status?: CheckoutStatus; cursor?: string; limit?: number },
) {
  const limit = opts.limit ?? PAGE_SIZE;
  const after = decodeCursor(opts.cursor);
  const rows = await deps.db
    .select()
    .from(abandonedCheckouts)
    .where(
      and(
        eq(abandonedCheckouts.websiteId, websiteId),
        isNotNull(abandonedCheckouts.abandonedAt),
        statusWhere(opts.status),
        after
          ? or(
              lt(abandonedCheckouts.abandonedAt, after.at),
              and(eq(abandonedCheckouts.abandonedAt, after.at), lt(abandonedCheckouts.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(abandonedCheckouts.abandonedAt), desc(abandonedCheckouts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const checkouts = [];
  for (const r of page) checkouts.push(await checkoutJson(deps.db, r));
  return {
    checkouts,
    recoveredRevenue30d: await recoveredRevenue(deps, websiteId),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
  };
}

export async function recoveredRevenue(deps: Pick<Deps, "db" | "clock">, websiteId: string): Promise<number> {
  const since = new Date(deps.clock.now().getTime() - REVENUE_WINDOW_MS);
  const [row] = await deps.db
    .select({ total: sql<string | null>`sum(${abandonedCheckouts.recoveredCents})` })
    .from(abandonedCheckouts)
    .where(and(eq(abandonedCheckouts.websiteId, websiteId), gte(abandonedCheckouts.recoveredAt, since)));
  return Number(row?.total ?? 0);
}

/** One checkout as the owner API (and its webhook) answers it. */
export async function checkoutJson(db: Db | Tx, row: CheckoutRow) {
  const found = await cartById(db, row.websiteId, row.cartId);
  const view = found ? await cartViewOf(db, row.websiteId, found) : undefined;
  return {
    id: row.id,
    email: row.email,
    items: (view?.lines ?? []).map((l) => ({
      title: l.title,
      options: l.options,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      imageUrl: l.imageUrl,
    })),
    subtotal: row.subtotalCents,
    currency: view?.currency ?? "USD",
    abandonedAt: row.abandonedAt?.getTime() ?? null,
    remindersSent: row.remindersSent,
    lastReminderAt: row.lastReminderAt?.getTime() ?? null,
    status: statusOf(row),
    orderId: row.orderId,
    recoveredCents: row.recoveredCents,
  };
}

/** One checkout of a site by id (the webhook's data). */
export async function checkoutById(db: Db, websiteId: string, id: string) {
  const row = await checkoutRow(db, websiteId, id);
  return row ? checkoutJson(db, row) : undefined;
}
