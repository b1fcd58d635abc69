/**
 * Automatic renewal of the site's plan at the end of each period, charged to the saved card
 * without the owner.
 *
 * A failed charge makes the subscription past due and the site PASTDUE (SPEC §3 status 2: still
 * online, with the past-due billing message); it is tried again 1, 3 and 5 days later, and at
 * once when the owner saves another card. After the last failed try the site expires (offline for
 * visitors until the owner chooses a plan again). Every try has its own invoice, paid or failed.
 *
 * Safe when several processes run housekeeping at once: a try first takes a short lease on the
 * subscription (a conditional update), the provider's idempotency key is fixed per period and
 * attempt, and the bookkeeping is conditional on the period it charged for.
 */
import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { BillingStatus, SiteStatus } from "../../db/enums.js";
import {
  billingPaymentMethods,
  billingPlans,
  billingSubscriptions,
  invoices,
  websites,
} from "../../db/schema.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import { type ChargeResult, ProviderUnavailableError } from "../payments/provider.js";
import { type BillingDeps, addPeriod } from "./service.js";
import { billingCountryOf, planTaxCents } from "./tax.js";

/** Days after each failed try before the next one; after the last, the site expires. */
const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;
/** How long a try in flight keeps others off the subscription. */
const LEASE_MS = 10 * 60_000;

type PlanRenewal =
  | { status: "renewed"; invoiceId: string }
  | { status: "failed"; invoiceId: string; message: string; retryAt: number | null }
  | { status: "skipped" };

/** Renewals that are due now, whichever process finds them (housekeeping). */
export async function renewDuePlans(deps: BillingDeps): Promise<PlanRenewal[]> {
  const now = deps.clock.now();
  const due = await deps.db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .innerJoin(websites, eq(websites.id, billingSubscriptions.websiteId))
    .where(
      and(
        eq(billingSubscriptions.autoRenew, true),
        isNull(billingSubscriptions.cancelledAt),
        lte(billingSubscriptions.nextChargeAt, now),
        or(isNull(billingSubscriptions.renewalRetryAt), lte(billingSubscriptions.renewalRetryAt, now)),
        or(eq(websites.siteStatus, SiteStatus.PAID), eq(websites.siteStatus, SiteStatus.PASTDUE)),
      ),
    );
  const out: PlanRenewal[] = [];
  for (const { id } of due) out.push(await renewPlan(deps, id));
  return out;
}

/**
 * Tries the renewal of one subscription if it is due (or, with `onlyPastDue`, if it is past due,
 * whatever its retry time: the owner just saved another card).
 */
