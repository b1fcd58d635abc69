/**
 * The billing calls of SPEC §7, for the owner of the site on the request's host
 * (`/api/billing/...`, as a site's own pages call them), and the same operations for the
 * dashboard under `/api/owner/sites/:siteId/billing/...`. Both need the owner's session (and the
 * crumb for changes) and membership of the site; one service answers both.
 */
import { type TString, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { notFound } from "../../http/errors.js";
import { requireOwner } from "../../http/owner-auth.js";
import { Id } from "../../http/schemas.js";
import { NO_SUCH_SITE, requireSite, siteOf, websiteOfOwner } from "../owner-sites/access.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { websiteForHost } from "../sites/service.js";
import {
  type BillingDeps,
  SUBSCRIPTION_TYPES,
  type SubscriptionType,
  cancelPlanChange,
  cancelSubscription,
  expireLapsedSites,
  confirmPlanChange,
  getSubscription,
  listInvoices,
  listPlans,
  listSubscriptions,
  previewPlanChange,
  setAutoRenew,
  stagePlanChange,
  startGracePeriod,
  updateSubscription,
} from "./service.js";
import { BILLING_CARD_MSG, confirmPaymentInfo, getPaymentInfo, savePaymentInfo } from "./card.js";
import { renewDuePlans } from "./renewals.js";
import { paymentsOf, hasPayments } from "../checkout/plugin.js";

const tags = ["billing"];

// Trials and cancelled subscriptions whose time is up expire their sites, even if nobody opens billing.
registerHousekeeping("billing-expiry", (deps) => expireLapsedSites(deps).then(() => undefined));
// Plans renew at the end of each period, charged to the saved card (retries while past due).
registerHousekeeping("billing-renewals", async (deps) => {
  if (hasPayments(deps))
    await renewDuePlans({ ...deps, payments: paymentsOf(deps), publicUrl: deps.config.publicUrl });
});
const PlanId = Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$" });

/** preValidation: the owner of the site on the request's host (404 'No such site.' otherwise). */
async function requireHostSite(request: FastifyRequest): Promise<void> {
  await requireOwner(request);
  const site = await websiteForHost(request.server.deps.db, request.headers.host);
  if (!site) throw notFound(NO_SUCH_SITE);
  request.site = await websiteOfOwner(request.server.deps.db, request.owner!.id, site.id);
}

/**
 * The Subscription as the client sends it back with PUT (SPEC §7: money serialized, dates as
 * timestamps). Only autoRenew is changed; the rest is read-only and ignored.
 */
const READ_ONLY = [
  "status",
  "pastDue",
  "plan",
  "pendingPlan",
  "nextChargeAmount",
  "nextChargeTax",
  "nextChargeAt",
  "creditBalance",
  "periodStart",
  "periodEnd",
  "trialEndsAt",
  "cancelledAt",
  "expiresAt",
  "createdOn",
  "billingMessageType",
  "message",
  "activeAndSubscribed",
  "commercePlan",
  "siteStatus",
  "billingStatus",
  "websiteType",
  "renewalAttempts",
  "retryAt",
] as const;
const SubscriptionBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 64 })),
    autoRenew: Type.Optional(Type.Boolean()),
    type: Type.Optional(Type.String({ maxLength: 20 })),
    ...Object.fromEntries(READ_ONLY.map((k) => [k, Type.Optional(Type.Unknown())])),
  },
  { additionalProperties: false },
);

const CardBody = Type.Object(
  {
    cardNumber: Type.String({ minLength: 1, maxLength: 30 }),
    expMonth: Type.Integer({ minimum: 1, maximum: 12 }),
    expYear: Type.Integer({ minimum: 0, maximum: 2100 }),
    cvc: Type.String({ minLength: 1, maxLength: 4 }),
    country: Type.Optional(
      Type.Union([Type.String({ maxLength: 2, description: BILLING_CARD_MSG.COUNTRY }), Type.Null()]),
    ),
  },
  { additionalProperties: false },
);

const TypeQuery = Type.Object(
  { type: Type.Optional(Type.Union(SUBSCRIPTION_TYPES.map((t) => Type.Literal(t)))) },
  { additionalProperties: false },
);

