/**
 * The owner's own billing (SPEC §1, §3, §4, §7): the site's subscription to a plan, auto-renew,
 * cancellation, plan changes with proration, the saved card and the invoices.
 *
 * Money is integer cents in the database and the SPEC's Money shape in answers. Charges go
 * through the app's payment provider (the built-in test provider here): the card is verified
 * and saved once (a zero-amount charge that keeps the method), and plan changes charge the
 * saved card without the owner typing it again, like the best products do. A change that costs
 * nothing needs no card and its invoice is recorded as paid; a downgrade becomes a credit taken
 * off the next charges.
 */
import { decimalMoney, type Money, valueMoney } from "@atelier/commerce";
import type { BillingInvoice, BillingPlan, BillingSubscription, PlanChangeInvoice } from "@atelier/owner-api";
import { and, asc, desc, eq, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { BillingStatus, SiteStatus } from "../../db/enums.js";
import {
  billingPaymentMethods,
  billingPlans,
  billingSubscriptions,
  featureSets,
  invoices,
  websiteSettings,
  websites,
} from "../../db/schema.js";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.js";
import { type Clock, DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import type { PaymentProvider } from "../payments/provider.js";
import type { Website } from "../sites/service.js";
import { billingMessageText, billingMessageType, isActiveAndSubscribed, isCommercePlan } from "./message.js";
import { billingCountryOf, planTaxCents } from "./tax.js";

const TRIAL_DAYS = 14;

export const BILLING_MSG = {
  NO_SUBSCRIPTION: "No such subscription.",
  NO_PLAN: "No such plan.",
  SAME_PLAN: "This is already the subscription's plan.",
  NOT_STAGED: "Choose this plan first (PUT …/plan-change/{planId}), then confirm it.",
  NO_CARD: "Add a card in Payment info before changing to a paid plan.",
  ALREADY_CANCELLED: "This subscription is already cancelled.",
  ENDED: "This subscription has ended. Choose a plan to start a new one.",
  NO_STAGED_CHANGE: "There is no plan change to cancel.",
  ID_MISMATCH: "The subscription id does not match the address.",
  TRIAL_RENEW: "A trial does not renew. Choose a plan to keep the site online after the trial.",
  NOT_IAP: "Only an in-app purchase subscription can move to a grace period.",
  CARD_EXPIRED: "Your card has expired.",
} as const;

export type SubscriptionType = "website" | "resold" | "others";
export const SUBSCRIPTION_TYPES: SubscriptionType[] = ["website", "resold", "others"];

type Sub = typeof billingSubscriptions.$inferSelect;
type Plan = typeof billingPlans.$inferSelect;

export interface BillingDeps {
  db: Db;
  clock: Clock;
  payments: PaymentProvider;
  publicUrl: string;
}

/** The end of a period that starts at `from`. */
export function addPeriod(from: Date, unit: string, value: number, sign = 1): Date {
  const d = new Date(from.getTime());
  if (unit === "YEAR") d.setUTCFullYear(d.getUTCFullYear() + sign * value);
  else if (unit === "WEEK") d.setUTCDate(d.getUTCDate() + sign * 7 * value);
  else d.setUTCMonth(d.getUTCMonth() + sign * value);
  return d;
}

async function moneyOf(db: Db, websiteId: string): Promise<(cents: number, currency?: string) => Money> {
  const [s] = await db
    .select({ cldr: websiteSettings.useCldrMoneyFormat })
    .from(websiteSettings)
    .where(eq(websiteSettings.websiteId, websiteId));
  // SPEC §3: {value, currency} when the CLDR money format setting is on, else {decimalValue, currencyCode}.
  return (cents: number, currency = "USD") =>
    s?.cldr ? valueMoney(cents, currency) : decimalMoney(cents, currency);
}

async function planById(db: Db, id: string): Promise<Plan | undefined> {
  const [plan] = await db.select().from(billingPlans).where(eq(billingPlans.id, id));
  return plan;
}

function defaultPlanId(site: Website): string {
  if (site.featureSetId === "commerce-advanced") return "commerce-advanced-monthly";
  if (site.featureSetId === "personal") return "personal-monthly";
  return "business-monthly";
}

/**
 * The site's website subscription, made on first use for sites that have none yet: a site
 * still on trial gets a trial that ends TRIAL_DAYS after the site was made; any other site a
 * current period of its plan.
 */
async function ensureSubscription(deps: BillingDeps, site: Website): Promise<void> {
  const existing = await deps.db
    .select({ id: billingSubscriptions.id })
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.websiteId, site.id))
    .limit(1);
  if (existing.length) return;
  const plan = await planById(deps.db, defaultPlanId(site));
  if (!plan) return;
  const now = deps.clock.now();
  const onTrial = site.siteStatus === SiteStatus.TRIAL;
  const trialEndsAt = new Date(site.createdAt.getTime() + TRIAL_DAYS * DAY_MS);
  await deps.db
    .insert(billingSubscriptions)
    .values({
      id: newId(),
      websiteId: site.id,
      type: "website",
      planId: plan.id,
      autoRenew: !onTrial,
      trialEndsAt: onTrial ? trialEndsAt : null,
      periodStart: onTrial ? site.createdAt : now,
      nextChargeAt: onTrial ? trialEndsAt : addPeriod(now, plan.billingPeriodUnit, plan.billingPeriodValue),
      nextChargeAmountCents: plan.priceCents,
    })
    .onConflictDoNothing();
}