export async function renewPlan(
  deps: BillingDeps,
  subscriptionId: string,
  opts: { onlyPastDue?: boolean } = {},
): Promise<PlanRenewal> {
  const now = deps.clock.now();
  const lease = new Date(now.getTime() + LEASE_MS);
  // The lease: only the process whose update matched goes on.
  const [sub] = await deps.db
    .update(billingSubscriptions)
    .set({ renewalRetryAt: lease })
    .where(
      and(
        eq(billingSubscriptions.id, subscriptionId),
        eq(billingSubscriptions.autoRenew, true),
        isNull(billingSubscriptions.cancelledAt),
        lte(billingSubscriptions.nextChargeAt, now),
        opts.onlyPastDue
          ? eq(billingSubscriptions.pastDue, true)
          : or(isNull(billingSubscriptions.renewalRetryAt), lte(billingSubscriptions.renewalRetryAt, now)),
      ),
    )
    .returning();
  if (!sub?.nextChargeAt) return { status: "skipped" };
  const [site] = await deps.db.select().from(websites).where(eq(websites.id, sub.websiteId));
  const [plan] = await deps.db.select().from(billingPlans).where(eq(billingPlans.id, sub.planId));
  if (!site || !plan || (site.siteStatus !== SiteStatus.PAID && site.siteStatus !== SiteStatus.PASTDUE)) {
    await deps.db
      .update(billingSubscriptions)
      .set({ renewalRetryAt: sub.pastDue ? now : null })
      .where(eq(billingSubscriptions.id, sub.id));
    return { status: "skipped" };
  }

  const periodEnd = sub.nextChargeAt;
  const creditUsed = Math.min(sub.creditCents, plan.priceCents);
  const subtotal = plan.priceCents - creditUsed;
  const tax = planTaxCents(subtotal, await billingCountryOf(deps.db, site.id));
  const total = subtotal + tax;
  const description = `${plan.planDisplayName} plan renewal`;
  const [method] = await deps.db
    .select()
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.websiteId, site.id));

  let result: ChargeResult;
  if (total === 0) result = { status: "succeeded", providerRef: "" };
  else if (!method)
    result = { status: "failed", code: "no_card", message: "No card is saved to pay the plan." };
  else {
    try {
      result = await deps.payments.chargeSaved({
        idempotencyKey: `billing-renewal:${sub.id}:${periodEnd.getTime()}:${sub.renewalAttempts}`,
        amountCents: total,
        currency: plan.currency,
        savedMethod: method.savedMethod,
        description,
        metadata: { websiteId: site.id, subscriptionId: sub.id },
      });
    } catch (err) {
      if (!(err instanceof ProviderUnavailableError)) throw err;
      // Nothing is known: the same try (same key) runs again at the next housekeeping.
      await deps.db
        .update(billingSubscriptions)
        .set({ renewalRetryAt: now })
        .where(eq(billingSubscriptions.id, sub.id));
      return { status: "skipped" };
    }
  }

  const invoiceId = newId();
  const invoice = {
    id: invoiceId,
    websiteId: site.id,
    subscriptionId: sub.id,
    subtotalCents: subtotal,
    taxCents: tax,
    totalCents: total,
    currency: plan.currency,
    description,
    cardLast4: total > 0 ? (method?.cardLast4 ?? null) : null,
  };
  const samePeriod = and(
    eq(billingSubscriptions.id, sub.id),
    eq(billingSubscriptions.nextChargeAt, periodEnd),
    eq(billingSubscriptions.renewalAttempts, sub.renewalAttempts),
  );
  const bumpSite = (status: number) =>
    deps.db
      .update(websites)
      .set({ siteStatus: status, contentVersion: sql`${websites.contentVersion} + 1` })
      .where(eq(websites.id, site.id));

  if (result.status === "succeeded") {
    const renewed = await deps.db.transaction(async (tx) => {
      const [moved] = await tx
        .update(billingSubscriptions)
        .set({
          periodStart: periodEnd,
          nextChargeAt: addPeriod(periodEnd, plan.billingPeriodUnit, plan.billingPeriodValue),
          creditCents: sub.creditCents - creditUsed,
          nextChargeAmountCents: Math.max(0, plan.priceCents - (sub.creditCents - creditUsed)),
          pastDue: false,
          renewalAttempts: 0,
          renewalRetryAt: null,
        })
        .where(samePeriod)
        .returning({ id: billingSubscriptions.id });
      if (!moved) return false;
      await tx.insert(invoices).values({
        ...invoice,
        status: "paid",
        paidAt: now,
        providerRef: result.providerRef || null,
      });
      if (site.siteStatus !== SiteStatus.PAID || site.billingStatus !== BillingStatus.SUBSCRIBED)
        await tx
          .update(websites)
          .set({
            siteStatus: SiteStatus.PAID,
            billingStatus: BillingStatus.SUBSCRIBED,
            contentVersion: sql`${websites.contentVersion} + 1`,
          })
          .where(eq(websites.id, site.id));
      return true;
    });
    return renewed ? { status: "renewed", invoiceId } : { status: "skipped" };
  }

  const message =
    result.status === "failed"
      ? result.message
      : result.status === "requires_action"
        ? "Your bank asked to authenticate this payment. Please save your card again."
        : "Your card was declined.";
  if (result.status === "requires_action") await deps.payments.cancel(result.providerRef).catch(() => {});
  const attempts = sub.renewalAttempts + 1;
  const retryDays = RENEWAL_RETRY_DAYS[attempts - 1];
  const retryAt = retryDays === undefined ? null : new Date(now.getTime() + retryDays * DAY_MS);
  const recorded = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(billingSubscriptions)
      .set({ pastDue: true, renewalAttempts: attempts, renewalRetryAt: retryAt })
      .where(samePeriod)
      .returning({ id: billingSubscriptions.id });
    if (!updated) return false;
    await tx.insert(invoices).values({
      ...invoice,
      status: "failed",
      providerRef: "providerRef" in result ? (result.providerRef ?? null) : null,
    });
    return true;
  });
  if (!recorded) return { status: "skipped" };
  // Past due while tries remain (still online); expired after the last one.
  const status = retryAt ? SiteStatus.PASTDUE : SiteStatus.EXPIRED;
  if (site.siteStatus !== status) await bumpSite(status);
  return { status: "failed", invoiceId, message, retryAt: retryAt?.getTime() ?? null };
}
