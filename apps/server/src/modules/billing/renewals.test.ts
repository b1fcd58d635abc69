/**
 * The plan's life after the first payment: tax by the owner's billing country, automatic renewal
 * at the end of each period, retries while past due and expiry after the last one, and saving a
 * card whose bank asks for 3-D Secure.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, TestApp } from "../../../test/harness.js";
import { createTestApp, signedUpOwner } from "../../../test/harness.js";
import { SiteStatus } from "../../db/enums.js";
import * as s from "../../db/schema.js";
import { runHousekeeping } from "../jobs/plugin.js";
import { TEST_CARDS, TEST_MSG } from "../payments/test-provider.js";
import { card, newSite } from "./billing.test-helper.js";
import { BILLING_CARD_MSG } from "./card.js";
import { planTaxCents } from "./tax.js";

const DAY = 86_400_000;
let nowMs = Date.UTC(2026, 10, 25, 12);
const clock = { now: () => new Date(nowMs) };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
});
afterAll(() => t.close());

type Site = Awaited<ReturnType<typeof newSite>>;
const subscriptionOf = async (b: Browser, site: Site) =>
  (await b.request({ url: `${site.base}/subscriptions` })).json().results[0];
const invoicesOf = async (b: Browser, site: Site) =>
  (await b.request({ url: `${site.base}/invoices` })).json().invoices as {
    status: string;
    description: string;
    subtotal: { decimalValue: string };
    tax: { decimalValue: string };
    total: { decimalValue: string };
  }[];
const siteStatus = async (site: Site) =>
  (await t.database.db.select().from(s.websites).where(eq(s.websites.id, site.id)))[0]!.siteStatus;
const housekeeping = () => runHousekeeping(t.app.deps);

/** Moves the clock; owner sessions do not last a month, so the owner logs in again. */
async function advanceTo(ms: number, b: Browser, email: string) {
  nowMs = ms;
  const res = await b.request({
    method: "POST",
    url: "/api/owner/session",
    payload: { email, password: "long enough password" },
  });
  expect(res.statusCode).toBe(200);
}

/** Saves a card whose bank asks for 3-D Secure, completing the challenge as the owner would. */
async function saveWithChallenge(b: Browser, site: Site, number: string, outcome: "succeed" | "fail") {
  const put = await b.request({ method: "PUT", url: `${site.base}/payment-info`, payload: card(number) });
  expect(put.statusCode).toBe(200);
  const { nextAction } = put.json().authentication;
  expect(nextAction.type).toBe("test_challenge");
  const early = await b.request({ method: "POST", url: `${site.base}/payment-info/confirm` });
  expect(early.statusCode).toBe(409);
  expect(early.json().error.message).toBe(BILLING_CARD_MSG.NOT_AUTHENTICATED);
  const done = await b.request({
    method: "POST",
    url: `/api/commerce/payments/test-challenges/${nextAction.challengeId}`,
    payload: { outcome },
  });
  expect(done.statusCode).toBe(200);
  return b.request({ method: "POST", url: `${site.base}/payment-info/confirm` });
}

/** A site on the $16 personal plan, paid with the given card, in the given billing country. */
async function paidSite(email: string, number: string = TEST_CARDS.SUCCEEDS, country?: string) {
  const b = await signedUpOwner(t, email);
  const site = await newSite(b, `Site of ${email}`);
  const saved = await b.request({
    method: "PUT",
    url: `${site.base}/payment-info`,
    payload: card(number, country ? { country } : {}),
  });
  expect(saved.statusCode).toBe(200);
  const sub = await subscriptionOf(b, site);
  const change = `${site.base}/subscriptions/${sub.id}/plan-change/personal-monthly`;
  await b.request({ method: "PUT", url: change });
  expect((await b.request({ method: "POST", url: `${change}/confirm` })).statusCode).toBe(200);
  return { b, site };
}