/**
 * A trial or a cancelled subscription whose time is up expires the site (the subscription is
 * kept, so the panel can offer a plan again). Renewals of auto-renewing subscriptions are not
 * made here.
 */
async function settle(deps: Pick<BillingDeps, "db" | "clock">, site: Website, sub: Sub): Promise<Website> {
  const now = deps.clock.now();
  const due = sub.nextChargeAt && sub.nextChargeAt.getTime() <= now.getTime();
  const lapses = site.siteStatus === SiteStatus.TRIAL ? !sub.autoRenew : Boolean(sub.cancelledAt);
  if (!due || !lapses || site.siteStatus === SiteStatus.EXPIRED) return site;
  const [updated] = await deps.db
    .update(websites)
    .set({ siteStatus: SiteStatus.EXPIRED, contentVersion: sql`${websites.contentVersion} + 1` })
    .where(eq(websites.id, site.id))
    .returning();
  return updated ?? site;
}

/** Housekeeping: expires every site whose trial or cancelled period has run out. */
export async function expireLapsedSites(deps: Pick<BillingDeps, "db" | "clock">): Promise<number> {
  const rows = await deps.db
    .select({ site: websites, sub: billingSubscriptions })
    .from(billingSubscriptions)
    .innerJoin(websites, eq(websites.id, billingSubscriptions.websiteId))
    .where(
      and(
        lte(billingSubscriptions.nextChargeAt, deps.clock.now()),
        ne(websites.siteStatus, SiteStatus.EXPIRED),
      ),
    );
  let expired = 0;
  for (const { site, sub } of rows) {
    const after = await settle(deps as BillingDeps, site, sub);
    if (after.siteStatus === SiteStatus.EXPIRED) expired++;
  }
  return expired;
}

function statusOf(site: Website, sub: Sub, now: Date): "trial" | "active" | "cancelled" | "expired" {
  if (site.siteStatus === SiteStatus.EXPIRED) return "expired";
  if (sub.cancelledAt) return sub.nextChargeAt && sub.nextChargeAt <= now ? "expired" : "cancelled";
  if (site.siteStatus === SiteStatus.TRIAL) return "trial";
  return "active";
}

async function planView(
  deps: BillingDeps,
  plan: Plan,
  money: (c: number, cur?: string) => Money,
): Promise<BillingPlan> {
  const [set] = await deps.db.select().from(featureSets).where(eq(featureSets.id, plan.featureSetId));
  return {
    id: plan.id,
    planDisplayName: plan.planDisplayName,
    productLine: plan.productLine,
    price: money(plan.priceCents, plan.currency),
    basePrice: money(plan.basePriceCents, plan.currency),
    billingPeriod: { value: plan.billingPeriodValue, unit: plan.billingPeriodUnit },
    featureSet: set
      ? { id: set.id, name: set.name, enabledFeatures: set.enabledFeatures, limits: set.limits }
      : null,
  };
}

