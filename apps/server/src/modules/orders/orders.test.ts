import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, giftCards, memberships, websites } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { hashPassword } from "../../lib/passwords.js";
import { type TestApp, createTestApp, signIn, demoSite } from "../../../test/harness.js";
import { Shopper, emailsTo, product, setStock, stockOf } from "../checkout/test-helpers.js";
import { address, orderBody } from "../../../test/fixtures.js";
import type { TestPaymentProvider } from "../payments/test-provider.js";
import {
  MSG_ALREADY_FULFILLED,
  MSG_CANNOT_CANCEL_FULFILLED,
  MSG_REFUND_NOTHING,
  MSG_REFUND_TOO_MUCH,
  MSG_RESTOCK_TOO_MANY,
} from "./service.js";
import { MSG_REFUND_ZERO, MSG_TRACKING_URL } from "./operations.js";

let t: TestApp;
let owner: Shopper;
let siteId: string;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  siteId = (await demoSite(t.database.db)).id;
  owner = await new Shopper(t).start();
  const login = await signIn(owner);
  expect(login.statusCode).toBe(200);
});
afterAll(() => t.close());
const db = () => t.database.db;

async function buy(slug: string, quantity: number, over: Record<string, unknown> = {}, variantIndex = 0) {
  const p = await product(db(), slug);
  const v = p.variants[variantIndex]!;
  const s = await new Shopper(t).start();
  await s.add(p.itemId, v.sku, quantity);
  const res = await s.order(orderBody(over));
  expect(res.statusCode).toBe(201);
  return { order: res.json().order, variant: v };
}

const api = (path: string) => `/api/owner/sites/${siteId}/orders${path}`;
/** The owner's action on an order (fulfil, cancel, refund); answers the response. */
const act = (orderId: string, action: string, payload: object = {}) =>
  owner.request({ method: "POST", url: api(`/${orderId}/${action}`), payload });

