import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Browser, type TestApp, demoApp } from "../../../test/harness.js";
import { orderBody } from "../../../test/fixtures.js";
import {
  abandonedCheckouts,
  coupons,
  events,
  jobs,
  outboundEmails,
  recoveryUnsubscribes,
} from "../../db/schema.js";
import { Shopper, product, setStock } from "../checkout/test-helpers.js";
import { runDueJobs, scheduleRecurringJobs } from "../jobs/service.js";
import { SCAN_JOB, reminderPlan, scanAbandonedCheckouts } from "./service.js";
import { DEFAULT_SETTINGS, type RecoverySettings } from "./settings.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
/** The injected clock: real time moved forward by `offset`. */
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const HOUR = 3_600_000;
const db = () => t.database.db;
const base = () => `/api/owner/sites/${siteId}/abandoned-checkouts`;
let candle: Awaited<ReturnType<typeof product>>;
let emailCount = 0;

beforeAll(async () => {
  ({ t, owner, siteId } = await demoApp({ clock }));
  candle = await product(db(), "beeswax-candle");
}, 180_000);
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await db().delete(abandonedCheckouts);
  await db().delete(recoveryUnsubscribes);
  await setStock(db(), candle.variants[0]!.id, 50);
});

const settings = (over: Partial<RecoverySettings> = {}): RecoverySettings => ({
  ...structuredClone(DEFAULT_SETTINGS),
  enabled: true,
  ...over,
});

async function saveSettings(s: RecoverySettings) {
  const res = await owner.request({ method: "PUT", url: `${base()}/settings`, payload: s });
  expect(res.statusCode, res.body).toBe(200);
}

/** A shopper with a candle in the cart who typed their email at checkout and left. */
async function leaver(email: string, firstName = "Ada") {
  const s = await new Shopper(t).start();
  await s.add(candle.itemId, candle.variants[0]!.sku, 2);
  const res = await s.request({
    method: "PUT",
    url: "/api/commerce/checkout/contact",
    payload: { email, firstName },
  });
  expect(res.statusCode, res.body).toBe(200);
  return s;
}

/** The recovery reminders in the outbox for an address (not its order confirmation). */
const mailTo = async (to: string) =>
  (
    await db()
      .select()
      .from(outboundEmails)
      .where(eq(outboundEmails.toAddress, to))
      .orderBy(outboundEmails.createdAt)
  ).filter((m) => m.textBody.includes("/cart/recover/"));
const rowOf = async (email: string) =>
  (await db().select().from(abandonedCheckouts).where(eq(abandonedCheckouts.email, email)))[0]!;
const at = (ms: number) => {
  offset = ms;
};
const uniqueEmail = (name: string) => `${name}.${++emailCount}@example.com`;
const linkIn = (text: string, path: string) => {
  const m = new RegExp(`https?://[^\\s"<>]+${path}/[A-Za-z0-9._-]+`).exec(text);
  if (!m) throw new Error(`no ${path} link in ${text}`);
  return new URL(m[0]!).pathname;
};

describe("settings", () => {
  it("answers the defaults, saves valid settings and refuses a bad value saving nothing", async () => {
    const first = await owner.request({ method: "GET", url: `${base()}/settings` });
    expect(first.statusCode).toBe(200);
    expect(first.json().reminders.map((r: { delayMinutes: number }) => r.delayMinutes)).toEqual([
      60, 1440, 4320,
    ]);

    const bad = settings();
    bad.reminders[1]!.subject = " ";
    const res = await owner.request({ method: "PUT", url: `${base()}/settings`, payload: bad });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields["reminders.1.subject"]).toBe("Enter a subject.");
    const after = await owner.request({ method: "GET", url: `${base()}/settings` });
    expect(after.json().enabled).toBe(false);

    await saveSettings(settings({ abandonedAfterMinutes: 1 }));
    const saved = await owner.request({ method: "GET", url: `${base()}/settings` });
    expect(saved.json()).toMatchObject({ enabled: true, abandonedAfterMinutes: 1 });
  });
});