async function subscriptionView(deps: BillingDeps, site: Website, sub: Sub): Promise<BillingSubscription> {
  const money = await moneyOf(deps.db, site.id);
  const plan = (await planById(deps.db, sub.planId))!;
  const pending = sub.pendingPlanId ? await planById(deps.db, sub.pendingPlanId) : undefined;
  const now = deps.clock.now();
  const state = {
    siteStatus: site.siteStatus,
    websiteType: site.websiteType,
    billingStatus: site.billingStatus,
  };
  const messageType = billingMessageType(state);
  const status = statusOf(site, sub, now);
  const renews = sub.autoRenew && !sub.cancelledAt && status !== "expired";
  const nextCharge = renews ? Math.max(0, plan.priceCents - sub.creditCents) : 0;
  return {
    id: sub.id,
    type: sub.type,
    status,
    pastDue: sub.pastDue,
    autoRenew: sub.autoRenew,
    plan: await planView(deps, plan, money),
    pendingPlan: pending ? { id: pending.id, planDisplayName: pending.planDisplayName } : null,
    nextChargeAmount: money(nextCharge, plan.currency),
    nextChargeTax: money(
      renews ? planTaxCents(nextCharge, await billingCountryOf(deps.db, site.id)) : 0,
      plan.currency,
    ),
    /** Failed charges of the renewal due now; the next try is at retryAt. */
    renewalAttempts: sub.renewalAttempts,
    retryAt: sub.pastDue ? (sub.renewalRetryAt?.getTime() ?? null) : null,
    nextChargeAt: renews ? (sub.nextChargeAt?.getTime() ?? null) : null,
    creditBalance: money(sub.creditCents, plan.currency),
    periodStart:
      sub.periodStart?.getTime() ??
      (sub.nextChargeAt
        ? addPeriod(sub.nextChargeAt, plan.billingPeriodUnit, plan.billingPeriodValue, -1).getTime()
        : null),
    periodEnd: sub.nextChargeAt?.getTime() ?? null,
    trialEndsAt: sub.trialEndsAt?.getTime() ?? null,
    cancelledAt: sub.cancelledAt?.getTime() ?? null,
    /** When the site stops being online unless something changes. */
    expiresAt: renews ? null : (sub.nextChargeAt?.getTime() ?? null),
    createdOn: sub.createdAt.getTime(),
    billingMessageType: messageType,
    message: billingMessageText(messageType),
    activeAndSubscribed: isActiveAndSubscribed(state),
    commercePlan: isCommercePlan(state),
    siteStatus: site.siteStatus,
    billingStatus: site.billingStatus,
    websiteType: site.websiteType,
  };
}

async function loadSite(db: Db, id: string): Promise<Website> {
  const [site] = await db.select().from(websites).where(eq(websites.id, id));
  return site!;
}

/** One of the site's subscriptions, or 404 (another site's subscription is simply not found). */
async function subscriptionOf(deps: BillingDeps, site: Website, id: string): Promise<Sub> {
  await ensureSubscription(deps, site);
  const [sub] = await deps.db
    .select()
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.id, id), eq(billingSubscriptions.websiteId, site.id)));
  if (!sub) throw notFound(BILLING_MSG.NO_SUBSCRIPTION);
  return sub;
}

async function fresh(deps: BillingDeps, siteId: string, subId: string) {
  const site = await loadSite(deps.db, siteId);
  const [sub] = await deps.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, subId));
  return subscriptionView(deps, site, sub!);
}

export async function listSubscriptions(deps: BillingDeps, site: Website, type?: SubscriptionType) {
  await ensureSubscription(deps, site);
  const rows = await deps.db
    .select()
    .from(billingSubscriptions)
    .where(
      type
        ? and(eq(billingSubscriptions.websiteId, site.id), eq(billingSubscriptions.type, type))
        : eq(billingSubscriptions.websiteId, site.id),
    )
    .orderBy(asc(billingSubscriptions.createdAt));
  let current = site;
  const results = [];
  for (const sub of rows) {
    current = await settle(deps, current, sub);
    results.push(await subscriptionView(deps, current, sub));
  }
  return results;
}

export async function getSubscription(deps: BillingDeps, site: Website, id: string) {
  const sub = await subscriptionOf(deps, site, id);
  return subscriptionView(deps, await settle(deps, site, sub), sub);
}

