/** The checkout quote and taking orders: stock, cart, payment, email, analytics and every refusal. */
import {
  MSG_COUPON_UNKNOWN,
  MSG_NO_SHIPPING_TO_COUNTRY,
  MSG_UNKNOWN_SHIPPING_OPTION,
  MSG_VARIANT_UNAVAILABLE,
} from "@atelier/commerce";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { analyticsEvents, carts, coupons, orders } from "../../db/schema.js";
import { CRUMB_EXPIRED } from "../../http/crumb.js";
import { TEST_MSG } from "../payments/test-provider.js";
import { MSG_CART_EMPTY, MSG_EMAIL_INVALID, MSG_FIX_ADDRESS } from "./service.js";
import { Shopper, emailsTo, product, stockOf } from "./test-helpers.js";
import { address, card, newKey, orderBody } from "../../../test/fixtures.js";
import { chargesFor, db, ledger, t, useCheckoutApp } from "./checkout.test-helper.js";

useCheckoutApp();

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
    // The HTML part is the site's email layout: its lines, quantities and a link to the order.
    expect(mail!.htmlBody).toContain("Linen Work Apron (Natural)");
    expect(mail!.htmlBody).toContain("Quantity: 2");
    expect(mail!.htmlBody).toContain(">See your order</a>");
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
