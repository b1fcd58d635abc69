/**
 * An order paid by card alone is written by one statement outside any transaction (reserve.ts
 * reserveAtOnce): the cart is read without a lock, so a change made to it between the read and
 * the statement must stop the statement, which then writes nothing, and the order is taken from
 * the cart as it is now.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderBody } from "../../../test/fixtures.js";
import { beforeStatements } from "../../../test/statements.js";
import { carts, orderLines, orders, payments } from "../../db/schema.js";
import { db, t, useCheckoutApp } from "./checkout.test-helper.js";
import { Shopper, product, setStock, stockOf } from "./test-helpers.js";

useCheckoutApp();

async function planterAndVase() {
  const planter = await product(db(), "ceramic-planter");
  const vase = await product(db(), "hand-thrown-vase");
  const a = planter.variants[0]!;
  const b = vase.variants[0]!;
  await setStock(db(), a.id, 10);
  await setStock(db(), b.id, 10);
  return { planter, vase, a, b };
}

describe("an order taken in one statement", () => {
  it("reads its key and cart with its rate-limit count: three statements in all, no transaction", async () => {
    const { planter, a } = await planterAndVase();
    const s = await new Shopper(t).start();
    await s.add(planter.itemId, a.sku, 1);
    const transactions = vi.spyOn(db(), "transaction");
    const { result: res, names } = await beforeStatements(
      db(),
      "",
      async () => {},
      () => s.order(orderBody()),
    );
    expect(transactions).not.toHaveBeenCalled();
    transactions.mockRestore();
    expect(res.statusCode).toBe(201);
    const ours = names.filter((n) => /^(checkout|store_rate_limit|payment|cart)/.test(n));
    expect(ours).toEqual([
      "checkout_order_count_key_and_cart",
      "checkout_order_at_once_taking_stock",
      "checkout_settle_paid",
    ]);
  });

  it("is taken from the cart as it is when the cart changed after it was read", async () => {
    const { planter, vase, a, b } = await planterAndVase();
    const s = await new Shopper(t).start();
    await s.add(planter.itemId, a.sku, 1);
    let added = false;
    const { result: res, names } = await beforeStatements(
      db(),
      "checkout_order_at_once",
      async () => {
        if (added) return;
        added = true;
        // The buyer adds two vases in another tab while the order is on its way.
        await s.add(vase.itemId, b.sku, 2);
      },
      () => s.order(orderBody()),
    );
    expect(names.length).toBe(1);
    expect(res.statusCode).toBe(201);
    const order = res.json().order;
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, order.id));
    expect(lines.map((l) => [l.sku, l.quantity]).sort()).toEqual(
      [
        [a.sku, 1],
        [b.sku, 2],
      ].sort(),
    );
    expect(order.subtotalCents).toBe(a.priceCents + 2 * b.priceCents);
    // Taken once: the statement that found the cart changed took nothing.
    expect(await stockOf(db(), a.id)).toBe(9);
    expect(await stockOf(db(), b.id)).toBe(8);
    const [cart] = await db().select().from(carts).where(eq(carts.orderId, order.id));
    expect(cart?.isPurchased).toBe(true);
    const forCart = await db().select().from(orders).where(eq(orders.cartId, cart!.id));
    expect(forCart).toHaveLength(1);
    const charged = await db().select().from(payments).where(eq(payments.cartId, cart!.id));
    expect(charged.map((p) => [p.status, p.amountCents])).toEqual([["succeeded", order.grandTotalCents]]);
  });

  it("writes nothing when the cart was bought meanwhile, and answers the SPEC's empty cart", async () => {
    const { planter, a } = await planterAndVase();
    const s = await new Shopper(t).start();
    await s.add(planter.itemId, a.sku, 1);
    let other: Awaited<ReturnType<typeof s.order>> | undefined;
    const { result: res } = await beforeStatements(
      db(),
      "checkout_order_at_once",
      async () => {
        if (other) return;
        // The same cart is ordered from another tab, with another key, and that order wins.
        other = await s.order(orderBody({ idempotencyKey: "other-tab-order-0001" }));
      },
      () => s.order(orderBody({ idempotencyKey: "first-tab-order-0001" })),
    );
    expect(other?.statusCode).toBe(201);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("Your cart is empty.");
    expect(await stockOf(db(), a.id)).toBe(9);
    const first = await db().select().from(orders).where(eq(orders.idempotencyKey, "first-tab-order-0001"));
    expect(first).toHaveLength(0);
  });

  it("takes nothing of a variant in stock when another runs short", async () => {
    const { planter, vase, a, b } = await planterAndVase();
    const s = await new Shopper(t).start();
    await s.add(planter.itemId, a.sku, 1);
    await s.add(vase.itemId, b.sku, 2);
    const { result: res, names } = await beforeStatements(
      db(),
      "checkout_order_at_once",
      // Someone else bought the vases between the read and the statement.
      () => setStock(db(), b.id, 1),
      () => s.order(orderBody()),
    );
    expect(names.length).toBe(1);
    expect(res.statusCode).toBe(409);
    expect(await stockOf(db(), a.id)).toBe(10);
    expect(await stockOf(db(), b.id)).toBe(1);
  });
});
