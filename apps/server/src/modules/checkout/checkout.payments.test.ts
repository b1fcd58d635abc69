/** Paying for orders: idempotency, races for the last units, 3-D Secure, a crash mid-charge, card testing. */
import { MSG_NOT_ENOUGH_STOCK } from "@atelier/commerce";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { analyticsEvents, orders, payments } from "../../db/schema.js";
import { rowsOf } from "../../db/rows.js";
import { PaymentEvents } from "../payments/provider.js";
import { TEST_MSG } from "../payments/test-provider.js";
import { ORDER_ATTEMPT_LIMIT } from "./routes.js";
import { reconcilePendingPayments } from "./service.js";
import { Shopper, product, setStock, stockOf } from "./test-helpers.js";
import { card, orderBody } from "../../../test/fixtures.js";
import { demoSite, eventually } from "../../../test/harness.js";
import { chargesFor, clock, db, ledger, t, useCheckoutApp } from "./checkout.test-helper.js";

useCheckoutApp();

describe("idempotency", () => {
  it("never makes two orders or two charges for one idempotencyKey, in turn or at once", async () => {
    const shirt = await product(db(), "everyday-linen-shirt");
    const variant = shirt.variants.find((v) => v.qtyInStock >= 2)!;
    const before = await stockOf(db(), variant.id);
    const s = await new Shopper(t).start();
    await s.add(shirt.itemId, variant.sku, 1);
    const body = orderBody();
    const results = await Promise.all(Array.from({ length: 6 }, () => s.order(body)));
    const ids = new Set(results.filter((r) => r.statusCode === 201).map((r) => r.json().order.id));
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
    expect(ids.size).toBe(1);
    const later = await s.order(body);
    expect(later.statusCode).toBe(201);
    expect(later.json().order.id).toBe([...ids][0]);
    expect(await chargesFor(body.idempotencyKey)).toHaveLength(1);
    expect(
      await db().select().from(orders).where(eq(orders.idempotencyKey, body.idempotencyKey)),
    ).toHaveLength(1);
    expect(await stockOf(db(), variant.id)).toBe(before - 1);
  });
});

// Two connections at once: PGlite has one.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "a replay settling beside the checkout's own settlement",
  () => {
    it("locks the order before the payment, as the one-statement settlement does, so neither deadlocks", async () => {
      const shirt = await product(db(), "everyday-linen-shirt");
      const variant = shirt.variants.find((v) => v.qtyInStock >= 1)!;
      const s = await new Shopper(t).start();
      await s.add(shirt.itemId, variant.sku, 1);
      const body = orderBody();
      const placed = await s.order(body);
      expect(placed.statusCode).toBe(201);
      const orderId = placed.json().order.id as string;
      // As it was between the charge and its settlement.
      await db().update(orders).set({ status: "pending" }).where(eq(orders.id, orderId));
      const [payment] = await db()
        .update(payments)
        .set({ status: "pending" })
        .where(and(eq(payments.orderId, orderId), eq(payments.provider, "test")))
        .returning();

      // The checkout's own settlement holds the order's lock and has yet to take the payment's.
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const holding = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = db().transaction(async (tx) => {
        await tx.execute(sql`select id from orders where id = ${orderId} for update`);
        locked();
        await released;
      });
      await holding;
      const replay = s.order(body);
      let paymentFree: boolean;
      try {
        const waiting = async () =>
          rowsOf<{ n: number }>(
            await db().execute(
              sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
            ),
          )[0]!.n;
        await eventually(waiting).toBe(1);
        // The replay waits for the order without holding the payment, which the settlement takes next.
        paymentFree = await db()
          .transaction((tx) =>
            tx.execute(sql`select id from payments where id = ${payment!.id} for update nowait`),
          )
          .then(
            () => true,
            () => false,
          );
      } finally {
        release();
        await holder;
      }
      expect(paymentFree).toBe(true);
      const answer = await replay;
      expect(answer.statusCode).toBe(201);
      expect(answer.json().order).toMatchObject({ id: orderId, status: "paid" });
    });
  },
);

describe("buyers racing for the last units", () => {
  it("sells exactly the stock: the others get the SPEC's message and are not charged", async () => {
    const planter = await product(db(), "ceramic-planter");
    const variant = planter.variants[0]!;
    await setStock(db(), variant.id, 3);
    const buyers = await Promise.all(Array.from({ length: 10 }, () => new Shopper(t).start()));
    for (const b of buyers) await b.add(planter.itemId, variant.sku, 1);
    const bodies = buyers.map(() => orderBody());
    const results = await Promise.all(buyers.map((b, i) => b.order(bodies[i]!)));
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode !== 201);
    expect(won).toHaveLength(3);
    expect(lost).toHaveLength(7);
    for (const r of lost) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error.message).toBe(MSG_NOT_ENOUGH_STOCK);
    }
    expect(await stockOf(db(), variant.id)).toBe(0);
    const charged = await Promise.all(bodies.map((b) => chargesFor(b.idempotencyKey)));
    expect(charged.filter((c) => c.length > 0)).toHaveLength(3);
  });
});