/** PUT of the subscription: of what the client sends back, only auto-renew can be changed. */
export async function updateSubscription(
  deps: BillingDeps,
  site: Website,
  id: string,
  body: { id?: unknown; autoRenew?: boolean },
) {
  const sub = await subscriptionOf(deps, site, id);
  if (body.id !== undefined && body.id !== id)
    throw badRequest(BILLING_MSG.ID_MISMATCH, { id: BILLING_MSG.ID_MISMATCH });
  if (body.autoRenew !== undefined) return setAutoRenew(deps, site, sub.id, body.autoRenew);
  return getSubscription(deps, site, id);
}

/**
 * Auto-renew on or off. Turning it on for a cancelled subscription whose period has not ended
 * resumes it; an ended subscription needs a new plan instead.
 */
export async function setAutoRenew(deps: BillingDeps, site: Website, id: string, on: boolean) {
  const sub = await subscriptionOf(deps, site, id);
  const settled = await settle(deps, site, sub);
  const status = statusOf(settled, sub, deps.clock.now());
  if (status === "expired") throw conflict(BILLING_MSG.ENDED);
  if (on && settled.siteStatus === SiteStatus.TRIAL) throw conflict(BILLING_MSG.TRIAL_RENEW);
  await deps.db
    .update(billingSubscriptions)
    .set(on ? { autoRenew: true, cancelledAt: null } : { autoRenew: false })
    .where(eq(billingSubscriptions.id, sub.id));
  return fresh(deps, site.id, sub.id);
}

/**
 * Cancels: auto-renew goes off and any staged plan change is dropped. Nothing is refunded and
 * the site stays online until the end of the period already paid for (or of the trial); then
 * it expires. Turning auto-renew back on before then resumes the subscription.
 */
export async function cancelSubscription(deps: BillingDeps, site: Website, id: string) {
  const sub = await subscriptionOf(deps, site, id);
  const settled = await settle(deps, site, sub);
  const status = statusOf(settled, sub, deps.clock.now());
  if (status === "expired") throw conflict(BILLING_MSG.ENDED);
  if (status === "cancelled") throw conflict(BILLING_MSG.ALREADY_CANCELLED);
  await deps.db
    .update(billingSubscriptions)
    .set({ autoRenew: false, cancelledAt: deps.clock.now(), pendingPlanId: null })
    .where(eq(billingSubscriptions.id, sub.id));
  const subscription = await fresh(deps, site.id, sub.id);
  const until = subscription.expiresAt ? new Date(subscription.expiresAt) : deps.clock.now();
  const date = until.toLocaleDateString("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
  return {
    subscription,
    cancelled: true,
    message: `Your subscription is cancelled. Your site stays online until ${date}, then it expires. Nothing more will be charged.`,
  };
}

async function changeablePlan(deps: BillingDeps, sub: Sub, planId: string): Promise<Plan> {
  const plan = await planById(deps.db, planId);
  if (!plan) throw notFound(BILLING_MSG.NO_PLAN);
  if (plan.id === sub.planId) throw conflict(BILLING_MSG.SAME_PLAN);
  return plan;
}

/**
 * What a change to `plan` costs now. On a paid period, the unused part of the current plan is
 * credited and the same part of the new plan charged, to the day (to the millisecond, rounded
 * to cents); a credit balance is used first. A trial or an ended subscription starts a new
 * full period of the new plan.
 */
async function priceChange(deps: BillingDeps, site: Website, sub: Sub, plan: Plan) {
  const money = await moneyOf(deps.db, site.id);
  const current = (await planById(deps.db, sub.planId))!;
  const now = deps.clock.now();
  const status = statusOf(site, sub, now);
  const fresh = status === "trial" || status === "expired";
  const end = fresh ? addPeriod(now, plan.billingPeriodUnit, plan.billingPeriodValue) : sub.nextChargeAt!;
  const start = fresh
    ? now
    : (sub.periodStart ?? addPeriod(end, current.billingPeriodUnit, current.billingPeriodValue, -1));
  const length = Math.max(1, end.getTime() - start.getTime());
  const fraction = fresh ? 1 : Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / length));
  const unusedCredit = fresh ? 0 : Math.round(current.priceCents * fraction);
  const newCharge = Math.round(plan.priceCents * fraction);
  const subtotal = newCharge - unusedCredit;
  const creditApplied = subtotal > 0 ? Math.min(sub.creditCents, subtotal) : 0;
  const tax = planTaxCents(subtotal - creditApplied, await billingCountryOf(deps.db, site.id));
  const total = subtotal - creditApplied + tax;
  const cur = plan.currency;
  const creditAfter = sub.creditCents - creditApplied + (total < 0 ? -total : 0);
  const lines = fresh
    ? [{ description: `${plan.planDisplayName} plan, new period`, amount: money(newCharge, cur) }]
    : [
        { description: `Unused time on ${current.planDisplayName}`, amount: money(-unusedCredit, cur) },
        { description: `Remaining time on ${plan.planDisplayName}`, amount: money(newCharge, cur) },
      ];
  if (creditApplied)
    lines.push({ description: "Credit balance applied", amount: money(-creditApplied, cur) });
  return {
    cents: { total, subtotal, tax, creditApplied, creditAfter },
    fresh,
    periodStart: start,
    periodEnd: end,
    fromPlan: current,
    invoice: {
      total: money(total, cur),
      subtotal: money(subtotal, cur),
      tax: money(tax, cur),
      creditApplied: money(creditApplied, cur),
      proration: {
        periodStart: start.getTime(),
        periodEnd: end.getTime(),
        remainingDays: Math.round(((end.getTime() - now.getTime()) / DAY_MS) * 10) / 10,
        fractionRemaining: Math.round(fraction * 10_000) / 10_000,
        unusedCredit: money(unusedCredit, cur),
        newPlanCharge: money(newCharge, cur),
      },
      lines,
      fromPlan: { id: current.id, planDisplayName: current.planDisplayName },
      toPlan: { id: plan.id, planDisplayName: plan.planDisplayName, price: money(plan.priceCents, cur) },
      nextChargeAmount: money(Math.max(0, plan.priceCents - creditAfter), cur),
      nextChargeAt: end.getTime(),
    } satisfies PlanChangeInvoice,
  };
}

