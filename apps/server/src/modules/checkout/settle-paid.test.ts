/**
 * A card order settled in one statement (settle-paid.ts) writes what the general path writes: the
 * same kinds of rows, with the same contents but for the order's own ids and times; and when the
 * order or payment moved on first, it writes nothing.
 */
import { ProductType } from "@atelier/commerce";
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { card, orderBody } from "../../../test/fixtures.js";
import { analyticsEvents, events, jobs, orders, outboundEmails, payments } from "../../db/schema.js";
import { orderRow } from "../orders/service.js";
import { db, t, useCheckoutApp } from "./checkout.test-helper.js";
import { settlePaidAtOnce, settlesAtOnce } from "./settle-paid.js";
import { Shopper, product, setStock } from "./test-helpers.js";

useCheckoutApp();

/** A shopper with one pour-over set in the cart, and the order's body, paid with `payment`. */
async function shopperWithOne(payment = card("4242 4242 4242 4242")) {
  const s = await new Shopper(t).start();
  const pot = await product(db(), "pour-over-set");
  await setStock(db(), pot.variants[0]!.id, 20);
  await s.add(pot.itemId, pot.variants[0]!.sku, 1);
  return { s, body: orderBody({ payment }) };
}

/** The shopper's order placed. */
async function orderOne(payment?: ReturnType<typeof card>) {
  const { s, body } = await shopperWithOne(payment);
  return { s, body, res: await s.order(body) };
}

/** What settling wrote for an order: its row, payment, event, jobs, email and analytics event. */
async function writesOf(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  const [payment] = await db()
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.provider, "test")));
  const created = await db()
    .select()
    .from(events)
    .where(and(eq(events.entityId, orderId), eq(events.type, "order.created")));
  const consumerJobs = (await db().select().from(jobs)).filter(
    (j) => created.length && Number(j.payload.eventId) === created[0]!.id,
  );
  const emails = await db()
    .select()
    .from(outboundEmails)
    .where(eq(outboundEmails.subject, `Your order #${order!.orderNumber} from Atelier Demo`));
  const placed = (
    await db().select().from(analyticsEvents).where(eq(analyticsEvents.action, "order-placed"))
  ).filter((e) => (e.data.order as { id?: string }).id === orderId);
  return { order: order!, payment: payment!, created, consumerJobs, emails, placed };
}

/** The contents that do not depend on which order it was. */
function shapeOf(w: Awaited<ReturnType<typeof writesOf>>) {
  const { order, payment, created, consumerJobs, emails, placed } = w;
  const number = String(order.orderNumber);
  const plain = (text: string) =>
    text
      .replaceAll(order.id, "<order>")
      .replaceAll(`#${number}`, "#<n>")
      .replace(/token=[\w-]+/g, "token=<t>");
  return {
    status: order.status,
    details: Object.keys(order.details as object).sort(),
    payment: { status: payment.status, lastError: payment.lastError, ref: Boolean(payment.providerRef) },
    events: created.map((e) => ({ payload: e.payload, actor: e.actorType })),
    jobs: consumerJobs.map((j) => j.kind).sort(),
    emails: emails.map((e) => ({ to: e.toAddress, status: e.status, text: plain(e.textBody) })),
    analytics: placed.map((e) => Object.keys(e.data.order as object).sort()),
  };
}

describe("settling a paid order in one statement", () => {
  it("writes the paid order, its event and jobs, email and analytics as the general path does", async () => {
    const shopper = await shopperWithOne();
    // One statement reserves the order (reserve.ts reserveAtOnce), one more settles it, outside any transaction.
    const transactions = vi.spyOn(db(), "transaction");
    const fast = { res: await shopper.s.order(shopper.body) };
    expect(transactions).toHaveBeenCalledTimes(0);
    transactions.mockRestore();
    expect(fast.res.statusCode).toBe(201);
    const fastWrites = await writesOf(fast.res.json().order.id);
    expect(fastWrites.order.status).toBe("paid");
    expect(fastWrites.payment.status).toBe("succeeded");
    expect(fastWrites.created).toHaveLength(1);
    expect(fastWrites.consumerJobs.length).toBeGreaterThan(0);
    expect(fastWrites.emails).toHaveLength(1);
    expect(fastWrites.placed).toHaveLength(1);
    expect(fastWrites.emails[0]!.htmlBody).toContain(`#${fastWrites.order.orderNumber}`);

    // A 3-D Secure payment is settled by the general path once the buyer has authenticated.
    const general = await orderOne(card("4000 0027 6000 3184"));
    expect(general.res.statusCode).toBe(202);
    await general.s.answerChallenge(general.res.json().nextAction.challengeId, "succeed");
    const done = await general.s.order(general.body);
    expect(done.statusCode).toBe(201);
    const generalWrites = await writesOf(done.json().order.id);
    const expected = shapeOf(generalWrites);
    // The card differs (4242 against 3184) in the email's text.
    const fastShape = shapeOf(fastWrites);
    fastShape.emails = fastShape.emails.map((e) => ({ ...e, text: e.text.replaceAll("4242", "3184") }));
    expect(fastShape).toEqual(expected);
    // Both answers carry the paid order.
    expect(fast.res.json().order).toMatchObject({ status: "paid" });
  });

  it("writes nothing when the order is no longer pending, and leaves it to the general path", async () => {
    const { res } = await orderOne();
    const orderId = res.json().order.id as string;
    const before = await writesOf(orderId);
    const order = (await orderRow(db(), orderId))!;
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
    // The order as the checkout inserted it, still pending in the caller's eyes; the database's is paid.
    const stale = { ...order, status: "pending" };
    await db().update(payments).set({ status: "pending" }).where(eq(payments.id, payment!.id));
    const answer = await settlePaidAtOnce(
      {
        db: db(),
        config: t.config,
        clock: { now: () => new Date() },
        payments: t.app.payments,
      } as unknown as Parameters<typeof settlePaidAtOnce>[0],
      { site: (await db().query.websites.findFirst())!, origin: "http://localhost" } as never,
      payment!,
      { status: "succeeded", providerRef: "tch_again", cardLast4: "4242" } as never,
      stale,
      [],
    );
    expect(answer).toBeUndefined();
    const after = await writesOf(orderId);
    expect(after.payment.status).toBe("pending");
    expect(after.payment.providerRef).toBe(before.payment.providerRef);
    expect(after.emails).toHaveLength(1);
    expect(after.created).toHaveLength(1);
    expect(after.placed).toHaveLength(1);
  });

  it("is taken only for a pending payment whose order issues and starts nothing", () => {
    const line = (productType: ProductType, details: Record<string, unknown> = {}) =>
      ({ productType, details }) as never;
    const shirt = line(ProductType.PHYSICAL);
    expect(settlesAtOnce({ status: "pending" }, [shirt, line(ProductType.DIGITAL)])).toBe(true);
    expect(settlesAtOnce({ status: "requires_action" }, [shirt])).toBe(false);
    expect(settlesAtOnce({ status: "pending" }, [shirt, line(ProductType.GIFT_CARD)])).toBe(false);
    const plan = line(ProductType.SERVICE, { isSubscription: true });
    expect(settlesAtOnce({ status: "pending" }, [plan])).toBe(false);
  });
});
