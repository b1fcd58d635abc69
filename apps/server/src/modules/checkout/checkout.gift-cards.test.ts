/** Gift cards and digital products bought through the checkout. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { giftCards } from "../../db/schema.js";
import { MSG_GIFT_CARD_EMPTY } from "./pricing.js";
import { Shopper, emailsTo, product, setStock } from "./test-helpers.js";
import { address, orderBody } from "../../../test/fixtures.js";
import { chargesFor, clock, db, t, useCheckoutApp } from "./checkout.test-helper.js";

useCheckoutApp();

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