describe("tax on plan charges", () => {
  it("follows the billing country of the saved card; an unknown country is refused", async () => {
    expect(planTaxCents(1600, "DE")).toBe(304);
    expect(planTaxCents(1600, "US")).toBe(0);
    expect(planTaxCents(-500, "DE")).toBe(0);
    const b = await signedUpOwner(t, "tax-bad@example.com");
    const site = await newSite(b, "Tax Bad");
    const bad = await b.request({
      method: "PUT",
      url: `${site.base}/payment-info`,
      payload: card(TEST_CARDS.SUCCEEDS, { country: "ZZ" }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      message: BILLING_CARD_MSG.COUNTRY,
      fields: { country: BILLING_CARD_MSG.COUNTRY },
    });

    const de = await paidSite("tax-de@example.com", TEST_CARDS.SUCCEEDS, "de");
    const [first] = await invoicesOf(de.b, de.site);
    expect(first).toMatchObject({
      status: "paid",
      subtotal: { decimalValue: "16.00" },
      tax: { decimalValue: "3.04" },
      total: { decimalValue: "19.04" },
    });
    const sub = await subscriptionOf(de.b, de.site);
    expect(sub.nextChargeAmount.decimalValue).toBe("16.00");
    expect(sub.nextChargeTax.decimalValue).toBe("3.04");
    const info = (await de.b.request({ url: `${de.site.base}/payment-info` })).json().paymentInfo;
    expect(info.billingCountry).toBe("DE");

    const us = await paidSite("tax-us@example.com", TEST_CARDS.SUCCEEDS, "US");
    expect((await invoicesOf(us.b, us.site))[0]!.tax.decimalValue).toBe("0.00");
  });
});

describe("automatic renewal", () => {
  it("charges the saved card at the end of the period, once, and starts the next period", async () => {
    const { b, site } = await paidSite("renew-ok@example.com", TEST_CARDS.SUCCEEDS, "GB");
    const before = await subscriptionOf(b, site);
    expect(before).toMatchObject({ status: "active", autoRenew: true, pastDue: false });
    await housekeeping();
    expect(await invoicesOf(b, site)).toHaveLength(1);

    await advanceTo(before.periodEnd + 60_000, b, "renew-ok@example.com");
    await Promise.all([housekeeping(), housekeeping()]);
    await housekeeping();
    const invoices = await invoicesOf(b, site);
    expect(invoices).toHaveLength(2);
    expect(invoices[0]).toMatchObject({
      status: "paid",
      description: "Personal plan renewal",
      subtotal: { decimalValue: "16.00" },
      tax: { decimalValue: "3.20" },
      total: { decimalValue: "19.20" },
    });
    const after = await subscriptionOf(b, site);
    expect(after.periodStart).toBe(before.periodEnd);
    expect(after.periodEnd).toBeGreaterThan(before.periodEnd + 27 * DAY);
    expect(after).toMatchObject({ status: "active", pastDue: false });
    expect(await siteStatus(site)).toBe(SiteStatus.PAID);
  });

  it("makes a failed renewal past due, retries 1, 3 and 5 days later, then expires the site", async () => {
    // A card that needs authentication on every charge: saved with the owner, refused without.
    const b = await signedUpOwner(t, "renew-fail@example.com");
    const site = await newSite(b, "Renew Fail");
    const saved = await saveWithChallenge(b, site, TEST_CARDS.REQUIRES_AUTHENTICATION, "succeed");
    expect(saved.statusCode).toBe(200);
    const sub = await subscriptionOf(b, site);
    const change = `${site.base}/subscriptions/${sub.id}/plan-change/personal-monthly`;
    await b.request({ method: "PUT", url: change });
    const confirmed = await b.request({ method: "POST", url: `${change}/confirm` });
    // The first charge is a charge without the owner too: refused, nothing changes.
    expect(confirmed.statusCode).toBe(402);
    expect(confirmed.json().error.message).toBe(TEST_MSG.AUTHENTICATION_REQUIRED_OFF_SESSION);

    const { b: owner, site: paid } = await paidSite("renew-fail-2@example.com");
    // The card is replaced in the vault's eyes by one that fails from now on.
    const [method] = await t.database.db
      .select()
      .from(s.billingPaymentMethods)
      .where(eq(s.billingPaymentMethods.websiteId, paid.id));
    const failing = await saveWithChallenge(owner, paid, TEST_CARDS.REQUIRES_AUTHENTICATION, "succeed");
    expect(failing.json().paymentInfo.cardLast4).toBe("3184");
    expect(method!.cardLast4).toBe("4242");

    const start = await subscriptionOf(owner, paid);
    await advanceTo(start.periodEnd + 60_000, owner, "renew-fail-2@example.com");
    await housekeeping();
    let now = await subscriptionOf(owner, paid);
    expect(now).toMatchObject({ pastDue: true, renewalAttempts: 1, billingMessageType: "WEBSITE_PAST_DUE" });
    expect(now.retryAt).toBe(nowMs + DAY);
    expect(await siteStatus(paid)).toBe(SiteStatus.PASTDUE);
    expect((await invoicesOf(owner, paid))[0]).toMatchObject({ status: "failed" });
    // Past due is still online for visitors.
    const page = await t.app.inject({ url: "/", headers: { host: `${paid.identifier}.localhost` } });
    expect(page.statusCode).toBe(200);
    // Not before the retry time.
    await housekeeping();
    expect((await subscriptionOf(owner, paid)).renewalAttempts).toBe(1);

    for (const [days, attempts] of [
      [1, 2],
      [3, 3],
    ] as const) {
      await advanceTo(nowMs + days * DAY + 60_000, owner, "renew-fail-2@example.com");
      await housekeeping();
      now = await subscriptionOf(owner, paid);
      expect(now.renewalAttempts).toBe(attempts);
      expect(await siteStatus(paid)).toBe(SiteStatus.PASTDUE);
    }
    await advanceTo(nowMs + 5 * DAY + 60_000, owner, "renew-fail-2@example.com");
    await housekeeping();
    expect(await siteStatus(paid)).toBe(SiteStatus.EXPIRED);
    expect((await invoicesOf(owner, paid)).filter((i) => i.status === "failed")).toHaveLength(4);
    const offline = await t.app.inject({ url: "/", headers: { host: `${paid.identifier}.localhost` } });
    expect(offline.statusCode).toBe(503);
  });

  it("charges again at once when a past-due owner saves a card that works", async () => {
    const { b, site } = await paidSite("renew-recover@example.com");
    await saveWithChallenge(b, site, TEST_CARDS.REQUIRES_AUTHENTICATION, "succeed");
    await advanceTo((await subscriptionOf(b, site)).periodEnd + 60_000, b, "renew-recover@example.com");
    await housekeeping();
    expect(await siteStatus(site)).toBe(SiteStatus.PASTDUE);
    const saved = await b.request({
      method: "PUT",
      url: `${site.base}/payment-info`,
      payload: card(TEST_CARDS.SUCCEEDS),
    });
    expect(saved.statusCode).toBe(200);
    expect(await siteStatus(site)).toBe(SiteStatus.PAID);
    const sub = await subscriptionOf(b, site);
    expect(sub).toMatchObject({ pastDue: false, renewalAttempts: 0, status: "active" });
    expect((await invoicesOf(b, site)).map((i) => i.status)).toEqual(["paid", "failed", "paid"]);
  });
});

describe("saving a card that needs 3-D Secure", () => {
  it("keeps the card once its holder authenticates it; later charges need no one", async () => {
    const b = await signedUpOwner(t, "three-ds@example.com");
    const site = await newSite(b, "Three DS");
    const failed = await saveWithChallenge(b, site, TEST_CARDS.AUTHENTICATE_ONCE, "fail");
    expect(failed.statusCode).toBe(402);
    expect(failed.json().error.message).toBe(TEST_MSG.AUTHENTICATION_FAILED);
    const none = await b.request({ method: "POST", url: `${site.base}/payment-info/confirm` });
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(BILLING_CARD_MSG.NO_SETUP);
    expect((await b.request({ url: `${site.base}/payment-info` })).json().paymentInfo).toBeNull();

    const ok = await saveWithChallenge(b, site, TEST_CARDS.AUTHENTICATE_ONCE, "succeed");
    expect(ok.statusCode).toBe(200);
    expect(ok.json().paymentInfo).toMatchObject({ cardLast4: "3155", expMonth: 12, expYear: 2030 });
    // The plan is charged to it without the owner, now and at renewal.
    const sub = await subscriptionOf(b, site);
    const change = `${site.base}/subscriptions/${sub.id}/plan-change/personal-monthly`;
    await b.request({ method: "PUT", url: change });
    expect((await b.request({ method: "POST", url: `${change}/confirm` })).statusCode).toBe(200);
    await advanceTo((await subscriptionOf(b, site)).periodEnd + 60_000, b, "three-ds@example.com");
    await housekeeping();
    expect((await invoicesOf(b, site)).map((i) => i.status)).toEqual(["paid", "paid"]);
  });
});
