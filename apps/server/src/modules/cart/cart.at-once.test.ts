/**
 * A change to an existing cart is written by one statement outside any transaction when the cart
 * is unchanged since the call's rate-limit count read it (cart/service.ts SeenCart); a cart
 * changed in between is changed as it is now, in a transaction that locks it.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { beforeStatements } from "../../../test/statements.js";
import type { Browser } from "../../../test/harness.js";
import { cartEntries, carts } from "../../db/schema.js";
import { hashToken } from "../../lib/ids.js";
import { add, product, sku, t, useCartApp, visitor } from "./cart.test-helper.js";

useCartApp();

const db = () => t.database.db;

/** The cart of a visitor's cookie, with its entries. */
async function cartOf(b: Browser) {
  const token = b.cookies.get("atelier_cart")!;
  const [cart] = await db()
    .select()
    .from(carts)
    .where(eq(carts.tokenHash, hashToken(token)));
  const entries = await db().select().from(cartEntries).where(eq(cartEntries.cartId, cart!.id));
  return { cart: cart!, entries };
}

describe("a change to a cart in one statement", () => {
  it("adds a second item, changes a quantity and removes an entry with two statements each, no transaction", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const charcoal = await sku("linen-work-apron", { Color: "Charcoal" });
    const other = apron.variants.find((v) => v.sku !== charcoal)!.sku;
    const first = (await add(b, { itemId: apron.id, sku: charcoal })).json();
    const transactions = vi.spyOn(db(), "transaction");
    const named = <T>(run: () => Promise<T>) => beforeStatements(db(), "cart", async () => {}, run);
    const second = await named(() => add(b, { itemId: apron.id, sku: other }));
    const url = `/api/commerce/shopping-cart/entries/${first.newlyAdded.id}`;
    const changed = await named(() => b.request({ method: "PATCH", url, payload: { quantity: 3 } }));
    const removed = await named(() => b.request({ method: "DELETE", url }));
    expect(transactions).not.toHaveBeenCalled();
    transactions.mockRestore();
    expect([second, changed, removed].map((r) => r.result.statusCode)).toEqual([200, 200, 200]);
    expect(second.names).toEqual(["cart_write_count_and_cart", "cart_entry_insert_checked"]);
    expect(changed.names).toEqual(["cart_write_count_and_cart", "cart_entry_set_quantity_checked"]);
    expect(removed.names).toEqual(["cart_write_count_and_cart", "cart_entry_delete_checked"]);
    expect((await cartOf(b)).entries.map((e) => [e.sku, e.quantity])).toEqual([[other, 1]]);
    // Reading the cart is its count's statement alone.
    const read = await named(() => b.request({ method: "GET", url: "/api/commerce/shopping-cart" }));
    expect(read.names).toEqual(["cart_read_count_and_cart"]);
    expect(read.result.json().entries.map((e: { sku: string }) => e.sku)).toEqual([other]);
  });

  it("adds to the cart as it is when it changed after the count read it", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const charcoal = await sku("linen-work-apron", { Color: "Charcoal" });
    const other = apron.variants.find((v) => v.sku !== charcoal)!.sku;
    await add(b, { itemId: apron.id, sku: charcoal });
    let changed = false;
    const { result: res, names } = await beforeStatements(
      db(),
      "cart_entry_insert_checked",
      async () => {
        if (changed) return;
        changed = true;
        // The same visitor adds a charcoal apron again in another tab, first.
        expect((await add(b, { itemId: apron.id, sku: charcoal })).statusCode).toBe(200);
      },
      () => add(b, { itemId: apron.id, sku: other }),
    );
    expect(names).toEqual(["cart_entry_insert_checked"]);
    expect(res.statusCode).toBe(200);
    const cart = res.json().shoppingCart;
    expect(cart.entries.map((e: { sku: string; quantity: number }) => [e.sku, e.quantity])).toEqual([
      [charcoal, 2],
      [other, 1],
    ]);
    const { entries } = await cartOf(b);
    expect(entries.map((e) => [e.sku, e.quantity]).sort()).toEqual(
      [
        [charcoal, 2],
        [other, 1],
      ].sort(),
    );
  });

  it("writes nothing to a cart bought meanwhile, and puts the item in a new cart", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const charcoal = await sku("linen-work-apron", { Color: "Charcoal" });
    await add(b, { itemId: apron.id, sku: charcoal });
    const bought = await cartOf(b);
    const { result: res } = await beforeStatements(
      db(),
      "cart_entry_set_quantity_checked",
      async () => {
        await db()
          .update(carts)
          .set({ isPurchased: true })
          .where(and(eq(carts.id, bought.cart.id), eq(carts.isPurchased, false)));
      },
      () => add(b, { itemId: apron.id, sku: charcoal }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().shoppingCart.entries).toHaveLength(1);
    expect(res.json().shoppingCart.entries[0].quantity).toBe(1);
    const after = await db().select().from(cartEntries).where(eq(cartEntries.cartId, bought.cart.id));
    expect(after.map((e) => e.quantity)).toEqual([1]);
  });
});