describe("the owner's orders", () => {
  it("lists orders newest first and searches them by number, email, name and product", async () => {
    const a = await buy("wool-beanie", 1, { email: "first@example.com" });
    const b = await buy("everyday-tote", 1, {
      email: "second@example.com",
      shippingAddress: address({ firstName: "Grace", lastName: "Hopper" }),
    });
    const list = await owner.request({ method: "GET", url: api("") });
    expect(list.statusCode).toBe(200);
    const { orders, total } = list.json();
    expect(total).toBeGreaterThanOrEqual(2);
    expect(orders[0].orderNumber).toBeGreaterThan(orders[1].orderNumber);
    const search = async (q: string) =>
      (await owner.request({ method: "GET", url: api(`?q=${encodeURIComponent(q)}`) }))
        .json()
        .orders.map((o: { id: string }) => o.id);
    expect(await search("second@")).toEqual([b.order.id]);
    expect(await search(`#${a.order.orderNumber}`)).toEqual([a.order.id]);
    expect(await search("grace hop")).toEqual([b.order.id]);
    expect(await search("beanie")).toContain(a.order.id);
    expect(await search("nobody-at-all")).toEqual([]);
    const paid = await owner.request({ method: "GET", url: api("?status=paid&limit=1") });
    expect(paid.json().orders).toHaveLength(1);
    const bad = await owner.request({ method: "GET", url: api("?status=lost") });
    expect(bad.statusCode).toBe(400);
  });

  it("shows an order's detail with its payments", async () => {
    const { order } = await buy("field-notes-journal", 2);
    const res = await owner.request({ method: "GET", url: api(`/${order.id}`) });
    expect(res.statusCode).toBe(200);
    const detail = res.json();
    expect(detail.order).toMatchObject({
      id: order.id,
      status: "paid",
      lines: [expect.objectContaining({ quantity: 2 })],
    });
    expect(detail.payments).toEqual([
      expect.objectContaining({ provider: "test", status: "succeeded", amountCents: order.grandTotalCents }),
    ]);
    expect(detail.refunds).toEqual([]);
    expect((await owner.request({ method: "GET", url: api("/000000000000000000000000") })).statusCode).toBe(
      404,
    );
  });

  it("fulfils with tracking and emails the buyer", async () => {
    const { order } = await buy("stoneware-mug", 1, { email: "ship-me@example.com" }, 1);
    const bad = await act(order.id, "fulfil", { trackingUrl: "javascript:alert(1)" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MSG_TRACKING_URL);
    const res = await act(order.id, "fulfil", {
      carrier: "USPS",
      trackingNumber: "9400 1000 0000 0000 0000 00",
      trackingUrl: "https://tools.usps.com/go/TrackConfirmAction?tLabels=94001",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({
      status: "fulfilled",
      fulfillmentStatus: "fulfilled",
      trackingNumber: "9400 1000 0000 0000 0000 00",
      fulfillment: { carrier: "USPS" },
    });
    const mail = (await emailsTo(db(), "ship-me@example.com")).find((m) => m.subject.includes("on its way"))!;
    expect(mail.textBody).toContain("Tracking number: 9400 1000 0000 0000 0000 00");
    const again = await act(order.id, "fulfil");
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG_ALREADY_FULFILLED);
    const cancel = await act(order.id, "cancel");
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().error.message).toBe(MSG_CANNOT_CANCEL_FULFILLED);
  });

  it("refunds in part with a restock, then the rest, never more than paid", async () => {
    const napkins = await product(db(), "cotton-napkins");
    await setStock(db(), napkins.variants[0]!.id, 9);
    const { order, variant } = await buy("cotton-napkins", 3);
    expect(await stockOf(db(), variant.id)).toBe(6);
    const line = order.lines[0];
    const tooMany = await act(order.id, "refund", {
      amountCents: 100,
      restockLines: [{ lineId: line.id, quantity: 4 }],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe(MSG_RESTOCK_TOO_MANY);
    // Bad amounts are refused with the field named; nothing is refunded.
    const zero = await act(order.id, "refund", { amountCents: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().error).toEqual({
      code: "bad_request",
      message: MSG_REFUND_ZERO,
      fields: { amountCents: MSG_REFUND_ZERO },
    });
    for (const payload of [
      { amountCents: -5 },
      { amountCents: "lots" },
      { restockLines: [{ lineId: "x" }] },
    ]) {
      const bad = await act(order.id, "refund", payload);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().error.fields ?? {})).not.toHaveLength(0);
    }
    const part = await act(order.id, "refund", {
      amountCents: 2400,
      restockLines: [{ lineId: line.id, quantity: 1 }],
      reason: "One set arrived damaged",
    });
    expect(part.statusCode).toBe(200);
    expect(part.json().order).toMatchObject({
      refundedCents: 2400,
      paymentStatus: "partially_refunded",
      status: "partially_refunded",
    });
    expect(part.json().order.lines[0].restockedQuantity).toBe(1);
    expect(part.json().refunds).toEqual([
      expect.objectContaining({ amountCents: 2400, restocked: true, reason: "One set arrived damaged" }),
    ]);
    expect(await stockOf(db(), variant.id)).toBe(7);
    const over = await act(order.id, "refund", { amountCents: order.grandTotalCents });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.message).toBe(MSG_REFUND_TOO_MUCH);
    const rest = await act(order.id, "refund", { restock: true });
    expect(rest.statusCode).toBe(200);
    expect(rest.json().order).toMatchObject({
      refundedCents: order.grandTotalCents,
      status: "refunded",
      paymentStatus: "refunded",
    });
    expect(await stockOf(db(), variant.id)).toBe(9);
    const none = await act(order.id, "refund");
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(MSG_REFUND_NOTHING);
    // The provider refunded exactly what the order was charged.
    const ledger = t.app.payments as TestPaymentProvider;
    const charge = (await ledger.charges()).find((c) => c.id === rest.json().payments[0].providerRef)!;
    expect(charge.refundedCents).toBe(order.grandTotalCents);
  });

  it("cancels an order: refunds it, restocks it and tells the buyer", async () => {
    const { order, variant } = await buy("linen-work-apron", 1, { email: "cancel-me@example.com" }, 1);
    const before = await stockOf(db(), variant.id);
    const res = await act(order.id, "cancel", { reason: "Out of linen" });
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({
      status: "cancelled",
      paymentStatus: "cancelled",
      refundedCents: order.grandTotalCents,
    });
    expect(await stockOf(db(), variant.id)).toBe(before + 1);
    const mail = (await emailsTo(db(), "cancel-me@example.com")).find((m) =>
      m.subject.includes("was cancelled"),
    )!;
    expect(mail.textBody).toContain("Reason: Out of linen");
    const again = await act(order.id, "cancel");
    expect(again.statusCode).toBe(409);
  });

  it("gives gift cards back what they paid when an order paid by gift card is refunded", async () => {
    const gift = await product(db(), "atelier-gift-card");
    const s = await new Shopper(t).start();
    await s.add(gift.itemId, gift.variants[0]!.sku, 1);
    await s.order({
      ...orderBody({ email: "gc@example.com", shippingAddress: undefined }),
      billingAddress: address(),
    });
    const code = /code: ([A-Z0-9-]{19})/.exec(
      (await emailsTo(db(), "gc@example.com")).find((m) => m.subject.includes("gift card"))!.textBody,
    )![1]!;
    const { order } = await buy("beeswax-candle", 1, { couponCodes: [code] });
    expect(order.giftCardCents).toBe(2500);
    const balance = async () =>
      (
        await db()
          .select()
          .from(giftCards)
          .where(eq(giftCards.codeLast4, code.slice(-4)))
      )[0]!.balanceCents;
    expect(await balance()).toBe(0);
    const res = await act(order.id, "refund");
    expect(res.statusCode).toBe(200);
    expect(await balance()).toBe(2500);
  });

  it("needs an owner of the site, and a crumb to change anything", async () => {
    const { order } = await buy("wool-beanie", 1);
    const stranger = await new Shopper(t).start();
    expect((await stranger.request({ method: "GET", url: api("") })).statusCode).toBe(401);
    // Another owner, with a site of their own, cannot see or touch this one.
    const otherId = newId();
    await db()
      .insert(accounts)
      .values({
        id: otherId,
        email: "other@atelier.test",
        passwordHash: await hashPassword("other-owner"),
        displayName: "Other",
      });
    const otherSite = newId();
    const [demo] = await db().select().from(websites).where(eq(websites.id, siteId));
    await db()
      .insert(websites)
      .values({ ...demo!, id: otherSite, identifier: "other", isDefault: false });
    await db().insert(memberships).values({ accountId: otherId, websiteId: otherSite, owner: true });
    const other = await new Shopper(t).start();
    await signIn(other, { email: "other@atelier.test", password: "other-owner" });
    expect((await other.request({ method: "GET", url: api("") })).statusCode).toBe(404);
    expect((await other.request({ method: "GET", url: api(`/${order.id}`) })).statusCode).toBe(404);
    expect(
      (await other.request({ method: "POST", url: api(`/${order.id}/refund`), payload: {} })).statusCode,
    ).toBe(404);
    const theirs = await other.request({
      method: "GET",
      url: `/api/owner/sites/${otherSite}/orders/${order.id}`,
    });
    expect(theirs.statusCode).toBe(404);
    const noCrumb = await owner.request({
      method: "POST",
      url: api(`/${order.id}/refund`),
      payload: {},
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
  });
});
