/** What an order's stock change leaves kept in the store cache, and what it does not. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { websites } from "../../db/schema.js";
import { createShipping } from "../store-settings/service.js";
import { Shopper, product, setStock } from "./test-helpers.js";
import { orderBody } from "../../../test/fixtures.js";
import { db, t, useCheckoutApp } from "./checkout.test-helper.js";

useCheckoutApp();

const siteId = async () => (await db().select().from(websites).where(eq(websites.isDefault, true)))[0]!.id;
const versionOf = async (id: string) =>
  (await db().select().from(websites).where(eq(websites.id, id)))[0]!.contentVersion;

const stockInCart = async (s: Shopper) =>
  (await s.request({ url: "/api/commerce/shopping-cart" })).json().entries[0].chosenVariant.qtyInStock;

async function twoShoppers(slug: string, stock: number) {
  const p = await product(db(), slug);
  const variant = p.variants[0]!;
  await setStock(db(), variant.id, stock);
  const a = await new Shopper(t).start();
  const b = await new Shopper(t).start();
  await a.add(p.itemId, variant.sku, 1);
  await b.add(p.itemId, variant.sku, 1);
  return { a, b, variant };
}

describe("the store cache after an order", () => {
  it("keeps the site, its settings, rules and products, with the stock each order left", async () => {
    const { a, b } = await twoShoppers("ceramic-planter", 5);
    const c = await new Shopper(t).start();
    const planter = await product(db(), "ceramic-planter");
    await c.add(planter.itemId, planter.variants[0]!.sku, 1);
    for (const s of [a, b, c]) await s.quote("country=US&state=NY");
    const id = await siteId();
    const version = await versionOf(id);
    const cache = t.app.storeCache;
    const before = { ...cache.reloads };
    expect((await a.order(orderBody())).statusCode).toBe(201);
    // The order still bumps the site's version once (pages show the new stock).
    expect(await versionOf(id)).toBe(version + 1);
    const q = (await b.quote("country=US&state=NY")).json();
    expect(q.cart.shippingOptions.length).toBeGreaterThan(0);
    expect(await stockInCart(b)).toBe(4);
    expect((await b.order(orderBody())).statusCode).toBe(201);
    expect(await versionOf(id)).toBe(version + 2);
    expect(await stockInCart(c)).toBe(3);
    expect((await c.quote("country=US&state=NY")).json().cart.shippingOptions.length).toBeGreaterThan(0);
    expect(cache.reloads).toEqual(before);
  });

  it("sees an owner's change made after an order at once", async () => {
    const { a, b } = await twoShoppers("hand-thrown-vase", 5);
    await b.quote("country=US&state=NY");
    expect((await a.order(orderBody())).statusCode).toBe(201);
    await b.quote("country=US&state=NY");
    await createShipping(db(), await siteId(), {
      name: "Pigeon post",
      kind: "flat",
      priceCents: 100,
      countries: ["US"],
    });
    const q = (await b.quote("country=US&state=NY")).json();
    expect(q.cart.shippingOptions.map((o: { name: string }) => o.name)).toContain("Pigeon post");
    expect(await stockInCart(b)).toBe(4);
  });

  it("sees the owner's count of the stock made after an order at once", async () => {
    const { a, b, variant } = await twoShoppers("pour-over-set", 5);
    expect((await a.order(orderBody())).statusCode).toBe(201);
    expect(await stockInCart(b)).toBe(4);
    await setStock(db(), variant.id, 2);
    expect(await stockInCart(b)).toBe(2);
  });
});
