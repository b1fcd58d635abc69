/**
 * Customer subscriptions (SPEC §3 subscription product terms). A subscription checkout (the
 * cartToken of POST /api/3/commerce/cart/subscription) creates one per subscribed line, with
 * billingPeriod {value, unit} and numBillingCycles (0 = until cancelled), the first cycle paid
 * by the order. Renewals are charged without the buyer on the card saved at checkout, each as
 * a renewal order; a failed renewal is retried (1, 3, then 5 days later) and then the
 * subscription is past due. Every renewal charge has a key made of the subscription, the cycle
 * and the attempt, so no crash or second process ever charges a cycle twice.
 */
import { siteBaseUrl } from "../sites/service.js";
import {
  ProductType,
  RENEWAL_RETRY_DELAYS_DAYS,
  afterFailedRenewal,
  billingDate,
  formatMoney,
  hasMoreCycles,
  parseBillingUnit,
  parseSubscriptionPlan,
  priceCheckout,
  subscriptionPriceText,
  tracksStock,
} from "@atelier/commerce";
import { and, asc, desc, eq, inArray, lte } from "drizzle-orm";
import type { Config } from "../../config.js";
import type { Db, Tx } from "../../db/client.js";
import { contentItems, customerSubscriptions, payments, productVariants, websites } from "../../db/schema.js";
import { ApiError, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { isId, newId } from "../../lib/ids.js";
import { selectOffsetPage } from "../../lib/paging.js";
import { queueEmail } from "../email/service.js";
import { enqueueJob } from "../jobs/service.js";
import { storeRulesOf } from "../checkout/pricing.js";
import { takeStock } from "../checkout/store.js";
import { confirmationUrl } from "../orders/links.js";
import {
  type OrderLineRow,
  type OrderRow,
  detailsOf,
  insertOrder,
  linesOf,
  updateOrder,
  lineDetailsOf,
  markOrderPaid,
  orderByIdempotencyKey,
  setLineDetails,
} from "../orders/service.js";
import { recordEvent } from "../analytics/service.js";
import { queueOrderConfirmation } from "../orders/emails.js";
import type { PaymentProvider } from "../payments/provider.js";
import { ProviderUnavailableError } from "../payments/provider.js";
import { type NewEvent, SYSTEM, recordEvent as recordDomainEvent } from "../events/service.js";

type SubscriptionRow = typeof customerSubscriptions.$inferSelect;

export const RENEW_JOB = "subscriptions.renew";
const MSG_SUBSCRIPTION_NOT_FOUND = "No such subscription.";
const MSG_SUBSCRIPTION_NOT_ACTIVE = "This subscription is no longer active.";

/** The price text of a subscription: "$19.00 every month", "$40.00 every 2 weeks for 6 weeks". */
function subscriptionText(
  s: Pick<
    SubscriptionRow,
    "priceCents" | "quantity" | "currency" | "billingPeriodValue" | "billingPeriodUnit" | "numBillingCycles"
  >,
) {
  const unit = parseBillingUnit(s.billingPeriodUnit) ?? "MONTH";
  return subscriptionPriceText(formatMoney(s.priceCents * s.quantity, s.currency), {
    billingPeriod: { value: s.billingPeriodValue, unit },
    numBillingCycles: s.numBillingCycles,
  });
}

export function subscriptionJson(s: SubscriptionRow, productName?: string) {
  return {
    id: s.id,
    websiteId: s.websiteId,
    email: s.email,
    itemId: s.itemId,
    variantId: s.variantId,
    sku: s.sku,
    productName: productName ?? null,
    quantity: s.quantity,
    priceCents: s.priceCents,
    currency: s.currency,
    billingPeriod: { value: s.billingPeriodValue, unit: s.billingPeriodUnit },
    numBillingCycles: s.numBillingCycles,
    cyclesBilled: s.cyclesBilled,
    status: s.status,
    pastDue: s.status === "past_due",
    failedAttempts: s.failedAttempts,
    nextBillingOn: s.nextBillingAt ? s.nextBillingAt.getTime() : null,
    createdOn: s.createdAt.getTime(),
    text: subscriptionText(s),
  };
}

/** The domain event of a customer's subscription started or changed (webhooks' `subscription.*`). */
function subscriptionEvent(websiteId: string, type: string, id: string, change: string): NewEvent {
  return { websiteId, type, entity: { type: "subscription", id }, actor: SYSTEM, payload: { change } };
}

/** Starts the subscriptions of a paid order (inside its settling transaction). */
export async function createSubscriptionsForOrder(
  tx: Tx,
  input: {
    order: OrderRow;
    lines: readonly OrderLineRow[];
    savedMethod: string | null;
    provider: string;
    now: Date;
  },
): Promise<{ id: string; productName: string; text: string }[]> {
  const out: { id: string; productName: string; text: string }[] = [];
  for (const line of input.lines) {
    const d = lineDetailsOf(line);
    if (!d.isSubscription) continue;
    const plan = parseSubscriptionPlan(d.subscriptionPlan);
    if (!plan) continue;
    const cycles = Math.max(0, plan.numBillingCycles ?? 0);
    const more = hasMoreCycles(cycles, 1);
    const row = {
      id: newId(),
      websiteId: input.order.websiteId,
      email: input.order.email,
      itemId: line.itemId,
      variantId: line.variantId,
      sku: line.sku,
      quantity: line.quantity,
      priceCents: line.unitPriceCents,
      currency: input.order.currency,
      billingPeriodValue: plan.billingPeriod.value,
      billingPeriodUnit: plan.billingPeriod.unit,
      numBillingCycles: cycles,
      cyclesBilled: 1,
      status: more ? "active" : "completed",
      paymentToken: input.savedMethod ? `${input.provider}:${input.savedMethod}` : null,
      shippingAddress: input.order.shippingAddress,
      nextBillingAt: more ? billingDate(input.now, plan.billingPeriod, 1) : null,
      createdAt: input.now,
    };
    await tx.insert(customerSubscriptions).values(row);
    await recordDomainEvent(tx, subscriptionEvent(row.websiteId, "subscription.created", row.id, "started"));
    await setLineDetails(tx, line, { subscriptionId: row.id });
    if (row.nextBillingAt)
      await enqueueJob(tx, RENEW_JOB, { subscriptionId: row.id }, { runAt: row.nextBillingAt });
    out.push({ id: row.id, productName: line.productName, text: subscriptionText(row as SubscriptionRow) });
  }
  return out;
}

export async function subscriptionById(db: Db | Tx, id: string) {
  if (!isId(id)) return undefined;
  const [row] = await db.select().from(customerSubscriptions).where(eq(customerSubscriptions.id, id));
  return row;
}

/** The subscription row, locked for update until the transaction ends. */
async function lockedSubscription(tx: Tx, id: string) {
  const [row] = await tx
    .select()
    .from(customerSubscriptions)
    .where(eq(customerSubscriptions.id, id))
    .for("update");
  return row;
}

/** Subscriptions started by an order (its subscribed lines). */
export function subscriptionIdsOf(lines: readonly OrderLineRow[]): string[] {
  return lines.map((l) => lineDetailsOf(l).subscriptionId).filter((x): x is string => Boolean(x));
}

// ─── Renewals ────────────────────────────────────────────────────────────────────────────────

interface RenewalDeps {
  db: Db;
  clock: Clock;
  config: Config;
  payments: PaymentProvider;
}

type RenewalOutcome =
  | { status: "renewed"; orderId: string }
  | { status: "retry"; retryAt: Date; message: string }
  | { status: "past_due"; message: string }
  | { status: "skipped" };

async function renewalAmount(db: Db, s: SubscriptionRow, now: Date) {
  const rules = await storeRulesOf(db, s.websiteId);
  const [variant] = s.variantId
    ? await db.select().from(productVariants).where(eq(productVariants.id, s.variantId))
    : [];
  const [item] = await db.select().from(contentItems).where(eq(contentItems.id, s.itemId));
  const productType = Number(
    (item?.structuredContent as { productType?: unknown } | null)?.productType ?? ProductType.PHYSICAL,
  );
  const address = s.shippingAddress ?? {};
  const priced = priceCheckout({
    lines: [
      {
        unitPriceCents: s.priceCents,
        quantity: s.quantity,
        productType,
        weightGrams: variant?.weightGrams ?? 0,
      },
    ],
    currency: s.currency,
    now,
    location: { country: address.country, state: address.state, postalCode: address.postalCode },
    shippingRules: rules.shippingRules,
    taxRules: rules.taxRules,
    coupons: [],
    couponCodes: [],
  });
  return { priced, productName: item?.title ?? s.sku, productType, variant };
}

/**
 * Charges one renewal of a subscription if it is due. Safe to call twice or from two processes:
 * the charge key is fixed per cycle and attempt, the bookkeeping is conditional on the cycle.
 */
export async function renewSubscription(deps: RenewalDeps, subscriptionId: string): Promise<RenewalOutcome> {
  const { db, clock, config } = deps;
  const now = clock.now();
  const s = await subscriptionById(db, subscriptionId);
  if (s?.status !== "active" || !s.nextBillingAt || s.nextBillingAt.getTime() > now.getTime()) {
    return { status: "skipped" };
  }
  const cycle = s.cyclesBilled + 1;
  const key = `subscription:${s.id}:cycle:${cycle}:attempt:${s.failedAttempts}`;
  const { priced, productName, productType, variant } = await renewalAmount(db, s, now);
  const [provider, saved] = (s.paymentToken ?? "").split(/:(.*)/s);
  let result: Awaited<ReturnType<PaymentProvider["chargeSaved"]>>;
  if (!saved || provider !== deps.payments.name) {
    result = { status: "failed", code: "no_saved_method", message: "No saved card for this subscription." };
  } else {
    try {
      result = await deps.payments.chargeSaved({
        idempotencyKey: key,
        amountCents: priced.grandTotalCents,
        currency: s.currency,
        savedMethod: saved,
        description: `Subscription renewal: ${productName}`,
        metadata: { websiteId: s.websiteId, subscriptionId: s.id, cycle: String(cycle) },
      });
    } catch (err) {
      if (err instanceof ProviderUnavailableError) return { status: "skipped" };
      throw err;
    }
  }
  const [site] = await db.select().from(websites).where(eq(websites.id, s.websiteId));
  if (!site) return { status: "skipped" };

  if (result.status === "succeeded") {
    return db.transaction(async (tx): Promise<RenewalOutcome> => {
      const locked = await lockedSubscription(tx, s.id);
      const done = await orderByIdempotencyKey(tx, s.websiteId, key);
      if (!locked || locked.cyclesBilled !== s.cyclesBilled || done) {
        return done ? { status: "renewed", orderId: done.id } : { status: "skipped" };
      }
      // Already paid: take what stock there is (the owner sees a shortfall on the order), before
      // the order takes its number under the site's lock, as a checkout does.
      const stockShort =
        !!variant &&
        !variant.unlimited &&
        tracksStock(productType) &&
        !(await takeStock(tx, s.websiteId, [{ variantId: variant.id, quantity: s.quantity }]));
      const orderId = newId();
      const order = await insertOrder(tx, {
        id: orderId,
        websiteId: s.websiteId,
        cartId: null,
        email: s.email,
        shippingAddress: s.shippingAddress,
        billingAddress: s.shippingAddress,
        currency: s.currency,
        subtotalCents: priced.subtotalCents,
        taxCents: priced.taxCents,
        shippingCents: priced.shippingCostCents,
        discountCents: 0,
        grandTotalCents: priced.grandTotalCents,
        testMode: deps.payments.testMode,
        idempotencyKey: key,
        details: {
          shippingOption: priced.selectedShippingOption,
          taxRules: priced.applicableTaxRules.map((t) => ({
            name: t.name,
            ratePercent: t.ratePercent,
            taxCents: t.taxCents,
          })),
          paymentProvider: deps.payments.name,
          cardLast4: result.cardLast4,
        },
        now,
        lines: [
          {
            id: newId(),
            itemId: s.itemId,
            variantId: s.variantId,
            sku: s.sku,
            productName,
            productType,
            attributes: variant?.attributes ?? {},
            unitPriceCents: s.priceCents,
            quantity: s.quantity,
            details: { isSubscription: true, subscriptionId: s.id, renewalCycle: cycle } as Record<
              string,
              unknown
            >,
          },
        ],
      });
      await tx.insert(payments).values({
        id: newId(),
        websiteId: s.websiteId,
        orderId,
        idempotencyKey: key,
        provider: deps.payments.name,
        providerRef: result.providerRef,
        amountCents: priced.grandTotalCents,
        currency: s.currency,
        status: "succeeded",
        createdAt: now,
        updatedAt: now,
      });
      const paid = await markOrderPaid(tx, order, {}, now);
      if (stockShort) {
        await updateOrder(tx, orderId, {
          details: { ...detailsOf(paid), stockShort: true } as Record<string, unknown>,
        });
      }
      const unit = parseBillingUnit(s.billingPeriodUnit) ?? "MONTH";
      const more = hasMoreCycles(s.numBillingCycles, cycle);
      const next = more ? billingDate(s.createdAt, { value: s.billingPeriodValue, unit }, cycle) : null;
      await tx
        .update(customerSubscriptions)
        .set({
          cyclesBilled: cycle,
          failedAttempts: 0,
          nextBillingAt: next,
          status: more ? "active" : "completed",
        })
        .where(eq(customerSubscriptions.id, s.id));
      if (next) await enqueueJob(tx, RENEW_JOB, { subscriptionId: s.id }, { runAt: next });
      await recordDomainEvent(tx, subscriptionEvent(s.websiteId, "subscription.updated", s.id, "renewed"));
      await queueOrderConfirmation(tx, config, site, paid, await linesOf(tx, orderId), {
        orderUrl: await confirmationUrl(config.dataDir, siteBaseUrl(site, config.publicUrl), paid),
        downloads: [],
        giftCards: [],
        subscriptions: [{ productName, text: subscriptionText(s) }],
      });
      await recordEvent(tx, {
        websiteId: s.websiteId,
        actor: "system",
        action: "subscription-renewed",
        objectType: "subscription",
        data: { subscriptionId: s.id, orderId, cycle, amountCents: priced.grandTotalCents },
      });
      return { status: "renewed", orderId };
    });
  }

  const message = result.status === "failed" ? result.message : "The renewal payment needs the cardholder.";
  return db.transaction(async (tx): Promise<RenewalOutcome> => {
    const locked = await lockedSubscription(tx, s.id);
    if (!locked || locked.cyclesBilled !== s.cyclesBilled || locked.failedAttempts !== s.failedAttempts) {
      return { status: "skipped" };
    }
    const outcome = afterFailedRenewal(now, s.failedAttempts);
    await tx
      .update(customerSubscriptions)
      .set(
        outcome.status === "retry"
          ? { failedAttempts: outcome.failedAttempts, nextBillingAt: outcome.retryAt }
          : { failedAttempts: outcome.failedAttempts, status: "past_due" },
      )
      .where(eq(customerSubscriptions.id, s.id));
    if (outcome.status === "retry")
      await enqueueJob(tx, RENEW_JOB, { subscriptionId: s.id }, { runAt: outcome.retryAt });
    await recordDomainEvent(
      tx,
      subscriptionEvent(s.websiteId, "subscription.updated", s.id, "renewal_failed"),
    );
    await queueEmail(tx, config, {
      websiteId: s.websiteId,
      to: s.email,
      subject:
        outcome.status === "retry"
          ? `We could not renew your ${productName} subscription`
          : `Your ${productName} subscription is past due`,
      text: [
        `We tried to charge your card for your ${productName} subscription (${subscriptionText(s)}), but the payment failed: ${message}`,
        "",
        outcome.status === "retry"
          ? `We will try again on ${outcome.retryAt.toUTCString()}.`
          : `We tried ${RENEWAL_RETRY_DELAYS_DAYS.length + 1} times, so the subscription is now past due. Please contact ${site.title} to keep it going.`,
      ].join("\n"),
      fromName: site.title,
    });
    await recordEvent(tx, {
      websiteId: s.websiteId,
      actor: "system",
      action: outcome.status === "retry" ? "subscription-renewal-failed" : "subscription-past-due",
      objectType: "subscription",
      data: { subscriptionId: s.id, cycle, attempt: outcome.failedAttempts, message },
    });
    return outcome.status === "retry"
      ? { status: "retry", retryAt: outcome.retryAt, message }
      : { status: "past_due", message };
  });
}

/** Every due renewal (the jobs' safety net, run by housekeeping). */
export async function renewDueSubscriptions(deps: RenewalDeps): Promise<RenewalOutcome[]> {
  const due = await deps.db
    .select({ id: customerSubscriptions.id })
    .from(customerSubscriptions)
    .where(
      and(
        eq(customerSubscriptions.status, "active"),
        lte(customerSubscriptions.nextBillingAt, deps.clock.now()),
      ),
    )
    .orderBy(asc(customerSubscriptions.nextBillingAt))
    .limit(500);
  const out: RenewalOutcome[] = [];
  for (const { id } of due) out.push(await renewSubscription(deps, id));
  return out;
}

// ─── The owner's view ────────────────────────────────────────────────────────────────────────

export async function listSubscriptions(
  db: Db,
  websiteId: string,
  q: { status?: string; limit: number; offset: number },
) {
  const where = and(
    eq(customerSubscriptions.websiteId, websiteId),
    ...(q.status ? [eq(customerSubscriptions.status, q.status)] : []),
  );
  const { rows, total } = await selectOffsetPage(
    db,
    customerSubscriptions,
    where,
    [desc(customerSubscriptions.createdAt)],
    q,
  );
  const names = await productNames(
    db,
    rows.map((r) => r.itemId),
  );
  return {
    subscriptions: rows.map((r) => subscriptionJson(r, names.get(r.itemId))),
    total,
  };
}

export async function productNames(db: Db | Tx, itemIds: string[]): Promise<Map<string, string>> {
  if (!itemIds.length) return new Map();
  const rows = await db
    .select({ id: contentItems.id, title: contentItems.title })
    .from(contentItems)
    .where(inArray(contentItems.id, [...new Set(itemIds)]));
  return new Map(rows.map((r) => [r.id, r.title]));
}

export async function cancelSubscription(db: Db, websiteId: string, id: string, now: Date) {
  return db.transaction(async (tx) => {
    const s = await lockedSubscription(tx, id);
    if (!s || s.websiteId !== websiteId) throw notFound(MSG_SUBSCRIPTION_NOT_FOUND);
    if (s.status === "cancelled" || s.status === "completed")
      throw new ApiError(409, "conflict", MSG_SUBSCRIPTION_NOT_ACTIVE);
    const [row] = await tx
      .update(customerSubscriptions)
      .set({ status: "cancelled", nextBillingAt: null })
      .where(eq(customerSubscriptions.id, id))
      .returning();
    await recordDomainEvent(tx, subscriptionEvent(websiteId, "subscription.updated", id, "cancelled"));
    await recordEvent(tx, {
      websiteId,
      actor: "user",
      action: "subscription-cancelled",
      objectType: "subscription",
      data: { subscriptionId: id, at: now.toISOString() },
    });
    const names = await productNames(tx, [row!.itemId]);
    return subscriptionJson(row!, names.get(row!.itemId));
  });
}
