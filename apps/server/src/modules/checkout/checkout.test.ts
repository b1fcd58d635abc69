import {
  MSG_COUPON_UNKNOWN,
  MSG_NOT_ENOUGH_STOCK,
  MSG_NO_SHIPPING_TO_COUNTRY,
  MSG_UNKNOWN_SHIPPING_OPTION,
  MSG_VARIANT_UNAVAILABLE,
} from "@atelier/commerce";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsEvents, carts, coupons, giftCards, orders, payments } from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { PaymentEvents } from "../payments/provider.js";
import { TEST_MSG, type TestPaymentProvider } from "../payments/test-provider.js";
import { MSG_GIFT_CARD_EMPTY } from "./pricing.js";
import { ORDER_ATTEMPT_LIMIT } from "./routes.js";
import { MSG_CART_EMPTY, MSG_EMAIL_INVALID, MSG_FIX_ADDRESS, reconcilePendingPayments } from "./service.js";
import {
  Shopper,
  address,
  card,
  demoSite,
  emailsTo,
  newKey,
  orderBody,
  product,
  setStock,
  stockOf,
} from "./test-helpers.js";

let t: TestApp;
let ledger: TestPaymentProvider;
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
  ledger = t.app.payments as TestPaymentProvider;
});
afterAll(() => t.close());

const db = () => t.database.db;
const chargesFor = async (key: string) => {
  const [p] = await db().select().from(payments).where(eq(payments.idempotencyKey, key));
  return p ? (await ledger.charges()).filter((c) => c.idempotencyKey === p.id) : [];
};

describe("the checkout quote", () => {
  it("offers the store's shipping options for the location, cheapest first, with tax and totals", async () => {
    const vase = await product(db(), "hand-thrown-vase");
    const s = await new Shopper(t).start();
    await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    const q = (await s.quote("country=US&state=NY")).json();
    expect(q.payment).toEqual({ provider: "test", testMode: true });
    expect(q.cart.entries).toHaveLength(1);
    expect(
      q.cart.shippingOptions.map((o: { name: string; costCents: number }) => [o.name, o.costCents]),
    ).toEqual([
      ["Standard (3–5 days)", 800],
      ["Express (1–2 days)", 2500],
    ]);
    expect(q.cart.selectedShippingOption.name).toBe("Standard (3–5 days)");
    expect(q.cart.applicableTaxRules).toEqual([
      expect.objectContaining({ name: "New York sales tax", ratePercent: "8.88", taxCents: 444 }),
    ]);
    expect(q.cart).toMatchObject({
      subtotalCents: 4200,
      shippingCostCents: 800,
      taxCents: 444,
      grandTotalCents: 5444,
    });
    expect(q.cart.shippingLocation).toEqual({ country: "US", state: "NY" });
    expect(q.shippingCountries).toContain("CA");
  });

  it("prices international shipping by weight and refuses countries it does not ship to", async () => {
    const vase = await product(db(), "hand-thrown-vase");
    const s = await new Shopper(t).start();
    await s.add(vase.itemId, vase.variants[0]!.sku, 1);
    const ca = (await s.quote("country=CA&state=ON")).json().cart;
    // 1.2 kg: base $15 + 2 started kilograms at $9; GST 5% on goods and shipping.
    expect(ca.shippingOptions).toEqual([
      expect.objectContaining({ name: "International (by weight)", costCents: 3300 }),
    ]);
    expect(ca.taxCents).toBe(375);
    const fr = (await s.quote("country=BR")).json().cart;
    expect(fr.shippingError).toBe(MSG_NO_SHIPPING_TO_COUNTRY);
  });

  it("ships free above $150 and explains coupons it cannot take", async () => {
    const board = await product(db(), "walnut-serving-board");
    const s = await new Shopper(t).start();
    await s.add(board.itemId, board.variants[1]!.sku, 3);
    const q = (await s.quote("country=US&state=CA&couponCodes=welcome10,NOPE,FREESHIP")).json().cart;
    expect(q.subtotalCents).toBe(3 * 7000);
    expect(q.discountCents).toBe(2100);
    expect(q.validCoupons.map((c: { code: string }) => c.code)).toEqual(["WELCOME10", "FREESHIP"]);
    expect(q.invalidCoupons).toEqual([{ code: "NOPE", reason: MSG_COUPON_UNKNOWN }]);
    expect(q.shippingOptions[0]).toMatchObject({ name: "Free shipping on orders over $150", costCents: 0 });
    expect(q.shippingCostCents).toBe(0);
    // California does not tax shipping: 7.25% of 18900.
    expect(q.taxCents).toBe(1370);
  });

  it("answers an empty cart for a visitor without one", async () => {
    const s = await new Shopper(t).start();
    const q = (await s.quote()).json();
    expect(q.cart.entries).toEqual([]);
    expect(q.cart.grandTotalCents).toBe(0);
  });
});

