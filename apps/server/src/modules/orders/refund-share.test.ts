/**
 * Refunds of an order with discounts: the owner API suggests what some units give back (their
 * price less their pro-rata share of the order's discounts, plus their share of the tax), and a
 * refund that names lines returns exactly that, unit by unit, never a unit twice.
 */
import { refundSuggestion } from "@atelier/commerce";
import { beforeAll, describe, expect, it } from "vitest";
import { owner, ownerSends, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { orderBody } from "../../../test/fixtures.js";
import { Shopper, product, setStock } from "../checkout/test-helpers.js";
import { MSG_BAD_LINES } from "./routes.js";
import { MSG_REFUND_TOO_MANY } from "./operations.js";

useDemoApp();
const db = () => t.database.db;

interface Line {
  id: string;
  quantity: number;
  unitPriceCents: number;
  discountCents: number;
  refundedQuantity: number;
}
interface OwnerOrder {
  id: string;
  taxCents: number;
  shippingCents: number;
  discountCents: number;
  grandTotalCents: number;
  refundedCents: number;
  lines: Line[];
}

let order: OwnerOrder;
const orderUrl = () => `${siteApi}/orders/${order.id}`;
const read = async () => (await owner.request({ url: orderUrl() })).json().order as OwnerOrder;

beforeAll(async () => {
  const mug = await product(db(), "stoneware-mug");
  const vase = await product(db(), "hand-thrown-vase");
  await setStock(db(), mug.variants[0]!.id, 50);
  await setStock(db(), vase.variants[0]!.id, 50);
  const made = await ownerSends("POST", "/discounts", {
    name: "15% off everything",
    kind: "order_percentage",
    value: 15,
  });
  expect(made.statusCode, made.body).toBe(201);
  const s = await new Shopper(t).start();
  await s.add(mug.itemId, mug.variants[0]!.sku, 3);
  await s.add(vase.itemId, vase.variants[0]!.sku, 1);
  const placed = await s.order(orderBody({ email: "refunds@example.com" }));
  expect(placed.statusCode, placed.body).toBe(201);
  order = (await owner.request({ url: `${siteApi}/orders/${placed.json().order.id}` })).json().order;
});

describe("refunds of a discounted order", () => {
  it("keeps each line's share of the discounts, adding up to the order's", () => {
    expect(order.discountCents).toBeGreaterThan(0);
    expect(order.lines.reduce((n, l) => n + l.discountCents, 0)).toBe(order.discountCents);
    for (const l of order.lines) expect(l.discountCents).toBeGreaterThan(0);
  });

  it("suggests a unit's price less its share of the discounts, plus its share of the tax", async () => {
    const mugs = order.lines.find((l) => l.quantity === 3)!;
    const res = await owner.request({ url: `${orderUrl()}/refund-suggestion?lines=${mugs.id}:1` });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const rule = refundSuggestion(
      { taxCents: order.taxCents, shippingCents: order.shippingCents, lines: order.lines },
      [{ lineId: mugs.id, quantity: 1 }],
    );
    expect(body).toEqual(rule);
    expect(body.lines[0].discountCents).toBe(Math.round(mugs.discountCents / 3));
    expect(body.amountCents).toBe(mugs.unitPriceCents - body.lines[0].discountCents + body.lines[0].taxCents);
    expect(body.amountCents).toBeLessThan(mugs.unitPriceCents + body.lines[0].taxCents);
  });

  it("refunds named units pro rata, one at a time adding up to the whole line, never twice", async () => {
    const mugs = order.lines.find((l) => l.quantity === 3)!;
    const whole = (await owner.request({ url: `${orderUrl()}/refund-suggestion?lines=${mugs.id}:3` })).json()
      .amountCents as number;
    let refunded = 0;
    for (let i = 0; i < 3; i++) {
      const next = (await owner.request({ url: `${orderUrl()}/refund-suggestion?lines=${mugs.id}:1` })).json()
        .amountCents as number;
      const res = await ownerSends("POST", `/orders/${order.id}/refund`, {
        refundLines: [{ lineId: mugs.id, quantity: 1 }],
      });
      expect(res.statusCode, res.body).toBe(200);
      refunded += next;
      expect(res.json().order.refundedCents).toBe(refunded);
    }
    expect(refunded).toBe(whole);
    const after = await read();
    expect(after.lines.find((l) => l.id === mugs.id)!.refundedQuantity).toBe(3);
    expect(after.refundedCents).toBe(whole);

    // The line is refunded in full: another unit is refused, and nothing more goes back.
    const again = await ownerSends("POST", `/orders/${order.id}/refund`, {
      refundLines: [{ lineId: mugs.id, quantity: 1 }],
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe(MSG_REFUND_TOO_MANY);
    expect((await read()).refundedCents).toBe(whole);

    // The rest of the order (the vase, the shipping and its tax) is still refundable.
    const vase = order.lines.find((l) => l.quantity === 1)!;
    const rest = await ownerSends("POST", `/orders/${order.id}/refund`, {
      refundLines: [{ lineId: vase.id, quantity: 1 }],
    });
    expect(rest.statusCode, rest.body).toBe(200);
    const final = await read();
    expect(order.grandTotalCents - final.refundedCents).toBeGreaterThanOrEqual(order.shippingCents);
  });

  it("answers bad lines with a 400 in plain words", async () => {
    for (const lines of ["nonsense", "abc:-1", "abc:x", ":2"]) {
      const res = await owner.request({
        url: `${orderUrl()}/refund-suggestion?lines=${encodeURIComponent(lines)}`,
      });
      expect(res.statusCode, lines).toBe(400);
      expect(res.json().error.message).toBe(MSG_BAD_LINES);
    }
    const unknown = await owner.request({ url: `${orderUrl()}/refund-suggestion?lines=nosuchline:1` });
    expect(unknown.statusCode).toBe(400);
    const missing = await owner.request({ url: `${orderUrl()}/refund-suggestion` });
    expect(missing.statusCode).toBe(400);
  });
});
