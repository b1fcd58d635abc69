import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, siteApi, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { Browser, signedUpOwner } from "../../../test/harness.js";
import { BillingStatus, SiteStatus, WebsiteType } from "../../db/enums.js";
import { runHousekeeping } from "../jobs/plugin.js";
import { card, newSite } from "./billing.test-helper.js";
import * as s from "../../db/schema.js";
import { blockAllowed, enabledFeatures } from "../../render/features.js";
import { Feature } from "@atelier/owner-api";
import {
  billingMessageText,
  billingMessageType,
  isActiveAndSubscribed,
  isCommercePlan,
  isFeatureGated,
} from "./message.js";

const { CLASSIC, COVER_PAGE, COMMERCE, PARKING_PAGE } = WebsiteType;
const B = BillingStatus;
const S = SiteStatus;

describe("billing message type (SPEC §4)", () => {
  it.each([
    [S.TRIAL, CLASSIC, B.TRIAL, "WEBSITE_TRIAL"],
    [S.PAID, CLASSIC, B.SUBSCRIBED, "WEBSITE_PAID"],
    [S.EXPIRED, CLASSIC, B.TRIAL, "WEBSITE_EXPIRED"],
    [S.PASTDUE, CLASSIC, B.SUBSCRIBED, "WEBSITE_PAST_DUE"],
    [S.TRIAL, COMMERCE, B.TRIAL, "COMMERCE_TRIAL"],
    [S.PAID, COMMERCE, B.SUBSCRIBED, "COMMERCE_PAID"],
    [S.EXPIRED, COMMERCE, B.SUBSCRIBED, "COMMERCE_EXPIRED"],
    [S.EXPIRED, COVER_PAGE, B.TRIAL, "COVER_PAGE_EXPIRED"],
    [S.TRIAL, COVER_PAGE, B.TRIAL, "COVER_PAGE_TRIAL"],
    [S.PAID, PARKING_PAGE, B.SUBSCRIBED, "PARKING_PAGE_PAID"],
    [S.RESOLD, CLASSIC, B.RESOLD, "WEBSITE_RESOLD"],
    [S.RESOLD_GRACE, CLASSIC, B.RESOLD_GRACE_PERIOD, "WEBSITE_RESOLD_GRACE_PERIOD"],
    [S.RESOLD, COMMERCE, B.RESOLD_GRACE_PERIOD, "COMMERCE_RESOLD_GRACE_PERIOD"],
    [S.RESOLD_GRACE, COVER_PAGE, B.RESOLD_GRACE_PERIOD, "COVER_PAGE_RESOLD_GRACE_PERIOD"],
    // No message when the status is trial and the billing status is subscribed.
    [S.TRIAL, CLASSIC, B.SUBSCRIBED, null],
    [S.TRIAL, COMMERCE, B.SUBSCRIBED, null],
    // Statuses without billing messages.
    [S.INTERNAL, COMMERCE, B.FREE, null],
    [S.COMPED, CLASSIC, B.FREE, null],
    [S.PAID, 99, B.SUBSCRIBED, null],
  ])(
    "site status %i, website type %i, billing status %i → %s",
    (siteStatus, websiteType, billingStatus, want) => {
      const type = billingMessageType({ siteStatus, websiteType, billingStatus });
      expect(type).toBe(want);
      if (type) expect(billingMessageText(type)).toMatch(/\.$/);
    },
  );

  it("active and subscribed = paid status with subscribed billing status", () => {
    expect(
      isActiveAndSubscribed({ siteStatus: S.PAID, websiteType: CLASSIC, billingStatus: B.SUBSCRIBED }),
    ).toBe(true);
    expect(isActiveAndSubscribed({ siteStatus: S.PAID, websiteType: CLASSIC, billingStatus: B.TRIAL })).toBe(
      false,
    );
    expect(
      isActiveAndSubscribed({ siteStatus: S.TRIAL, websiteType: CLASSIC, billingStatus: B.SUBSCRIBED }),
    ).toBe(false);
  });

  it("commerce plan = internal status, or a commerce paid or commerce grace-period message", () => {
    expect(isCommercePlan({ siteStatus: S.INTERNAL, websiteType: CLASSIC, billingStatus: B.FREE })).toBe(
      true,
    );
    expect(isCommercePlan({ siteStatus: S.PAID, websiteType: COMMERCE, billingStatus: B.SUBSCRIBED })).toBe(
      true,
    );
    expect(
      isCommercePlan({
        siteStatus: S.RESOLD_GRACE,
        websiteType: COMMERCE,
        billingStatus: B.RESOLD_GRACE_PERIOD,
      }),
    ).toBe(true);
    expect(isCommercePlan({ siteStatus: S.TRIAL, websiteType: COMMERCE, billingStatus: B.TRIAL })).toBe(
      false,
    );
    expect(isCommercePlan({ siteStatus: S.PAID, websiteType: CLASSIC, billingStatus: B.SUBSCRIBED })).toBe(
      false,
    );
  });

  it("a feature is gated when not enabled, or on trial when not in every plan", () => {
    const enabled = new Set([1, 2]);
    const everyPlan = new Set([1]);
    expect(isFeatureGated(3, enabled, false, everyPlan)).toBe(true);
    expect(isFeatureGated(2, enabled, false, everyPlan)).toBe(false);
    expect(isFeatureGated(2, enabled, true, everyPlan)).toBe(true);
    expect(isFeatureGated(1, enabled, true, everyPlan)).toBe(false);
  });
});

