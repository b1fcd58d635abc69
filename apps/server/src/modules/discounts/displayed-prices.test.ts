/**
 * A discount that needs a condition (a minimum subtotal or quantity, the first order, chosen
 * products, buy X get Y) is a cart's, never the catalogue's: the price a product page shows, its
 * JSON-LD offers, the product feeds and the catalogue JSON stay the owner's price (a sale price
 * included) while such discounts are live, and the cart that meets the condition gets them.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { owner, ownerSends, siteApi, t, useDemoApp } from "../../../test/demo-app.js";
import { productVariants } from "../../db/schema.js";
import { Shopper, product, setStock } from "../checkout/test-helpers.js";

useDemoApp();

const db = () => t.database.db;
let shirt: Awaited<ReturnType<typeof product>>;
let shirtUrl: string;

beforeAll(async () => {
  shirt = await product(db(), "everyday-linen-shirt");
  // The first size is on sale: the sale price is the one shown everywhere.
  await db()
    .update(productVariants)
    .set({ onSale: true, salePriceCents: 7_500 })
    .where(eq(productVariants.id, shirt.variants[0]!.id));
  await setStock(db(), shirt.variants[0]!.id, 50);
  const shop = await t.app.inject({ url: "/shop?format=json", headers: { host: "localhost" } });
  shirtUrl = (shop.json().items as { id: string; fullUrl: string }[]).find(
    (i) => i.id === shirt.itemId,
  )!.fullUrl;
  // On PostgreSQL the page cache hears of the change by an announcement that may come a little
  // later: wait until the product page shows the sale price before reading it as "before".
  await vi.waitFor(async () => expect((await get(shirtUrl)).body).toContain('"price":"75.00"'), {
    timeout: 10_000,
    interval: 50,
  });
});

const get = (url: string) => t.app.inject({ url, headers: { host: "localhost" } });

/** The JSON-LD blocks of a page. */
function jsonLd(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  );
}

/**
 * Every price a shopper or a search engine sees outside the cart: the page's JSON-LD, the item
 * JSON the product page renders its price from, the feeds and the shop's catalogue JSON.
 */
async function shownPrices() {
  const page = await get(shirtUrl);
  expect(page.statusCode).toBe(200);
  const json = (await get(`${shirtUrl}?format=json`)).json();
  const variants = (json.item.structuredContent.variants as Record<string, unknown>[]).map((v) => ({
    sku: v.sku,
    onSale: v.onSale,
    priceMoney: v.priceMoney,
    salePriceMoney: v.salePriceMoney,
  }));
  const feeds: Record<string, string[]> = {};
  for (const kind of ["dynamic-ads.xml", "instagram.xml"]) {
    const res = await get(`/api/commerce/feeds/${kind}`);
    expect(res.statusCode).toBe(200);
    feeds[kind] = [...res.body.matchAll(/<g:(?:sale_)?price>[^<]*<\/g:(?:sale_)?price>/g)].map((m) => m[0]);
  }
  const shop = (await get("/shop?format=json")).json().items as {
    id: string;
    structuredContent: { variants: unknown[] };
  }[];
  return {
    jsonLd: jsonLd(page.body),
    variants,
    feeds,
    shop: shop.find((i) => i.id === shirt.itemId)!.structuredContent.variants,
  };
}

async function createDiscount(body: Record<string, unknown>) {
  const res = await ownerSends("POST", "/discounts", body);
  expect(res.statusCode, res.body).toBe(201);
}

describe("a discount that needs a condition", () => {
  it("leaves product pages, JSON-LD, feeds and the catalogue at the owner's price", async () => {
    const before = await shownPrices();
    const offers = JSON.stringify(before.jsonLd);
    expect(offers).toContain('"price":"75.00"');
    expect(before.feeds["dynamic-ads.xml"]!.join("")).toContain("75.00 USD");

    const onShirt = { productIds: [shirt.itemId], categoryIds: [] };
    await createDiscount({
      name: "Two shirts, half off",
      kind: "product_percentage",
      value: 50,
      appliesTo: onShirt,
      conditions: { minQuantity: 2 },
    });
    await createDiscount({
      name: "30% over $100",
      kind: "order_percentage",
      value: 30,
      conditions: { minSubtotalCents: 10_000 },
    });
    await createDiscount({
      name: "Welcome: $20 off shirts",
      kind: "product_amount",
      value: 2_000,
      appliesTo: onShirt,
      conditions: { firstOrderOnly: true },
    });
    await createDiscount({
      name: "Shirts 10% off",
      kind: "product_percentage",
      value: 10,
      appliesTo: onShirt,
    });
    await createDiscount({
      name: "Buy 2 shirts, get 1 free",
      kind: "buy_x_get_y",
      value: 100,
      appliesTo: onShirt,
      buyXGetY: { buyQuantity: 2, getQuantity: 1, getProductIds: [shirt.itemId] },
    });
    const listed = (await owner.request({ url: `${siteApi}/discounts` })).json().discounts;
    expect(listed).toHaveLength(5);

    const after = await shownPrices();
    expect(after.jsonLd).toEqual(before.jsonLd);
    expect(after.variants).toEqual(before.variants);
    expect(after.feeds).toEqual(before.feeds);
    expect(after.shop).toEqual(before.shop);

    // The discounts are live: a cart that meets their conditions gets the best one, by name.
    const s = await new Shopper(t).start();
    await s.add(shirt.itemId, shirt.variants[0]!.sku, 2);
    const cart = (await s.request({ method: "GET", url: "/api/commerce/shopping-cart" })).json();
    expect(cart.subtotalCents).toBe(15_000);
    expect(cart.discounts).toHaveLength(1);
    expect(cart.discounts[0].name).toBe("Two shirts, half off");
    expect(cart.discountCents).toBe(7_500);
  });
});