export const billingRoutes: FastifyPluginAsync = async (app) => {
  const deps = (): BillingDeps => ({
    db: app.deps.db,
    clock: app.deps.clock,
    payments: app.payments,
    publicUrl: app.deps.config.publicUrl,
  });

  const variants = [
    {
      base: "/api/billing",
      read: [requireHostSite],
      write: [requireCrumb, requireHostSite],
      params: {} as Record<string, TString>,
    },
    {
      base: "/api/owner/sites/:siteId/billing",
      read: [requireSite],
      write: [requireCrumb, requireSite],
      params: { siteId: Id } as Record<string, TString>,
    },
  ];

  for (const v of variants) {
    const P = (extra: Record<string, ReturnType<typeof Type.String>>) =>
      Type.Object({ ...v.params, ...extra });
    // Only the owner API's variant names a site, and so declares a permission.
    const owner = v.base.startsWith("/api/owner/");
    const read = { preValidation: v.read, ...(owner && { config: { permission: "billing.read" as const } }) };
    const write = {
      preValidation: v.write,
      ...(owner && { config: { permission: "billing.write" as const } }),
    };
    const subs = `${v.base}/subscriptions`;
    type Params = { id: string; planId: string };

    app.get(subs, { ...read, schema: { tags, params: P({}), querystring: TypeQuery } }, async (request) => ({
      results: await listSubscriptions(
        deps(),
        siteOf(request),
        (request.query as { type?: SubscriptionType }).type,
      ),
    }));
    app.get(`${subs}/:id`, { ...read, schema: { tags, params: P({ id: Id }) } }, async (request) => ({
      subscription: await getSubscription(deps(), siteOf(request), (request.params as Params).id),
    }));
    app.put(
      `${subs}/:id`,
      { ...write, schema: { tags, params: P({ id: Id }), body: SubscriptionBody } },
      async (request) => ({
        subscription: await updateSubscription(
          deps(),
          siteOf(request),
          (request.params as Params).id,
          request.body as { id?: string; autoRenew?: boolean },
        ),
      }),
    );
    app.delete(`${subs}/:id`, { ...write, schema: { tags, params: P({ id: Id }) } }, async (request) =>
      cancelSubscription(deps(), siteOf(request), (request.params as Params).id),
    );
    for (const [action, on] of [
      ["enable", true],
      ["disable", false],
    ] as const) {
      app.put(
        `${subs}/:id/auto-renew/${action}`,
        { ...write, schema: { tags, params: P({ id: Id }) } },
        async (request) => ({
          subscription: await setAutoRenew(deps(), siteOf(request), (request.params as Params).id, on),
        }),
      );
    }
    const change = `${subs}/:id/plan-change/:planId`;
    const changeParams = P({ id: Id, planId: PlanId });
    // Registered before `:planId` routes of the same shape so "cancel" is never a plan id.
    app.post(
      `${subs}/:id/plan-change/cancel`,
      { ...write, schema: { tags, params: P({ id: Id }) } },
      async (request) => cancelPlanChange(deps(), siteOf(request), (request.params as Params).id),
    );
    app.get(`${change}/preview`, { ...read, schema: { tags, params: changeParams } }, async (request) => {
      const p = request.params as Params;
      return previewPlanChange(deps(), siteOf(request), p.id, p.planId);
    });
    app.put(change, { ...write, schema: { tags, params: changeParams } }, async (request) => {
      const p = request.params as Params;
      return stagePlanChange(deps(), siteOf(request), p.id, p.planId);
    });
    app.post(`${change}/confirm`, { ...write, schema: { tags, params: changeParams } }, async (request) => {
      const p = request.params as Params;
      return confirmPlanChange(deps(), siteOf(request), p.id, p.planId);
    });
    app.get(`${v.base}/plans`, { ...read, schema: { tags, params: P({}) } }, async (request) => ({
      plans: await listPlans(deps(), siteOf(request)),
    }));
    app.get(`${v.base}/invoices`, { ...read, schema: { tags, params: P({}) } }, async (request) => ({
      invoices: await listInvoices(deps(), siteOf(request)),
    }));
    app.get(`${v.base}/payment-info`, { ...read, schema: { tags, params: P({}) } }, async (request) => ({
      paymentInfo: await getPaymentInfo(app.deps.db, siteOf(request)),
    }));
    app.put(
      `${v.base}/payment-info`,
      { ...write, schema: { tags, params: P({}), body: CardBody } },
      async (request) =>
        savePaymentInfo(deps(), siteOf(request), request.body as Parameters<typeof savePaymentInfo>[2]),
    );
    // After the card's 3-D Secure authentication: keeps the card that waited for it.
    app.post(
      `${v.base}/payment-info/confirm`,
      { ...write, schema: { tags, params: P({}) } },
      async (request) => confirmPaymentInfo(deps(), siteOf(request)),
    );
  }

  // SPEC §7: moving an in-app purchase customer to the resold grace period.
  app.post(
    "/api/1/iap/startGracePeriod",
    { preValidation: [requireCrumb, requireHostSite], schema: { tags } },
    async (request) => startGracePeriod(deps(), siteOf(request)),
  );
  app.post(
    "/api/owner/sites/:siteId/billing/iap/start-grace-period",
    {
      preValidation: [requireCrumb, requireSite],
      config: { permission: "billing.write" },
      schema: { tags, params: Type.Object({ siteId: Id }) },
    },
    async (request) => startGracePeriod(deps(), siteOf(request)),
  );
};
