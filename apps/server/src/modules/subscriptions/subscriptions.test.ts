import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerSubscriptions, orders } from "../../db/schema.js";
import { type TestApp, createTestApp, signIn, demoSite } from "../../../test/harness.js";
import { Shopper, emailsTo, product } from "../checkout/test-helpers.js";
import { card, orderBody } from "../../../test/fixtures.js";
import { runDueJobs } from "../jobs/service.js";
import type { TestPaymentProvider } from "../payments/test-provider.js";
import { renewDueSubscriptions, renewSubscription } from "./service.js";

const DAY = 86_400_000;
let t: TestApp;
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
let owner: Shopper;
let siteId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
  siteId = (await demoSite(t.database.db)).id;
  owner = await new Shopper(t).start();
  await signIn(owner);
});
afterAll(() => t.close());
const db = () => t.database.db;
const deps = () => ({ db: db(), clock, config: t.config, payments: t.app.payments });

async function subscribe(email: string, payment = card()) {
  const coffee = await product(db(), "single-origin-coffee");
  const s = await new Shopper(t).start();
  const res = await s.request({
    method: "POST",
    url: "/api/3/commerce/cart/subscription",
    payload: { itemId: coffee.itemId, sku: coffee.variants[0]!.sku, qty: 2 },
  });
  expect(res.statusCode).toBe(200);
  const { cartToken } = res.json();
  const quote = (await s.quote(`cartToken=${encodeURIComponent(cartToken)}&country=US&state=NY`)).json();
  expect(quote.cart.hasSubscription).toBe(true);
  expect(quote.cart.entries[0].subscriptionText).toBe("$38.00 every month");
  const body = orderBody({ email, cartToken, payment });
  return { s, body, res: await s.order(body) };
}