describe("POST /api/commerce/orders", () => {
  it("takes the order with the test card: stock, cart, payment, email, analytics", async () => {
    const apron = await product(db(), "linen-work-apron");
    const variant = apron.variants[0]!;
    const before = await stockOf(db(), variant.id);
    const s = await new Shopper(t).start();
    await s.add(apron.itemId, variant.sku, 2);
    const body = orderBody({ email: "buyer1@example.com", couponCodes: ["WELCOME10"] });
    const res = await s.order(body);
    expect(res.statusCode).toBe(201);
    const { order, confirmationUrl, events } = res.json();
    expect(events).toEqual([]);
    expect(order).toMatchObject({
      status: "paid",
      paymentStatus: "paid",
      fulfillmentStatus: "unfulfilled",
      subtotalCents: 13600,
      discountCents: 1360,
      shippingCents: 800,
      cardLast4: "4242",
      testMode: true,
      coupons: [{ code: "WELCOME10", kind: "percent", discountCents: 1360 }],
    });
    expect(order.grandTotalCents).toBe(13600 - 1360 + 800 + Math.round((13600 - 1360 + 800) * 0.0888));
    expect(order.orderNumber).toBeGreaterThanOrEqual(1001);
    expect(order.analytics).toMatchObject({
      id: order.id,
      testMode: true,
      grandTotal: { value: (order.grandTotalCents / 100).toFixed(2), currency: "USD" },
      items: [
        {
          productName: "Linen Work Apron",
          sku: variant.sku,
          unitPrice: { value: "68.00", currency: "USD" },
          quantity: 2,
        },
      ],
    });
    expect(confirmationUrl).toMatch(/\/checkout\/order-confirmed\?orderId=[a-f0-9]{24}&token=/);
    expect(await stockOf(db(), variant.id)).toBe(before - 2);
    // The cart is bought: the cookie is cleared and the cart row marked purchased.
    expect(s.browser.cookies.has("atelier_cart")).toBe(false);
    const [cart] = await db().select().from(carts).where(eq(carts.orderId, order.id));
    expect(cart?.isPurchased).toBe(true);
    expect(await chargesFor(body.idempotencyKey)).toHaveLength(1);
    const [coupon] = await db().select().from(coupons).where(eq(coupons.code, "WELCOME10"));
    expect(coupon!.timesUsed).toBeGreaterThanOrEqual(1);
    const [mail] = await emailsTo(db(), "buyer1@example.com");
    expect(mail!.subject).toBe(`Your order #${order.orderNumber} from Atelier Demo`);
    expect(mail!.textBody).toContain("2 × Linen Work Apron (Natural)  $136.00");
    expect(mail!.textBody).toContain("Discount (WELCOME10): -$13.60");
    expect(mail!.textBody).toContain("Subtotal: $136.00");
    expect(mail!.textBody).toContain("Shipping (Standard (3–5 days)): $8.00");
    expect(mail!.textBody).toContain(`Tax: $${(order.taxCents / 100).toFixed(2)}`);
    expect(mail!.textBody).toContain("Shipping to:\nAda Lovelace\n12 Mercer Street");
    expect(mail!.textBody).toContain("Billing address:\nAda Lovelace\n12 Mercer Street");
    expect(mail!.htmlBody).toContain("2 × Linen Work Apron (Natural)");
    expect(mail!.textBody).toContain(`Total: $${(order.grandTotalCents / 100).toFixed(2)}`);
    const [event] = await db()
      .select()
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.action, "order-placed"), eq(analyticsEvents.objectType, "order")));
    expect(event).toBeDefined();

    // The buyer's confirmation link shows the order; a wrong token shows nothing.
    const url = new URL(confirmationUrl);
    const view = await s.request({
      method: "GET",
      url: `/api/commerce/orders/${order.id}?token=${url.searchParams.get("token")}`,
    });
    expect(view.statusCode).toBe(200);
    expect(view.json().order.orderNumber).toBe(order.orderNumber);
    expect(view.json().analytics.id).toBe(order.id);
    const wrong = await s.request({ method: "GET", url: `/api/commerce/orders/${order.id}?token=nope` });
    expect(wrong.statusCode).toBe(404);
  });

  it("answers a declined card with 402 and the provider's message, and gives everything back", async () => {
    const mug = await product(db(), "stoneware-mug");
    const variant = mug.variants.find((v) => v.qtyInStock > 0)!;
    const before = await stockOf(db(), variant.id);
    const s = await new Shopper(t).start();
    await s.add(mug.itemId, variant.sku, 1);
    const body = orderBody({ payment: card("4000 0000 0000 0002"), couponCodes: ["WELCOME10"] });
    const [couponBefore] = await db().select().from(coupons).where(eq(coupons.code, "WELCOME10"));
    const res = await s.order(body);
    expect(res.statusCode).toBe(402);
    expect(res.json().error).toMatchObject({ code: "payment_declined", message: TEST_MSG.DECLINED });
    expect(await stockOf(db(), variant.id)).toBe(before);
    const [couponAfter] = await db().select().from(coupons).where(eq(coupons.code, "WELCOME10"));
    expect(couponAfter!.timesUsed).toBe(couponBefore!.timesUsed);
    expect(await db().select().from(orders).where(eq(orders.idempotencyKey, body.idempotencyKey))).toEqual(
      [],
    );
    // The same key answers the same decline; nothing more is charged.
    const again = await s.order(body);
    expect(again.statusCode).toBe(402);
    expect(again.json().error.message).toBe(TEST_MSG.DECLINED);
    // The cart is still there: another card, another key, and it goes through.
    const ok = await s.order({ ...body, payment: card(), idempotencyKey: newKey() });
    expect(ok.statusCode).toBe(201);
    expect(await stockOf(db(), variant.id)).toBe(before - 1);
  });

  it("refuses card details that cannot be a card with 400 and fields, before taking anything", async () => {
    const s = await new Shopper(t).start();
    const candle = await product(db(), "beeswax-candle");
    const variant = candle.variants[0]!;
    await s.add(candle.itemId, variant.sku, 1);
    const before = await stockOf(db(), variant.id);
    const chargesBefore = (await ledger.charges()).length;
    for (const [payment, field, message] of [
      [card("4242 4242 4242 4241"), "payment.cardNumber", TEST_MSG.INCORRECT_NUMBER],
      [card("abcd"), "payment.cardNumber", TEST_MSG.INCORRECT_NUMBER],
      [card("4242"), "payment.cardNumber", TEST_MSG.INCORRECT_NUMBER],
      [{ ...card(), expMonth: 13 }, "payment.expMonth", TEST_MSG.INVALID_MONTH],
      [{ ...card(), expMonth: 0 }, "payment.expMonth", TEST_MSG.INVALID_MONTH],
      [{ ...card(), expYear: 123 }, "payment.expYear", TEST_MSG.INVALID_YEAR],
      [{ ...card(), cvc: "1" }, "payment.cvc", TEST_MSG.INVALID_CVC],
      [{ ...card(), cvc: "12a" }, "payment.cvc", TEST_MSG.INVALID_CVC],
    ] as const) {
      const res = await s.order(orderBody({ payment }));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toEqual({ code: "bad_request", message, fields: { [field]: message } });
    }
    // Several problems at once: every field is named, the message points at them.
    const many = await s.order(
      orderBody({
        shippingAddress: address({ city: "" }),
        payment: { ...card("1234"), expMonth: 99, cvc: "" },
      }),
    );
    expect(many.statusCode).toBe(400);
    expect(many.json().error).toEqual({
      code: "bad_request",
      message: MSG_FIX_ADDRESS,
      fields: {
        "shippingAddress.city": "Required",
        "payment.cardNumber": TEST_MSG.INCORRECT_NUMBER,
        "payment.expMonth": TEST_MSG.INVALID_MONTH,
        "payment.cvc": TEST_MSG.INVALID_CVC,
      },
    });
    expect(await stockOf(db(), variant.id)).toBe(before);
    expect((await ledger.charges()).length).toBe(chargesBefore);
  });

  it("answers what only the provider can tell (expired, not a test card) with 402 and its message", async () => {
    const s = await new Shopper(t).start();
    const candle = await product(db(), "beeswax-candle");
    await s.add(candle.itemId, candle.variants[0]!.sku, 1);
    for (const [payment, message] of [
      [{ ...card(), expYear: 2020 }, TEST_MSG.EXPIRED],
      [{ ...card(), expYear: 20 }, TEST_MSG.EXPIRED],
      [card("5555 5555 5555 4444"), TEST_MSG.NOT_A_TEST_CARD],
    ] as const) {
      const res = await s.order(orderBody({ payment }));
      expect(res.statusCode).toBe(402);
      expect(res.json().error.message).toBe(message);
    }
  });

  it("answers every bad input with a 4xx and a clear message", async () => {
    const s = await new Shopper(t).start();
    const empty = await s.order(orderBody());
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(MSG_CART_EMPTY);

    const candle = await product(db(), "beeswax-candle");
    await s.add(candle.itemId, candle.variants[0]!.sku, 1);
    const badEmail = await s.order(orderBody({ email: "not-an-email" }));
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error).toMatchObject({
      message: MSG_EMAIL_INVALID,
      fields: { email: MSG_EMAIL_INVALID },
    });

    const noCity = await s.order(orderBody({ shippingAddress: address({ city: " ", postalCode: "" }) }));
    expect(noCity.statusCode).toBe(400);
    expect(noCity.json().error).toMatchObject({
      message: MSG_FIX_ADDRESS,
      fields: { "shippingAddress.city": "Required", "shippingAddress.postalCode": "Required" },
    });
    const noAddress = await s.order(orderBody({ shippingAddress: undefined }));
    expect(noAddress.json().error.fields).toEqual({ shippingAddress: "Required" });
    for (const country of ["U1", "XX", "UK", "USA"]) {
      const badCountry = await s.order(orderBody({ shippingAddress: address({ country }) }));
      expect(badCountry.statusCode, country).toBe(400);
      expect(badCountry.json().error.fields, country).toEqual({
        "shippingAddress.country": "Please choose a country.",
      });
    }
    const badBilling = await s.order(orderBody({ billingAddress: address({ country: "ZZ" }) }));
    expect(badBilling.json().error.fields).toEqual({ "billingAddress.country": "Please choose a country." });

    const brazil = await s.order(orderBody({ shippingAddress: address({ country: "BR", state: "" }) }));
    expect(brazil.statusCode).toBe(400);
    expect(brazil.json().error.message).toBe(MSG_NO_SHIPPING_TO_COUNTRY);
    const option = await s.order(orderBody({ shippingOptionId: "000000000000000000000000" }));
    expect(option.json().error.message).toBe(MSG_UNKNOWN_SHIPPING_OPTION);
    const coupon = await s.order(orderBody({ couponCodes: ["BOGUS"] }));
    expect(coupon.statusCode).toBe(400);
    expect(coupon.json().error).toMatchObject({
      message: MSG_COUPON_UNKNOWN,
      fields: { couponCodes: MSG_COUPON_UNKNOWN },
    });

    for (const payload of [
      { ...orderBody(), idempotencyKey: "short" },
      { ...orderBody(), payment: { method: "cash" } },
      { ...orderBody(), extra: true },
      { ...orderBody(), payment: { ...card(), expMonth: "soon" } },
    ]) {
      const res = await s.order(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe("invalid_request");
    }
    const noCrumb = await s.request({
      method: "POST",
      url: "/api/commerce/orders",
      payload: orderBody(),
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
    expect(noCrumb.json()).toMatchObject({ error: { message: CRUMB_EXPIRED }, crumbFail: true });
    // Nothing of all that made an order or took stock.
    expect(await stockOf(db(), candle.variants[0]!.id)).toBe(candle.variants[0]!.qtyInStock);
  });

  it("refuses a cart whose product disappeared", async () => {
    const s = await new Shopper(t).start();
    const tote = await product(db(), "everyday-tote");
    await s.add(tote.itemId, tote.variants[0]!.sku, 1);
    const { productVariants } = await import("../../db/schema.js");
    await db()
      .update(productVariants)
      .set({ sku: "GONE-1" })
      .where(eq(productVariants.id, tote.variants[0]!.id));
    const { cartEntries } = await import("../../db/schema.js");
    await db()
      .update(cartEntries)
      .set({ variantId: null })
      .where(eq(cartEntries.variantId, tote.variants[0]!.id));
    const res = await s.order(orderBody());
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(MSG_VARIANT_UNAVAILABLE);
    await db()
      .update(productVariants)
      .set({ sku: tote.variants[0]!.sku })
      .where(eq(productVariants.id, tote.variants[0]!.id));
  });
});

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
    const done = await s.request({
      method: "POST",
      url: `/api/commerce/payments/test-challenges/${json.nextAction.challengeId}`,
      payload: { outcome: "succeed" },
    });
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
    await s.request({
      method: "POST",
      url: `/api/commerce/payments/test-challenges/${id}`,
      payload: { outcome: "fail" },
    });
    const after = await s.order(body);
    expect(after.statusCode).toBe(402);
    expect(after.json()).toMatchObject({
      error: { message: TEST_MSG.AUTHENTICATION_FAILED },
      events: [PaymentEvents.EXTRA_AUTH_FAILURE_TEST_MODE],
    });
    expect(await stockOf(db(), variant.id)).toBe(5);
    const bad = await s.request({
      method: "POST",
      url: "/api/commerce/payments/test-challenges/tchl_x",
      payload: { outcome: "fail" },
    });
    expect(bad.statusCode).toBe(404);
  });

  it("records the Apple Pay required event for an Apple Pay payment that needs authentication", async () => {
    const { res } = await challengeFor({ method: "token", token: "tok_applepay_threeDSecureRequired" });
    expect(res.statusCode).toBe(202);
    expect(res.json().events).toEqual([PaymentEvents.APPLE_PAY_EXTRA_AUTH_REQUIRED_TEST_MODE]);
  });
});

