/** Stock of orders with several variants: taken all or nothing, given back in full, never oversold. */
import { MSG_NOT_ENOUGH_STOCK } from "@atelier/commerce";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events, orders } from "../../db/schema.js";
import { Shopper, product, setStock, stockOf } from "./test-helpers.js";
import { card, orderBody } from "../../../test/fixtures.js";
import { db, t, useCheckoutApp } from "./checkout.test-helper.js";

useCheckoutApp();

async function twoVariants(stockA: number, stockB: number) {
  const planter = await product(db(), "ceramic-planter");
  const vase = await product(db(), "hand-thrown-vase");
  const a = planter.variants[0]!;
  const b = vase.variants[0]!;
  await setStock(db(), a.id, stockA);
  await setStock(db(), b.id, stockB);
  const buyer = async () => {
    const s = await new Shopper(t).start();
    await s.add(planter.itemId, a.sku, 1);
    await s.add(vase.itemId, b.sku, 2);
    return s;
  };
  return { a, b, buyer };
}

const stockEvents = (variantIds: string[]) =>
  db()
    .select()
    .from(events)
    .where(and(eq(events.type, "inventory.updated"), inArray(events.entityId, variantIds)));

describe("stock of an order with several variants", () => {
  it("takes nothing when one variant has too few units", async () => {
    const { a, b, buyer } = await twoVariants(5, 5);
    const s = await buyer();
    // Someone else bought the vases since.
    await setStock(db(), b.id, 1);
    const before = (await stockEvents([a.id, b.id])).length;
    const res = await s.order(orderBody());
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(MSG_NOT_ENOUGH_STOCK);
    expect(await stockOf(db(), a.id)).toBe(5);
    expect(await stockOf(db(), b.id)).toBe(1);
    expect((await stockEvents([a.id, b.id])).length).toBe(before);
  });

  it("takes every variant's units with an event each, and gives them all back when the card is declined", async () => {
    const { a, b, buyer } = await twoVariants(5, 5);
    const before = (await stockEvents([a.id, b.id])).length;
    const paid = await (await buyer()).order(orderBody());
    expect(paid.statusCode).toBe(201);
    expect(await stockOf(db(), a.id)).toBe(4);
    expect(await stockOf(db(), b.id)).toBe(3);
    expect((await stockEvents([a.id, b.id])).length).toBe(before + 2);

    const declined = await (await buyer()).order(orderBody({ payment: card("4000 0000 0000 0002") }));
    expect(declined.statusCode).toBe(402);
    expect(await stockOf(db(), a.id)).toBe(4);
    expect(await stockOf(db(), b.id)).toBe(3);
  });

  it("sells exactly the stock of both variants to buyers ordering at once", async () => {
    const { a, b, buyer } = await twoVariants(10, 6);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyer()));
    const results = await Promise.all(buyers.map((s) => s.order(orderBody())));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.statusCode !== 201)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().error.message).toBe(MSG_NOT_ENOUGH_STOCK);
    }
    expect(await stockOf(db(), a.id)).toBe(7);
    expect(await stockOf(db(), b.id)).toBe(0);
  });
});

describe("order numbers", () => {
  it("numbers orders placed at once one after the other, with and without stock, and counts on from imported numbers", async () => {
    const planter = (await product(db(), "ceramic-planter")).variants[0]!;
    const vase = await product(db(), "hand-thrown-vase");
    await setStock(db(), planter.id, 100);
    // The vase's stock is not counted: its orders take a number without a stock change.
    await setStock(db(), vase.variants[0]!.id, 0, true);
    const planterItem = (await product(db(), "ceramic-planter")).itemId;
    const buyers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const s = await new Shopper(t).start();
        if (i % 2) await s.add(planterItem, planter.sku, 1);
        else await s.add(vase.itemId, vase.variants[0]!.sku, 1);
        return s;
      }),
    );
    const placed = await Promise.all(buyers.map((s) => s.order(orderBody())));
    expect(placed.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const numbers = placed.map((r) => r.json().order.orderNumber as number).sort((x, y) => x - y);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));

    // An order brought in with a higher number (an import): the next one counts on from it.
    const [last] = await db().select().from(orders).where(eq(orders.orderNumber, numbers[7]!));
    await db()
      .insert(orders)
      .values({
        ...last!,
        id: "0rd3r1mp0rt3d00000000001",
        orderNumber: numbers[7]! + 50,
        idempotencyKey: "imported",
      });
    const next = await new Shopper(t).start();
    await next.add(planterItem, planter.sku, 1);
    const after = await next.order(orderBody());
    expect(after.statusCode).toBe(201);
    expect(after.json().order.orderNumber).toBe(numbers[7]! + 51);
  });
});