describe("3-D Secure", () => {
  async function challengeFor(cardOrToken: ReturnType<typeof card> | { method: "token"; token: string }) {
    const s = await new Shopper(t).start();
    const pot = await product(db(), "pour-over-set");
    const variant = pot.variants[0]!;
    await setStock(db(), variant.id, 5);
    await s.add(pot.itemId, variant.sku, 1);
    const body = orderBody({ payment: cardOrToken });
    const res = await s.order(body);
    return { s, body, res, variant };
  }

  it("walks through a challenge that succeeds, with the test-mode events", async () => {
    const { s, body, res, variant } = await challengeFor(card("4000 0027 6000 3184"));
    expect(res.statusCode).toBe(202);
    const json = res.json();
    expect(json).toMatchObject({
      requiresAction: true,
      idempotencyKey: body.idempotencyKey,
      events: [PaymentEvents.EXTRA_AUTH_REQUIRED_TEST_MODE],
      nextAction: { type: "test_challenge", cardLast4: "3184", currency: "USD" },
    });
    expect(json.nextAction.amountCents).toBe(json.order.grandTotalCents);
    // The stock is held while the buyer authenticates.
    expect(await stockOf(db(), variant.id)).toBe(4);
    const challenge = await s.request({
      method: "GET",
      url: `/api/commerce/payments/test-challenges/${json.nextAction.challengeId}`,
    });
    expect(challenge.json()).toMatchObject({ status: "requires_action", cardLast4: "3184" });
    // Sending the order again before authenticating answers the same challenge.
    const waiting = await s.order(body);
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json().events).toEqual([]);
    const done = await s.answerChallenge(json.nextAction.challengeId, "succeed");
    expect(done.json()).toEqual({ status: "succeeded" });
    const after = await s.order(body);
    expect(after.statusCode).toBe(201);
    expect(after.json().events).toEqual([PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE]);
    expect(after.json().order).toMatchObject({ id: json.order.id, status: "paid" });
    expect(await stockOf(db(), variant.id)).toBe(4);
    const recorded = await db()
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.objectType, "payment"));
    expect(recorded.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        PaymentEvents.EXTRA_AUTH_REQUIRED_TEST_MODE,
        PaymentEvents.EXTRA_AUTH_SUCCESS_TEST_MODE,
      ]),
    );
  });

  it("declines when the challenge fails and gives the stock back", async () => {
    const { s, body, res, variant } = await challengeFor(card("4000002760003184"));
    const id = res.json().nextAction.challengeId;
    await s.answerChallenge(id, "fail");
    const after = await s.order(body);
    expect(after.statusCode).toBe(402);
    expect(after.json()).toMatchObject({
      error: { message: TEST_MSG.AUTHENTICATION_FAILED },
      events: [PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE],
    });
    expect(await stockOf(db(), variant.id)).toBe(5);
    const bad = await s.answerChallenge("tchl_x", "fail");
    expect(bad.statusCode).toBe(404);
  });

  it("records the Apple Pay required event for an Apple Pay payment that needs authentication", async () => {
    const { res } = await challengeFor({ method: "token", token: "tok_applepay_threeDSecureRequired" });
    expect(res.statusCode).toBe(202);
    expect(res.json().events).toEqual([PaymentEvents.APPLE_PAY_EXTRA_AUTH_REQUIRED_TEST_MODE]);
  });
});

describe("a crash between the charge and the commit", () => {
  it("is settled by the reconciler from the provider's record, once", async () => {
    const vase = await product(db(), "hand-thrown-vase");
    await setStock(db(), vase.variants[0]!.id, 4);
    const s = await new Shopper(t).start();
    await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    // A 3-D Secure order leaves a payment in our records that the provider then charges
    // without us hearing of it: what a process killed after the charge leaves behind.
    const body = orderBody({ payment: card("4000002760003184") });
    const res = await s.order(body);
    expect(res.statusCode).toBe(202);
    await ledger.completeChallenge(res.json().nextAction.challengeId, "succeed");
    const site = await demoSite(db());
    clock.offsetMs = 60_000;
    try {
      const deps = { db: db(), clock, config: t.config, payments: ledger };
      expect((await reconcilePendingPayments(deps, "http://localhost")).settled).toBeGreaterThanOrEqual(1);
      expect((await reconcilePendingPayments(deps, "http://localhost")).settled).toBe(0);
    } finally {
      clock.offsetMs = 0;
    }
    const [order] = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.websiteId, site.id), eq(orders.idempotencyKey, body.idempotencyKey)));
    expect(order!.status).toBe("paid");
    const again = await s.order(body);
    expect(again.statusCode).toBe(201);
    expect(again.json().order.id).toBe(order!.id);
    expect(await chargesFor(body.idempotencyKey)).toHaveLength(1);
    expect(await stockOf(db(), vase.variants[0]!.id)).toBe(3);
  });
});

describe("card testing", () => {
  it("limits order attempts per address with the SPEC's 429 text", async () => {
    const s = await new Shopper(t).start();
    const statuses: number[] = [];
    for (let i = 0; i < ORDER_ATTEMPT_LIMIT.max + 1; i++) {
      statuses.push((await s.order(orderBody({ payment: card("4000 0000 0000 0002") }))).statusCode);
    }
    expect(statuses.slice(0, ORDER_ATTEMPT_LIMIT.max).every((c) => c === 400)).toBe(true);
    const last = await s.order(orderBody());
    expect(last.statusCode).toBe(429);
    expect(last.json().error.message).toBe("Please try again in a few seconds.");
    expect(last.headers["retry-after"]).toBeDefined();
  });
});