describe("gift cards", () => {
  it("issues a code to the recipient, which pays later orders and keeps its balance", async () => {
    const gift = await product(db(), "atelier-gift-card");
    const fifty = gift.variants.find((v) => v.priceCents === 5000)!;
    const giver = await new Shopper(t).start();
    await giver.add(gift.itemId, fifty.sku, 1, {
      recipientEmail: "friend@example.com",
      recipientName: "Grace",
      message: "Happy birthday!",
    });
    const res = await giver.order({
      ...orderBody({ email: "giver@example.com", shippingAddress: undefined }),
      billingAddress: address(),
    });
    expect(res.statusCode).toBe(201);
    // Gift cards are not taxed and need no shipping.
    expect(res.json().order).toMatchObject({ grandTotalCents: 5000, taxCents: 0, shippingCents: 0 });
    const [mail] = await emailsTo(db(), "friend@example.com");
    expect(mail!.subject).toBe("A $50.00 gift card for Atelier Demo");
    expect(mail!.textBody).toContain("Hello Grace,");
    expect(mail!.textBody).toContain("Happy birthday!");
    const code = /code: ([A-Z0-9-]{19})/.exec(mail!.textBody)![1]!;
    const receipt = (await emailsTo(db(), "giver@example.com"))[0]!;
    expect(receipt.textBody).toContain(`was sent to friend@example.com`);
    expect(receipt.textBody).not.toContain(code);

    // The friend buys a $42 vase ($54.44 with shipping and tax): $50 from the card, the rest by card.
    const vase = await product(db(), "hand-thrown-vase");
    await setStock(db(), vase.variants[0]!.id, 5);
    const friend = await new Shopper(t).start();
    await friend.add(vase.itemId, vase.variants[0]!.sku, 1);
    const q = (await friend.quote(`country=US&state=NY&couponCodes=${code.toLowerCase()}`)).json().cart;
    expect(q.appliedGiftCards).toEqual([{ last4: code.slice(-4), amountCents: 5000, balanceCents: 0 }]);
    expect(q.amountDueCents).toBe(444);
    const body = orderBody({ email: "friend@example.com", couponCodes: [code] });
    const paid = await friend.order(body);
    expect(paid.statusCode).toBe(201);
    expect(paid.json().order).toMatchObject({
      grandTotalCents: 5444,
      giftCardCents: 5000,
      chargedCents: 444,
    });
    expect((await chargesFor(body.idempotencyKey))[0]?.amountCents).toBe(444);
    const [cardRow] = await db()
      .select()
      .from(giftCards)
      .where(eq(giftCards.codeLast4, code.slice(-4)));
    expect(cardRow!.balanceCents).toBe(0);
    // An empty card is refused with its reason.
    const again = await new Shopper(t).start();
    await again.add(vase.itemId, vase.variants[0]!.sku, 1);
    const refused = (await again.quote(`country=US&state=NY&couponCodes=${code}`)).json().cart;
    expect(refused.invalidCoupons).toEqual([{ code, reason: MSG_GIFT_CARD_EMPTY }]);
  });

  it("pays a whole order with a gift card that keeps what is left", async () => {
    const gift = await product(db(), "atelier-gift-card");
    const hundred = gift.variants.find((v) => v.priceCents === 10000)!;
    const giver = await new Shopper(t).start();
    await giver.add(gift.itemId, hundred.sku, 1);
    await giver.order({
      ...orderBody({ email: "self@example.com", shippingAddress: undefined }),
      billingAddress: address(),
    });
    const mail = (await emailsTo(db(), "self@example.com")).find((m) => m.subject.includes("gift card"))!;
    const code = /code: ([A-Z0-9-]{19})/.exec(mail.textBody)![1]!;
    const book = await product(db(), "glaze-recipe-book");
    const s = await new Shopper(t).start();
    await s.add(book.itemId, book.variants[0]!.sku, 1);
    const body = {
      ...orderBody({ shippingAddress: undefined, couponCodes: [code] }),
      billingAddress: address({ state: "CA" }),
    };
    const res = await s.order(body);
    expect(res.statusCode).toBe(201);
    const order = res.json().order;
    expect(order).toMatchObject({
      status: "paid",
      grandTotalCents: 1800 + 131,
      giftCardCents: 1931,
      chargedCents: 0,
    });
    expect(await chargesFor(body.idempotencyKey)).toEqual([]);
    const [row] = await db()
      .select()
      .from(giftCards)
      .where(eq(giftCards.codeLast4, code.slice(-4)));
    expect(row!.balanceCents).toBe(10000 - 1931);
    // The same key again is the same order.
    expect((await s.order(body)).json().order.id).toBe(order.id);
  });
});

