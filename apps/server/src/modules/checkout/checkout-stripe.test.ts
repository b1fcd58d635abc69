/**
 * The whole checkout with the Stripe provider (STRIPE_SECRET_KEY), against a local fake of
 * Stripe's HTTP API on 127.0.0.1: a paid order, a decline with Stripe's message, 3-D Secure
 * through the issuer's redirect, idempotency, and a refund.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, signIn, demoSite } from "../../../test/harness.js";
import { FakeStripe } from "../payments/fake-stripe.js";
import { Shopper, product, setStock, stockOf } from "./test-helpers.js";
import { card, orderBody } from "../../../test/fixtures.js";

const fake = new FakeStripe("sk_test_fake_for_atelier");
let t: TestApp;
beforeAll(async () => {
  process.env.STRIPE_API_URL = await fake.start();
  t = await createTestApp({ seed: true, env: { STRIPE_SECRET_KEY: fake.secretKey } });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
  delete process.env.STRIPE_API_URL;
});
const db = () => t.database.db;

async function shopperWithVase() {
  const vase = await product(db(), "hand-thrown-vase");
  await setStock(db(), vase.variants[0]!.id, 10);
  const s = await new Shopper(t).start();
  await s.add(vase.itemId, vase.variants[0]!.sku, 1);
  return { s, variant: vase.variants[0]! };
}

describe("checkout with Stripe", () => {
  it("tells the checkout page it takes payments with Stripe in test mode", async () => {
    const s = await new Shopper(t).start();
    expect((await s.quote()).json().payment).toEqual({ provider: "stripe", testMode: true });
  });

  it("pays with a PaymentIntent, once per idempotencyKey", async () => {
    const { s } = await shopperWithVase();
    const body = orderBody();
    const [a, b] = await Promise.all([s.order(body), s.order(body)]);
    const ok = [a, b].filter((r) => r.statusCode === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const order = ok[0]!.json().order;
    expect(order).toMatchObject({ status: "paid", cardLast4: "4242" });
    expect((await s.order(body)).json().order.id).toBe(order.id);
    const intents = [...fake.intents.values()].filter((i) => i.metadata.orderId === order.id);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ status: "succeeded", amount: order.grandTotalCents, currency: "usd" });
  });

  it("answers a decline with 402 and Stripe's message, and keeps the stock", async () => {
    const { s, variant } = await shopperWithVase();
    const before = await stockOf(db(), variant.id);
    const res = await s.order(orderBody({ payment: card("4000 0000 0000 0002") }));
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({ code: "payment_declined", message: "Your card was declined." });
    expect(res.json().declineCode).toBe("card_declined");
    expect(await stockOf(db(), variant.id)).toBe(before);
  });

  it("sends 3-D Secure to the issuer's page and completes the order when the buyer comes back", async () => {
    const { s } = await shopperWithVase();
    const body = orderBody({ payment: card("4000 0027 6000 3184") });
    const res = await s.order(body);
    expect(res.statusCode).toBe(202);
    const { nextAction } = res.json();
    expect(nextAction.type).toBe("redirect");
    const back = await fetch(`${nextAction.url}/succeed`, { redirect: "manual" });
    const returnUrl = new URL(back.headers.get("location")!);
    expect(returnUrl.pathname).toBe("/checkout");
    expect(returnUrl.searchParams.get("paymentReturn")).toBe(body.idempotencyKey);
    const done = await s.order(body);
    expect(done.statusCode).toBe(201);
    expect(done.json().order.status).toBe("paid");
    // The Stripe provider is not the test provider: no test-mode challenge route.
    expect(
      (await s.request({ method: "GET", url: "/api/commerce/payments/test-challenges/tchl_x" })).statusCode,
    ).toBe(404);
  });

  it("refunds through Stripe", async () => {
    const { s } = await shopperWithVase();
    const order = (await s.order(orderBody())).json().order;
    const owner = await new Shopper(t).start();
    await signIn(owner);
    const site = await demoSite(db());
    const res = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${site.id}/orders/${order.id}/refund`,
      payload: { amountCents: 1000 },
    });
    expect(res.statusCode).toBe(200);
    expect([...fake.refunds.values()].some((r) => r.amount === 1000)).toBe(true);
  });
});