export async function previewPlanChange(deps: BillingDeps, site: Website, id: string, planId: string) {
  const sub = await subscriptionOf(deps, site, id);
  const settled = await settle(deps, site, sub);
  const plan = await changeablePlan(deps, sub, planId);
  return { invoice: (await priceChange(deps, settled, sub, plan)).invoice };
}

/** Stages a plan change; it takes effect when confirmed. */
export async function stagePlanChange(deps: BillingDeps, site: Website, id: string, planId: string) {
  const sub = await subscriptionOf(deps, site, id);
  const settled = await settle(deps, site, sub);
  const plan = await changeablePlan(deps, sub, planId);
  const priced = await priceChange(deps, settled, sub, plan);
  await deps.db
    .update(billingSubscriptions)
    .set({ pendingPlanId: plan.id })
    .where(eq(billingSubscriptions.id, sub.id));
  return { subscription: await fresh(deps, site.id, sub.id), invoice: priced.invoice };
}

export async function cancelPlanChange(deps: BillingDeps, site: Website, id: string) {
  const sub = await subscriptionOf(deps, site, id);
  if (!sub.pendingPlanId) throw conflict(BILLING_MSG.NO_STAGED_CHANGE);
  await deps.db
    .update(billingSubscriptions)
    .set({ pendingPlanId: null })
    .where(eq(billingSubscriptions.id, sub.id));
  return { subscription: await fresh(deps, site.id, sub.id) };
}

export class PaymentFailed extends ApiError {
  constructor(message: string, code = "payment_failed") {
    super(402, code, message);
  }
}

/**
 * Confirms the staged change: charges the saved card for a positive total (402 with the card's
 * message when it fails, and nothing changes), credits a negative one, then switches the plan
 * and the site's features. A trial or ended site becomes paid and subscribed with a new period.
 */