const DAY = 86_400_000;
let nowMs = Date.UTC(2026, 10, 25, 12);
const clock = { now: () => new Date(nowMs) };
let demo: string;
const subId = async (b: Browser, base: string) =>
  (await b.request({ url: `${base}/subscriptions` })).json().results[0].id as string;

useDemoApp({ clock });
beforeAll(() => {
  demo = `${siteApi}/billing`;
});

const newOwner = (email: string) => signedUpOwner(t, email);

describe("billing calls", () => {
  it("lists the demo's subscription with its plan, money and message", async () => {
    const res = await owner.request({ url: `${demo}/subscriptions` });
    expect(res.statusCode).toBe(200);
    const [sub] = res.json().results;
    expect(sub).toMatchObject({
      type: "website",
      status: "active",
      pastDue: false,
      autoRenew: true,
      plan: {
        id: "commerce-advanced-monthly",
        planDisplayName: "Commerce Advanced",
        price: { decimalValue: "49.00", currencyCode: "USD" },
        basePrice: { decimalValue: "65.00", currencyCode: "USD" },
      },
      nextChargeAmount: { decimalValue: "49.00", currencyCode: "USD" },
      nextChargeTax: { decimalValue: "0.00", currencyCode: "USD" },
      billingMessageType: "COMMERCE_PAID",
      activeAndSubscribed: true,
      commercePlan: true,
    });
    expect((await owner.request({ url: `${demo}/subscriptions?type=resold` })).json().results).toEqual([]);
    const one = await owner.request({ url: `${demo}/subscriptions/${sub.id}` });
    expect(one.json().subscription.id).toBe(sub.id);
  });

  it("answers the same through /api/billing on the site's host, for its owner only", async () => {
    const host = { host: "demo.localhost" };
    const list = await owner.request({ url: "/api/billing/subscriptions", headers: host });
    expect(list.statusCode).toBe(200);
    expect(list.json().results[0].plan.id).toBe("commerce-advanced-monthly");
    const anon = new Browser(t.app, "demo.localhost");
    expect((await anon.request({ url: "/api/billing/subscriptions" })).statusCode).toBe(401);
    const eve = await newOwner("eve-host@example.com");
    const other = await eve.request({ url: "/api/billing/subscriptions", headers: host });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.message).toBe("No such site.");
    // Changes need the crumb.
    const id = list.json().results[0].id;
    const noCrumb = await owner.request({
      method: "PUT",
      url: `/api/billing/subscriptions/${id}/auto-renew/disable`,
      headers: host,
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
  });

  it("toggles auto-renew with the enable/disable calls and with PUT of the subscription", async () => {
    const id = await subId(owner, demo);
    const off = await owner.request({ method: "PUT", url: `${demo}/subscriptions/${id}/auto-renew/disable` });
    expect(off.statusCode).toBe(200);
    expect(off.json().subscription).toMatchObject({ autoRenew: false, nextChargeAt: null });
    expect(off.json().subscription.expiresAt).toBeGreaterThan(nowMs);
    const on = await owner.request({ method: "PUT", url: `${demo}/subscriptions/${id}/auto-renew/enable` });
    expect(on.json().subscription).toMatchObject({ autoRenew: true, expiresAt: null });
    // PUT sends the whole subscription back; only autoRenew changes.
    const full = on.json().subscription;
    const put = await owner.request({
      method: "PUT",
      url: `${demo}/subscriptions/${id}`,
      payload: { ...full, autoRenew: false, pastDue: true },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().subscription).toMatchObject({ autoRenew: false, pastDue: false });
    await owner.request({ method: "PUT", url: `${demo}/subscriptions/${id}`, payload: { autoRenew: true } });
  });

  it("refuses bad input with clear 4xx messages", async () => {
    const id = await subId(owner, demo);
    const cases: [string, string, unknown, number, string | RegExp][] = [
      ["GET", `${demo}/subscriptions?type=gold`, undefined, 400, /type/],
      ["GET", `${demo}/subscriptions/0123456789abcdef01234567`, undefined, 404, "No such subscription."],
      ["GET", `${demo}/subscriptions/not-an-id`, undefined, 400, /id/],
      ["PUT", `${demo}/subscriptions/${id}`, { autoRenew: "yes" }, 400, /autoRenew/],
      ["PUT", `${demo}/subscriptions/${id}`, { colour: "red" }, 400, /colour|additional/i],
      [
        "PUT",
        `${demo}/subscriptions/${id}`,
        { id: "0123456789abcdef01234567" },
        400,
        "The subscription id does not match the address.",
      ],
      [
        "GET",
        `${demo}/subscriptions/${id}/plan-change/gold-monthly/preview`,
        undefined,
        404,
        "No such plan.",
      ],
      ["GET", `${demo}/subscriptions/${id}/plan-change/Bad Plan!/preview`, undefined, 400, /planId/],
      [
        "GET",
        `${demo}/subscriptions/${id}/plan-change/commerce-advanced-monthly/preview`,
        undefined,
        409,
        "This is already the subscription's plan.",
      ],
      [
        "POST",
        `${demo}/subscriptions/${id}/plan-change/business-monthly/confirm`,
        undefined,
        409,
        "Choose this plan first (PUT …/plan-change/{planId}), then confirm it.",
      ],
      [
        "POST",
        `${demo}/subscriptions/${id}/plan-change/cancel`,
        undefined,
        409,
        "There is no plan change to cancel.",
      ],
      ["PUT", `${demo}/payment-info`, card("4242424242424241"), 400, "Your card number is incorrect."],
      ["PUT", `${demo}/payment-info`, card("4242424242424242", { expMonth: 13 }), 400, /expMonth/],
      [
        "PUT",
        `${demo}/payment-info`,
        card("4242424242424242", { cvc: "12" }),
        400,
        "Your card's security code is invalid.",
      ],
      [
        "PUT",
        `${demo}/payment-info`,
        card("4242424242424242", { expYear: 2020 }),
        400,
        "Your card has expired.",
      ],
      ["PUT", `${demo}/payment-info`, { cardNumber: "4242424242424242" }, 400, /expMonth|required/],
      ["PUT", `${demo}/payment-info`, card("4000000000000002"), 402, "Your card was declined."],
      [
        "POST",
        `${demo}/iap/start-grace-period`,
        undefined,
        409,
        "Only an in-app purchase subscription can move to a grace period.",
      ],
    ];
    for (const [method, url, payload, status, message] of cases) {
      const res = await owner.request({ method: method as "GET", url, payload: payload as object });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      const err = res.json().error;
      expect(err.code, url).toBeTruthy();
      if (typeof message === "string") expect(err.message).toBe(message);
      else expect(JSON.stringify(err)).toMatch(message);
    }
    // The declined card was not saved.
    expect((await owner.request({ url: `${demo}/payment-info` })).json().paymentInfo).toBeNull();
  });

  it("previews a prorated downgrade, stages, cancels the staged change and confirms it as a credit", async () => {
    const id = await subId(owner, demo);
    const sub = (await owner.request({ url: `${demo}/subscriptions/${id}` })).json().subscription;
    const preview = await owner.request({
      url: `${demo}/subscriptions/${id}/plan-change/business-monthly/preview`,
    });
    expect(preview.statusCode).toBe(200);
    const inv = preview.json().invoice;
    // The demo's period: a month ending 20 days from now.
    const fraction = (sub.periodEnd - nowMs) / (sub.periodEnd - sub.periodStart);
    const credit = Math.round(4900 * fraction);
    const charge = Math.round(3300 * fraction);
    expect(inv.proration.unusedCredit.decimalValue).toBe((credit / 100).toFixed(2));
    expect(inv.proration.newPlanCharge.decimalValue).toBe((charge / 100).toFixed(2));
    expect(inv.total.decimalValue).toBe(((charge - credit) / 100).toFixed(2));
    expect(Number(inv.total.decimalValue)).toBeLessThan(0);
    expect(inv.proration.remainingDays).toBeCloseTo(20, 0);

    const staged = await owner.request({
      method: "PUT",
      url: `${demo}/subscriptions/${id}/plan-change/business-monthly`,
    });
    expect(staged.json().subscription.pendingPlan).toMatchObject({ id: "business-monthly" });
    const dropped = await owner.request({
      method: "POST",
      url: `${demo}/subscriptions/${id}/plan-change/cancel`,
    });
    expect(dropped.json().subscription.pendingPlan).toBeNull();
    const notStaged = await owner.request({
      method: "POST",
      url: `${demo}/subscriptions/${id}/plan-change/business-monthly/confirm`,
    });
    expect(notStaged.statusCode).toBe(409);

    await owner.request({ method: "PUT", url: `${demo}/subscriptions/${id}/plan-change/business-monthly` });
    // A downgrade needs no card: the difference is credited.
    const done = await owner.request({
      method: "POST",
      url: `${demo}/subscriptions/${id}/plan-change/business-monthly/confirm`,
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().subscription).toMatchObject({
      plan: { id: "business-monthly" },
      pendingPlan: null,
      creditBalance: { decimalValue: ((credit - charge) / 100).toFixed(2) },
      nextChargeAmount: { decimalValue: ((3300 - (credit - charge)) / 100).toFixed(2) },
    });
    const invoices = (await owner.request({ url: `${demo}/invoices` })).json().invoices;
    expect(invoices[0]).toMatchObject({
      status: "credited",
      description: "Plan change: Commerce Advanced → Business",
      total: { decimalValue: ((charge - credit) / 100).toFixed(2) },
    });
    // The site's features follow the plan: the amazon block is not in Business.
    const [site] = await t.database.db.select().from(s.websites).where(eq(s.websites.id, siteId));
    expect(site!.featureSetId).toBe("business");
  });

  it("uses the credit of a downgrade first: the upgrade back costs nothing and needs no card", async () => {
    const id = await subId(owner, demo);
    await owner.request({
      method: "PUT",
      url: `${demo}/subscriptions/${id}/plan-change/commerce-advanced-monthly`,
    });
    const preview = (
      await owner.request({
        url: `${demo}/subscriptions/${id}/plan-change/commerce-advanced-monthly/preview`,
      })
    ).json().invoice;
    expect(Number(preview.creditApplied.decimalValue)).toBeGreaterThan(0);
    expect(preview.total.decimalValue).toBe("0.00");
    const ok = await owner.request({
      method: "POST",
      url: `${demo}/subscriptions/${id}/plan-change/commerce-advanced-monthly/confirm`,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().subscription).toMatchObject({
      plan: { id: "commerce-advanced-monthly" },
      creditBalance: { decimalValue: "0.00" },
      nextChargeAmount: { decimalValue: "49.00" },
    });
    const [paid] = (await owner.request({ url: `${demo}/invoices` })).json().invoices;
    expect(paid).toMatchObject({ status: "paid", cardLast4: null, total: { decimalValue: "0.00" } });
    const [site] = await t.database.db.select().from(s.websites).where(eq(s.websites.id, siteId));
    expect(site!.featureSetId).toBe("commerce-advanced");
  });

  it("charges a paid change to the saved card; no card or a failing card changes nothing", async () => {
    const cy = await newOwner("cy-billing@example.com");
    const site = await newSite(cy, "Cy Ceramics");
    const id = await subId(cy, site.base);
    const change = `${site.base}/subscriptions/${id}/plan-change/commerce-advanced-monthly`;
    const siteRow = async () =>
      (await t.database.db.select().from(s.websites).where(eq(s.websites.id, site.id)))[0]!;
    const renew = await cy.request({
      method: "PUT",
      url: `${site.base}/subscriptions/${id}/auto-renew/enable`,
    });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().error.message).toBe(
      "A trial does not renew. Choose a plan to keep the site online after the trial.",
    );
    // On trial only what every plan has: the amazon block is gated.
    expect(blockAllowed("amazon", await enabledFeatures(t.database.db, await siteRow()))).toBe(false);
    expect((await cy.request({ method: "PUT", url: change })).statusCode).toBe(200);
    const refused = await cy.request({ method: "POST", url: `${change}/confirm` });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().error.message).toBe("Add a card in Payment info before changing to a paid plan.");

    // A card that expires this month, saved, then the month passes: the charge fails.
    const now = new Date(nowMs);
    const saved = await cy.request({
      method: "PUT",
      url: `${site.base}/payment-info`,
      payload: card("4242 4242 4242 4242", {
        expMonth: now.getUTCMonth() + 1,
        expYear: now.getUTCFullYear(),
      }),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().paymentInfo).toMatchObject({ cardLast4: "4242" });
    expect(JSON.stringify(saved.json())).not.toContain("4242424242424242");
    nowMs += 6 * DAY;
    const expired = await cy.request({ method: "POST", url: `${change}/confirm` });
    expect(expired.statusCode).toBe(402);
    expect(expired.json().error.message).toBe("Your card has expired.");
    const still = (await cy.request({ url: `${site.base}/subscriptions/${id}` })).json().subscription;
    expect(still).toMatchObject({ status: "trial", plan: { id: "business-monthly" } });
    expect((await cy.request({ url: `${site.base}/invoices` })).json().invoices[0].status).toBe("failed");

    await cy.request({ method: "PUT", url: `${site.base}/payment-info`, payload: card("4242424242424242") });
    const preview = (await cy.request({ url: `${change}/preview` })).json().invoice;
    expect(preview.total).toEqual({ decimalValue: "49.00", currencyCode: "USD" });
    const ok = await cy.request({ method: "POST", url: `${change}/confirm` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().subscription).toMatchObject({
      status: "active",
      plan: { id: "commerce-advanced-monthly" },
    });
    const [paid] = (await cy.request({ url: `${site.base}/invoices` })).json().invoices;
    expect(paid).toMatchObject({ status: "paid", cardLast4: "4242", total: preview.total });
    const charges = await (
      t.app.payments as unknown as { charges(): Promise<{ amountCents: number; status: string }[]> }
    ).charges();
    expect(charges.some((c) => c.amountCents === 4900 && c.status === "succeeded")).toBe(true);
  });

  it("starts sites made from the dashboard on a trial, upgrades them, and cancels at the end of the period", async () => {
    const ann = await newOwner("ann-billing@example.com");
    const site = await newSite(ann, "Ann's Pottery");
    const [trial] = (await ann.request({ url: `${site.base}/subscriptions` })).json().results;
    expect(trial).toMatchObject({
      status: "trial",
      autoRenew: false,
      plan: { id: "business-monthly" },
      billingMessageType: "WEBSITE_TRIAL",
    });
    expect(trial.trialEndsAt - trial.periodStart).toBe(14 * DAY);
    await ann.request({ method: "PUT", url: `${site.base}/payment-info`, payload: card("4242424242424242") });
    const preview = (
      await ann.request({
        url: `${site.base}/subscriptions/${trial.id}/plan-change/personal-monthly/preview`,
      })
    ).json().invoice;
    expect(preview.total).toEqual({ decimalValue: "16.00", currencyCode: "USD" });
    await ann.request({
      method: "PUT",
      url: `${site.base}/subscriptions/${trial.id}/plan-change/personal-monthly`,
    });
    const up = await ann.request({
      method: "POST",
      url: `${site.base}/subscriptions/${trial.id}/plan-change/personal-monthly/confirm`,
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().subscription).toMatchObject({
      status: "active",
      autoRenew: true,
      billingMessageType: "WEBSITE_PAID",
    });
    const [row] = await t.database.db.select().from(s.websites).where(eq(s.websites.id, site.id));
    expect(row).toMatchObject({
      siteStatus: SiteStatus.PAID,
      billingStatus: BillingStatus.SUBSCRIBED,
      featureSetId: "personal",
    });
    const [set] = await t.database.db.select().from(s.featureSets).where(eq(s.featureSets.id, "personal"));
    expect(set!.enabledFeatures).not.toContain(Feature.DONATION_BLOCK);

    const cancelled = await ann.request({ method: "DELETE", url: `${site.base}/subscriptions/${trial.id}` });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      cancelled: true,
      subscription: { status: "cancelled", autoRenew: false },
    });
    expect(cancelled.json().message).toMatch(
      /^Your subscription is cancelled\. Your site stays online until .+, then it expires\./,
    );
    const again = await ann.request({ method: "DELETE", url: `${site.base}/subscriptions/${trial.id}` });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("This subscription is already cancelled.");
    // Still online until the period ends, then expired.
    expect(
      (await ann.request({ url: `${site.base}/subscriptions/${trial.id}` })).json().subscription.status,
    ).toBe("cancelled");
    // The paid period ends.
    await t.database.db
      .update(s.billingSubscriptions)
      .set({ nextChargeAt: new Date(nowMs - 1) })
      .where(eq(s.billingSubscriptions.id, trial.id));
    // Housekeeping expires the site without anyone opening the billing panel.
    await runHousekeeping(t.app.deps);
    const [lapsed] = await t.database.db.select().from(s.websites).where(eq(s.websites.id, site.id));
    expect(lapsed!.siteStatus).toBe(SiteStatus.EXPIRED);
    const after = (await ann.request({ url: `${site.base}/subscriptions/${trial.id}` })).json().subscription;
    expect(after).toMatchObject({ status: "expired", billingMessageType: "WEBSITE_EXPIRED" });
    const resume = await ann.request({
      method: "PUT",
      url: `${site.base}/subscriptions/${trial.id}/auto-renew/enable`,
    });
    expect(resume.statusCode).toBe(409);
    expect(resume.json().error.message).toBe(
      "This subscription has ended. Choose a plan to start a new one.",
    );
  });

  it("moves an in-app purchase subscription to the resold grace period", async () => {
    const bo = await newOwner("bo-iap@example.com");
    const site = await newSite(bo, "Bo Apps");
    const id = await subId(bo, site.base);
    await t.database.db
      .update(s.billingSubscriptions)
      .set({ type: "resold" })
      .where(eq(s.billingSubscriptions.id, id));
    const res = await bo.request({
      method: "POST",
      url: "/api/1/iap/startGracePeriod",
      headers: { host: `${site.identifier}.localhost` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().subscription.billingMessageType).toBe("WEBSITE_RESOLD_GRACE_PERIOD");
  });

  it("never shows or changes another owner's billing", async () => {
    const eve = await newOwner("eve-billing@example.com");
    const id = await subId(owner, demo);
    const before = (await owner.request({ url: `${demo}/subscriptions/${id}` })).json().subscription;
    const tries: [string, string, object?][] = [
      ["GET", `${demo}/subscriptions`],
      ["GET", `${demo}/subscriptions/${id}`],
      ["PUT", `${demo}/subscriptions/${id}`, { autoRenew: false }],
      ["DELETE", `${demo}/subscriptions/${id}`],
      ["PUT", `${demo}/subscriptions/${id}/auto-renew/disable`],
      ["GET", `${demo}/subscriptions/${id}/plan-change/personal-monthly/preview`],
      ["PUT", `${demo}/subscriptions/${id}/plan-change/personal-monthly`],
      ["POST", `${demo}/subscriptions/${id}/plan-change/personal-monthly/confirm`],
      ["POST", `${demo}/subscriptions/${id}/plan-change/cancel`],
      ["GET", `${demo}/invoices`],
      ["GET", `${demo}/payment-info`],
      ["PUT", `${demo}/payment-info`, card("4242424242424242")],
    ];
    for (const [method, url, payload] of tries) {
      const res = await eve.request({ method: method as "GET", url, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.message).toBe("No such site.");
    }
    // Eve's own site does not reach the demo's subscription either.
    const mine = await newSite(eve, "Eve's Site");
    const cross = await eve.request({ url: `${mine.base}/subscriptions/${id}` });
    expect(cross.statusCode).toBe(404);
    expect(cross.json().error.message).toBe("No such subscription.");
    const crossCancel = await eve.request({ method: "DELETE", url: `${mine.base}/subscriptions/${id}` });
    expect(crossCancel.statusCode).toBe(404);
    const after = (await owner.request({ url: `${demo}/subscriptions/${id}` })).json().subscription;
    expect(after).toEqual(before);
  });
});

describe("an expired site", () => {
  /** The status of `/` for a visitor once it is `want`: other processes hear of a site change a moment later. */
  async function homeStatus(want: number): Promise<number> {
    const started = Date.now();
    for (;;) {
      const status = (await new Browser(t.app).request({ url: "/" })).statusCode;
      if (status === want || Date.now() - started > 3000) return status;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it("is offline for visitors with a 503 page, and still shown to its owner", async () => {
    await t.database.db
      .update(s.websites)
      .set({ siteStatus: SiteStatus.EXPIRED })
      .where(eq(s.websites.id, siteId));
    try {
      expect(await homeStatus(503)).toBe(503);
      const visitor = new Browser(t.app);
      for (const path of ["/", "/shop", "/shop?format=json"]) {
        const res = await visitor.request({ url: path });
        expect(res.statusCode, path).toBe(503);
        expect(res.body).toContain("This website is unavailable");
        expect(res.body).toContain("Atelier Demo is not online at the moment.");
      }
      expect((await owner.request({ url: "/shop" })).statusCode).toBe(200);
    } finally {
      await t.database.db
        .update(s.websites)
        .set({ siteStatus: SiteStatus.PAID })
        .where(eq(s.websites.id, siteId));
    }
    expect(await homeStatus(200)).toBe(200);
  });
});