describe("subscription checkout", () => {
  it("starts a subscription from the cartToken and confirms it (page 206)", async () => {
    const { s, res } = await subscribe("sub@example.com");
    expect(res.statusCode).toBe(201);
    const { order, subscriptionUrls } = res.json();
    expect(order.lines[0]).toMatchObject({ isSubscription: true, quantity: 2, unitPriceCents: 1900 });
    expect(subscriptionUrls).toHaveLength(1);
    const url = new URL(subscriptionUrls[0]);
    expect(url.pathname).toBe("/checkout/subscription-confirmed");
    const page = await s.request({ method: "GET", url: `${url.pathname}${url.search}&format=json` });
    expect(page.json().pageType).toBe(206);
    const view = await s.request({
      method: "GET",
      url: `/api/commerce/subscriptions/${url.searchParams.get("subscriptionId")}?token=${url.searchParams.get("token")}`,
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().subscription).toMatchObject({
      productName: "Single-Origin Coffee Beans",
      status: "active",
      billingPeriod: { value: 1, unit: "MONTH" },
      numBillingCycles: 0,
      cyclesBilled: 1,
      text: "$38.00 every month",
    });
    const wrong = await s.request({
      method: "GET",
      url: `/api/commerce/subscriptions/${url.searchParams.get("subscriptionId")}?token=x`,
    });
    expect(wrong.statusCode).toBe(404);
    const mail = (await emailsTo(db(), "sub@example.com"))[0]!;
    expect(mail.textBody).toContain("Subscription: Single-Origin Coffee Beans, $38.00 every month.");
  });

  it("charges each renewal as an order, from the job, once", async () => {
    const { res } = await subscribe("renew@example.com");
    const subId = new URL(res.json().subscriptionUrls[0]).searchParams.get("subscriptionId")!;
    const [before] = await db()
      .select()
      .from(customerSubscriptions)
      .where(eq(customerSubscriptions.id, subId));
    expect(before!.nextBillingAt!.getTime()).toBeGreaterThan(Date.now() + 27 * DAY);
    clock.offsetMs = 32 * DAY;
    try {
      const ran = await runDueJobs(t.app.deps, "test-worker");
      expect(ran.failed).toBe(0);
      // Running again (or the housekeeping sweep) charges nothing more.
      await runDueJobs(t.app.deps, "test-worker");
      await renewDueSubscriptions(deps());
    } finally {
      clock.offsetMs = 0;
    }
    const [after] = await db()
      .select()
      .from(customerSubscriptions)
      .where(eq(customerSubscriptions.id, subId));
    expect(after).toMatchObject({ cyclesBilled: 2, status: "active", failedAttempts: 0 });
    const renewals = (await db().select().from(orders).where(eq(orders.email, "renew@example.com"))).filter(
      (o) => o.idempotencyKey?.startsWith(`subscription:${subId}`),
    );
    expect(renewals).toHaveLength(1);
    expect(renewals[0]).toMatchObject({ status: "paid", subtotalCents: 3800, shippingCents: 800 });
    const ledger = t.app.payments as TestPaymentProvider;
    expect(
      (await ledger.charges()).filter((c) => c.idempotencyKey.startsWith(`subscription:${subId}`)),
    ).toHaveLength(1);
  });

  it("retries a failing renewal, then marks it past due", async () => {
    // The 3-D Secure card authenticates at checkout but cannot pay without its holder.
    const { s, body, res } = await subscribe("pastdue@example.com", card("4000 0027 6000 3184"));
    expect(res.statusCode).toBe(202);
    await s.answerChallenge(res.json().nextAction.challengeId, "succeed");
    const done = await s.order(body);
    expect(done.statusCode).toBe(201);
    const subId = new URL(done.json().subscriptionUrls[0]).searchParams.get("subscriptionId")!;
    const statuses: string[] = [];
    let offset = 31 * DAY;
    for (let i = 0; i < 4; i++) {
      clock.offsetMs = offset;
      statuses.push((await renewSubscription(deps(), subId)).status);
      offset += 6 * DAY;
    }
    clock.offsetMs = 0;
    expect(statuses).toEqual(["retry", "retry", "retry", "past_due"]);
    const [sub] = await db().select().from(customerSubscriptions).where(eq(customerSubscriptions.id, subId));
    expect(sub).toMatchObject({ status: "past_due", failedAttempts: 4, cyclesBilled: 1 });
    const mails = await emailsTo(db(), "pastdue@example.com");
    expect(mails.some((m) => m.subject === "Your Single-Origin Coffee Beans subscription is past due")).toBe(
      true,
    );
    const list = await owner.request({
      method: "GET",
      url: `/api/owner/sites/${siteId}/subscriptions?status=past_due`,
    });
    expect(list.json().subscriptions.map((x: { id: string; pastDue: boolean }) => [x.id, x.pastDue])).toEqual(
      [[subId, true]],
    );
  });

  it("stops after numBillingCycles, and the owner can cancel one", async () => {
    const { res } = await subscribe("cancel@example.com");
    const subId = new URL(res.json().subscriptionUrls[0]).searchParams.get("subscriptionId")!;
    const cancel = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${siteId}/subscriptions/${subId}/cancel`,
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json().subscription).toMatchObject({ status: "cancelled", nextBillingOn: null });
    expect(
      (
        await owner.request({
          method: "POST",
          url: `/api/owner/sites/${siteId}/subscriptions/${subId}/cancel`,
        })
      ).statusCode,
    ).toBe(409);

    const { res: limited } = await subscribe("limited@example.com");
    const limitedId = new URL(limited.json().subscriptionUrls[0]).searchParams.get("subscriptionId")!;
    await db()
      .update(customerSubscriptions)
      .set({ numBillingCycles: 2 })
      .where(eq(customerSubscriptions.id, limitedId));
    clock.offsetMs = 32 * DAY;
    await renewDueSubscriptions(deps());
    clock.offsetMs = 64 * DAY;
    await renewDueSubscriptions(deps());
    clock.offsetMs = 0;
    const [sub] = await db()
      .select()
      .from(customerSubscriptions)
      .where(eq(customerSubscriptions.id, limitedId));
    expect(sub).toMatchObject({ status: "completed", cyclesBilled: 2, nextBillingAt: null });
  });
});
