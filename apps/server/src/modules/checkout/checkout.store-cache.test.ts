/** What an order's stock change leaves kept in the store cache, and what it does not. */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { websites } from "../../db/schema.js";
import { StoreCache } from "../cart/site-reads.js";
import { createShipping } from "../store-settings/service.js";
import { keptStoreRules } from "./pricing.js";
import { takeStock } from "./store.js";
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
  it("shows the stock each order left", async () => {
    const { a, b } = await twoShoppers("ceramic-planter", 5);
    const c = await new Shopper(t).start();
    const planter = await product(db(), "ceramic-planter");
    await c.add(planter.itemId, planter.variants[0]!.sku, 1);
    for (const s of [a, b, c]) await s.quote("country=US&state=NY");
    const id = await siteId();
    const version = await versionOf(id);
    expect((await a.order(orderBody())).statusCode).toBe(201);
    // The order still bumps the site's version (pages show the new stock).
    expect(await versionOf(id)).toBeGreaterThan(version);
    expect(await stockInCart(b)).toBe(4);
    expect((await b.order(orderBody())).statusCode).toBe(201);
    expect(await stockInCart(c)).toBe(3);
  });

  it("keeps the site, its settings, rules and products across stock-only versions", async () => {
    const planter = await product(db(), "ceramic-planter");
    const variant = planter.variants[0]!;
    await setStock(db(), variant.id, 7);
    const id = await siteId();
    const cache = new StoreCache();
    const readAll = async (version: number) => {
      const reads = (await cache.reads(db(), `${id}:${version}`))!;
      await reads.settings(db());
      await keptStoreRules(db(), reads);
      return (await reads.products(db(), [planter.itemId])).get(planter.itemId)!;
    };
    const v0 = await versionOf(id);
    expect((await readAll(v0)).variants[0]!.qtyInStock).toBe(7);
    const loaded = { ...cache.reloads };

    // Two orders in turn, each taking 2 units in its own stock-only version (the versions are the
    // cache's own here: whatever else runs on the database meanwhile, it does not count).
    let version = v0;
    for (const left of [5, 3]) {
      const reads = (await cache.reads(db(), `${id}:${version}`))!;
      const taken = new Map<string, number>();
      await db().transaction(async (tx) => {
        expect(await takeStock(tx, id, [{ variantId: variant.id, quantity: 2 }], taken)).toBe(true);
      });
      expect(taken.get(variant.id)).toBe(left);
      version++;
      reads.stockBumped(version, [planter.itemId], taken);
      expect((await readAll(version)).variants[0]!.qtyInStock).toBe(left);
    }
    expect(cache.reloads).toEqual(loaded);

    // Any other version (here after the owner's stock count) reads everything again.
    await setStock(db(), variant.id, 9);
    expect((await readAll(version + 1)).variants[0]!.qtyInStock).toBe(9);
    expect(cache.reloads).toEqual({
      sites: loaded.sites + 1,
      settings: loaded.settings + 1,
      products: loaded.products + 1,
      others: loaded.others + 1,
    });
  });

  it("keeps reading from memory when a call read an order's version before the order recorded it", async () => {
    const planter = await product(db(), "ceramic-planter");
    const id = await siteId();
    const cache = new StoreCache();
    const readSettings = async (version: number) => {
      await (await cache.reads(db(), `${id}:${version}`))!.settings(db());
      return cache.reloads.settings;
    };
    const v0 = await versionOf(id);
    const atStart = await readSettings(v0);
    const orderAt = (await cache.reads(db(), `${id}:${v0}`))!;
    // Another call reads the order's version (committed) before the order's process records it:
    // it cannot know the version is stock-only yet, and reads the settings again.
    const early = await readSettings(v0 + 1);
    expect(early).toBe(atStart + 1);
    orderAt.stockBumped(v0 + 1, [planter.itemId]);
    // From then on, at that version and at the next orders' stock-only versions, nothing is read again.
    expect(await readSettings(v0 + 1)).toBe(early);
    (await cache.reads(db(), `${id}:${v0 + 1}`))!.stockBumped(v0 + 2, [planter.itemId]);
    for (let i = 0; i < 3; i++) expect(await readSettings(v0 + 2)).toBe(early);
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