describe("digital products", () => {
  it("gives signed download links that expire", async () => {
    const book = await product(db(), "glaze-recipe-book");
    const s = await new Shopper(t).start();
    await s.add(book.itemId, book.variants[0]!.sku, 1);
    const res = await s.order({ ...orderBody({ shippingAddress: undefined }), billingAddress: address() });
    expect(res.statusCode).toBe(201);
    const { order, confirmationUrl } = res.json();
    expect(order.shippingCents).toBe(0);
    const token = new URL(confirmationUrl).searchParams.get("token");
    const view = (
      await s.request({ method: "GET", url: `/api/commerce/orders/${order.id}?token=${token}` })
    ).json();
    expect(view.downloads).toHaveLength(1);
    // Links last 72 hours from when they were given.
    expect(view.downloads[0].expiresOn - Date.now()).toBeGreaterThan(72 * 3600_000 - 60_000);
    expect(view.downloads[0].expiresOn - Date.now()).toBeLessThanOrEqual(72 * 3600_000);
    const link = new URL(view.downloads[0].url);
    expect(Number(link.searchParams.get("expires"))).toBe(view.downloads[0].expiresOn);
    const file = await s.request({ method: "GET", url: link.pathname + link.search });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-disposition"]).toBe('attachment; filename="glaze-recipe-book.txt"');
    expect(file.body).toContain("THE STUDIO GLAZE BOOK");
    const mail = (await emailsTo(db(), "ada@example.com")).find((m) =>
      m.subject.includes(`#${order.orderNumber}`),
    )!;
    expect(mail.textBody).toContain("/api/commerce/downloads/");

    const tampered = new URL(link);
    tampered.searchParams.set("expires", String(Number(link.searchParams.get("expires")) + 1000));
    expect((await s.request({ method: "GET", url: tampered.pathname + tampered.search })).statusCode).toBe(
      403,
    );
    clock.offsetMs = 71 * 3600_000;
    try {
      const stillGood = await s.request({ method: "GET", url: link.pathname + link.search });
      expect(stillGood.statusCode).toBe(200);
    } finally {
      clock.offsetMs = 0;
    }
    clock.offsetMs = 73 * 3600_000;
    try {
      const late = await s.request({ method: "GET", url: link.pathname + link.search });
      expect(late.statusCode).toBe(410);
      expect(late.json().error.message).toBe(
        "This download link has expired. Open your order page for a fresh one.",
      );
    } finally {
      clock.offsetMs = 0;
    }
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