export async function confirmPlanChange(deps: BillingDeps, site: Website, id: string, planId: string) {
  const sub = await subscriptionOf(deps, site, id);
  const settled = await settle(deps, site, sub);
  const plan = await changeablePlan(deps, sub, planId);
  if (sub.pendingPlanId !== plan.id) throw conflict(BILLING_MSG.NOT_STAGED);
  const priced = await priceChange(deps, settled, sub, plan);
  const { total, subtotal, tax, creditAfter } = priced.cents;
  const invoiceId = newId();
  const description = priced.fresh
    ? `${plan.planDisplayName} plan`
    : `Plan change: ${priced.fromPlan.planDisplayName} → ${plan.planDisplayName}`;
  const base = {
    id: invoiceId,
    websiteId: site.id,
    subscriptionId: sub.id,
    subtotalCents: subtotal,
    taxCents: tax,
    currency: plan.currency,
    description,
  };
  let card: { last4: string; ref: string } | undefined;
  if (total > 0) {
    const [method] = await deps.db
      .select()
      .from(billingPaymentMethods)
      .where(eq(billingPaymentMethods.websiteId, site.id));
    if (!method) throw new PaymentFailed(BILLING_MSG.NO_CARD, "payment_required");
    const result = await deps.payments.chargeSaved({
      idempotencyKey: `billing-${invoiceId}`,
      amountCents: total,
      currency: plan.currency,
      savedMethod: method.savedMethod,
      description,
      metadata: { websiteId: site.id, invoiceId },
    });
    if (result.status !== "succeeded") {
      await deps.db
        .insert(invoices)
        .values({ ...base, totalCents: total, status: "failed", cardLast4: method.cardLast4 });
      const message = result.status === "failed" ? result.message : "Your card was declined.";
      throw new PaymentFailed(message);
    }
    card = { last4: method.cardLast4, ref: result.providerRef };
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await tx.insert(invoices).values({
      ...base,
      totalCents: total,
      status: total < 0 ? "credited" : "paid",
      paidAt: now,
      cardLast4: card?.last4 ?? null,
      providerRef: card?.ref ?? null,
    });
    const credit = creditAfter;
    await tx
      .update(billingSubscriptions)
      .set({
        planId: plan.id,
        pendingPlanId: null,
        creditCents: credit,
        nextChargeAmountCents: Math.max(0, plan.priceCents - credit),
        ...(priced.fresh
          ? {
              periodStart: priced.periodStart,
              nextChargeAt: priced.periodEnd,
              autoRenew: true,
              cancelledAt: null,
              pastDue: false,
            }
          : {}),
      })
      .where(eq(billingSubscriptions.id, sub.id));
    await tx
      .update(websites)
      .set({
        featureSetId: plan.featureSetId,
        siteStatus: SiteStatus.PAID,
        billingStatus: BillingStatus.SUBSCRIBED,
        contentVersion: sql`${websites.contentVersion} + 1`,
      })
      .where(eq(websites.id, site.id));
  });
  return { subscription: await fresh(deps, site.id, sub.id), invoice: { ...priced.invoice, id: invoiceId } };
}

export async function listPlans(deps: BillingDeps, site: Website) {
  const money = await moneyOf(deps.db, site.id);
  const plans = await deps.db
    .select()
    .from(billingPlans)
    .where(eq(billingPlans.productLine, "website"))
    .orderBy(asc(billingPlans.priceCents));
  return Promise.all(plans.map((p) => planView(deps, p, money)));
}

export async function listInvoices(deps: BillingDeps, site: Website) {
  const money = await moneyOf(deps.db, site.id);
  const rows = await deps.db
    .select()
    .from(invoices)
    .where(eq(invoices.websiteId, site.id))
    .orderBy(desc(invoices.issuedAt));
  return rows.map(
    (i) =>
      ({
        id: i.id,
        subscriptionId: i.subscriptionId,
        description: i.description,
        status: i.status,
        subtotal: money(i.subtotalCents, i.currency),
        tax: money(i.taxCents, i.currency),
        total: money(i.totalCents, i.currency),
        cardLast4: i.cardLast4,
        issuedAt: i.issuedAt.getTime(),
        paidAt: i.paidAt?.getTime() ?? null,
      }) satisfies BillingInvoice,
  );
}

/** Moves an in-app purchase (resold) customer to the resold grace period (SPEC §4). */
export async function startGracePeriod(deps: BillingDeps, site: Website) {
  const [sub] = await deps.db
    .select()
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.websiteId, site.id), eq(billingSubscriptions.type, "resold")));
  if (!sub) throw conflict(BILLING_MSG.NOT_IAP);
  await deps.db
    .update(websites)
    .set({ siteStatus: SiteStatus.RESOLD, billingStatus: BillingStatus.RESOLD_GRACE_PERIOD })
    .where(eq(websites.id, site.id));
  return { subscription: await fresh(deps, site.id, sub.id) };
}