describe("the checkout's email", () => {
  it("refuses a malformed address and a visitor without a cart", async () => {
    const s = await new Shopper(t).start();
    const none = await s.request({
      method: "PUT",
      url: "/api/commerce/checkout/contact",
      payload: { email: "ada@example.com" },
    });
    expect(none.statusCode).toBe(400);
    await s.add(candle.itemId, candle.variants[0]!.sku);
    const bad = await s.request({
      method: "PUT",
      url: "/api/commerce/checkout/contact",
      payload: { email: "ada@" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe("Please enter a valid email address.");
    expect(await db().select().from(abandonedCheckouts)).toHaveLength(0);
  });
});

describe("a signed-in shopper's email", () => {
  it("is the checkout's contact without typing it, and nobody else's is taken", async () => {
    const s = await new Shopper(t).start();
    const email = uniqueEmail("member");
    const signedUp = await s.request({
      method: "POST",
      url: "/api/site-users/account",
      payload: { email, password: "s3cret-pass", firstName: "Mary", lastName: "Somerville" },
    });
    expect(signedUp.statusCode, signedUp.body).toBe(201);
    await s.add(candle.itemId, candle.variants[0]!.sku);
    const res = await s.request({ method: "PUT", url: "/api/commerce/checkout/contact", payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email, firstName: "Mary" });
    expect(await rowOf(email)).toMatchObject({ email, firstName: "Mary" });

    // A visitor who is not signed in and sends no email is told to enter one; nothing is saved.
    const anonymous = await new Shopper(t).start();
    await anonymous.add(candle.itemId, candle.variants[0]!.sku);
    const none = await anonymous.request({
      method: "PUT",
      url: "/api/commerce/checkout/contact",
      payload: {},
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe("Please enter a valid email address.");
    expect(await db().select().from(abandonedCheckouts)).toHaveLength(1);
  });
});

describe("reminders", () => {
  beforeAll(async () => {
    await saveSettings(settings());
  });

  it("marks a quiet checkout abandoned, sends each reminder once and restores the cart in another browser", async () => {
    at(0);
    const email = uniqueEmail("ada");
    const first = await leaver(email);
    const cart = (await first.request({ method: "GET", url: "/api/commerce/shopping-cart" })).json();

    at(30 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    expect((await rowOf(email)).abandonedAt).toBeNull();

    at(61 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    const row = await rowOf(email);
    expect(row.abandonedAt).not.toBeNull();
    const [event] = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, "checkout.abandoned"), eq(events.entityId, row.id)));
    expect(event).toBeDefined();
    // Not yet: the first reminder is an hour after abandonment.
    expect(await mailTo(email)).toHaveLength(0);

    at(2 * HOUR + 2 * 60_000);
    await Promise.all([scanAbandonedCheckouts(t.app.deps), scanAbandonedCheckouts(t.app.deps)]);
    await scanAbandonedCheckouts(t.app.deps);
    const mails = await mailTo(email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe("You left something in your cart");
    expect(mail.textBody).toContain("Hi Ada,");
    expect(mail.textBody).toContain(`2 × ${candle.title}`);
    expect(mail.htmlBody).toContain(candle.title);
    expect(mail.htmlBody).toMatch(/<img [^>]*src="[^"]+"/);
    const headers = mail.headers as Record<string, string>;
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost\/cart\/unsubscribe\/.+>$/);

    // A stranger's guess, or a tampered link, restores nothing.
    const restore = linkIn(mail.textBody, "/cart/recover");
    const stranger = await new Shopper(t).start();
    const forged = await stranger.request({ method: "GET", url: `${restore.slice(0, -2)}xx` });
    expect(forged.statusCode).toBe(404);

    // The link in a fresh browser brings the cart back.
    const other = await new Shopper(t).start();
    const opened = await other.request({ method: "GET", url: restore });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe("/cart");
    const restored = (await other.request({ method: "GET", url: "/api/commerce/shopping-cart" })).json();
    expect(restored.id).toBe(cart.id);
    expect(restored.entries).toHaveLength(1);

    const list = (await owner.request({ method: "GET", url: base() })).json();
    const listed = list.checkouts.find((c: { email: string }) => c.email === email);
    expect(listed).toMatchObject({ status: "reminded", remindersSent: 1, subtotal: cart.subtotalCents });

    // The purchase: the checkout is recovered, counted, and gets no more reminders.
    const placed = await other.order(orderBody({ email }));
    expect(placed.statusCode, placed.body).toBe(201);
    await runDueJobs(t.app.deps, "test");
    const done = (await owner.request({ method: "GET", url: `${base()}?status=recovered` })).json();
    const recovered = done.checkouts.find((c: { email: string }) => c.email === email);
    expect(recovered.status).toBe("recovered");
    expect(recovered.recoveredCents).toBe(placed.json().order.grandTotalCents);
    expect(done.recoveredRevenue30d).toBeGreaterThanOrEqual(placed.json().order.grandTotalCents);
    at(100 * HOUR);
    await scanAbandonedCheckouts(t.app.deps);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it("stops on one-click unsubscribe (a POST without cookie or crumb)", async () => {
    at(0);
    const email = uniqueEmail("grace");
    await leaver(email);
    at(2 * HOUR + 2 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    const [mail] = await mailTo(email);
    const link = linkIn(mail!.textBody, "/cart/unsubscribe");
    const res = await t.app.inject({
      method: "POST",
      url: link,
      headers: { host: "localhost", "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(res.statusCode).toBe(200);
    expect((await rowOf(email)).stopped).toBe("unsubscribed");
    at(30 * HOUR);
    await scanAbandonedCheckouts(t.app.deps);
    expect(await mailTo(email)).toHaveLength(1);
    const list = (await owner.request({ method: "GET", url: `${base()}?status=unsubscribed` })).json();
    expect(list.checkouts.map((c: { email: string }) => c.email)).toContain(email);
  });

  it("stops when every item is sold out", async () => {
    at(0);
    const email = uniqueEmail("sold");
    await leaver(email);
    await setStock(db(), candle.variants[0]!.id, 0);
    at(2 * HOUR + 2 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    expect(await mailTo(email)).toHaveLength(0);
    expect((await rowOf(email)).stopped).toBe("sold_out");
  });

  it("stops when the shopper orders with that email from another cart", async () => {
    at(0);
    const email = uniqueEmail("elsewhere");
    await leaver(email);
    const buyer = await new Shopper(t).start();
    await buyer.add(candle.itemId, candle.variants[0]!.sku);
    expect((await buyer.order(orderBody({ email }))).statusCode).toBe(201);
    at(2 * HOUR + 2 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    expect(await mailTo(email)).toHaveLength(0);
  });

  it("stops the checkout of an order's email however the order spells it", async () => {
    at(0);
    const email = uniqueEmail("spelled");
    await leaver(email);
    const buyer = await new Shopper(t).start();
    await buyer.add(candle.itemId, candle.variants[0]!.sku);
    const res = await buyer.order(orderBody({ email: email.toUpperCase() }));
    expect(res.statusCode, res.body).toBe(201);
    await runDueJobs(t.app.deps, "test");
    expect(await rowOf(email)).toMatchObject({ stopped: "ordered", nextCheckAt: null, orderId: null });
  });

  it("sends a reminder now from the dashboard, with a single-use code made for the cart", async () => {
    const s = settings();
    s.reminders[0]!.discount = { kind: "percentage", value: 15 };
    await saveSettings(s);
    at(0);
    const email = uniqueEmail("now");
    await leaver(email);
    at(61 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    const row = await rowOf(email);
    const res = await owner.request({ method: "POST", url: `${base()}/${row.id}/remind` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().checkout).toMatchObject({ remindersSent: 1, status: "reminded" });
    const [mail] = await mailTo(email);
    const code = /code (BACK-[A-Z0-9]+)/.exec(mail!.textBody)?.[1];
    expect(code).toBeDefined();
    const [coupon] = await db().select().from(coupons).where(eq(coupons.code, code!));
    expect(coupon).toMatchObject({ kind: "percent", amount: 15, usageLimit: 1 });

    // The link in a fresh browser brings the cart back with the code applied at checkout.
    const other = await new Shopper(t).start();
    const opened = await other.request({ method: "GET", url: linkIn(mail!.textBody, "/cart/recover") });
    expect(opened.statusCode).toBe(302);
    const restored = (await other.request({ method: "GET", url: "/api/commerce/shopping-cart" })).json();
    expect(restored.coupons).toEqual([code]);
    const quoted = await other.quote();
    expect(quoted.json().cart.savedCouponCodes).toEqual([code]);
    const withCode = (await other.quote(`couponCodes=${code}`)).json().cart;
    expect(withCode.validCoupons.map((c: { code: string }) => c.code)).toEqual([code]);
    expect(withCode.discountCents).toBe(Math.round(restored.subtotalCents * 0.15));
    // Opening the link twice keeps one copy of the code.
    await other.request({ method: "GET", url: linkIn(mail!.textBody, "/cart/recover") });
    expect((await other.quote()).json().cart.savedCouponCodes).toEqual([code]);
    // The scan does not send the first reminder again when it falls due.
    at(2 * HOUR + 2 * 60_000);
    await scanAbandonedCheckouts(t.app.deps);
    expect(await mailTo(email)).toHaveLength(1);
    await saveSettings(settings());
  });
});

describe("the scan on the jobs queue", () => {
  it("keeps exactly one scan job pending, however many processes schedule it", async () => {
    at(0);
    await db().delete(jobs).where(eq(jobs.kind, SCAN_JOB));
    await Promise.all([1, 2, 3].map(() => scheduleRecurringJobs(db(), t.app.deps.clock)));
    const pending = await db().select().from(jobs).where(eq(jobs.kind, SCAN_JOB));
    expect(pending).toHaveLength(1);
    const email = uniqueEmail("queued");
    await leaver(email);
    at(2 * HOUR + 2 * 60_000);
    await runDueJobs(t.app.deps, "test");
    expect(await mailTo(email)).toHaveLength(1);
    await scheduleRecurringJobs(db(), t.app.deps.clock);
    const next = await db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, SCAN_JOB)));
    const waiting = next.filter((j) => !j.doneAt);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.runAt.getTime()).toBeLessThanOrEqual(clock.now().getTime() + 60_000);
  });
});

describe("reminderPlan", () => {
  const r = (delayMinutes: number, enabled = true) => ({
    ...DEFAULT_SETTINGS.reminders[0]!,
    delayMinutes,
    enabled,
  });
  const t0 = new Date("2026-11-28T10:00:00Z");
  const after = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
  it.each([
    { now: 30, next: 0, send: undefined, nextAt: 60 },
    { now: 60, next: 0, send: 0, nextAt: 1440 },
    { now: 5000, next: 0, send: 2, nextAt: undefined },
    { now: 1500, next: 1, send: 1, nextAt: 4320 },
  ])("at $now minutes from reminder $next sends $send", ({ now, next, send, nextAt }) => {
    const plan = reminderPlan([r(60), r(1440), r(4320)], next, t0, after(now));
    expect(plan.send).toBe(send);
    expect(plan.nextAt?.getTime()).toBe(nextAt === undefined ? undefined : after(nextAt).getTime());
  });
  it("skips reminders that are turned off", () => {
    expect(reminderPlan([r(60, false), r(0)], 0, t0, after(1)).send).toBe(1);
  });
});
