import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import { productVariants } from "../../db/schema.js";
import { feedPrice } from "./service.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t?.close());

async function feed(kind: string) {
  return t.app.inject({ url: `/api/commerce/feeds/${kind}`, headers: { host: "localhost:3000" } });
}

/** The feed's items as maps of field name to text. */
function items(body: string): Record<string, string>[] {
  return [...body.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) =>
    Object.fromEntries([...m[1]!.matchAll(/<([\w:]+)>([\s\S]*?)<\/\1>/g)].map((f) => [f[1]!, f[2]!])),
  );
}

async function shop() {
  const res = await t.app.inject({ url: "/shop?format=json", headers: { host: "localhost" } });
  return res.json().items as {
    id: string;
    title: string;
    fullUrl: string;
    structuredContent: {
      productType: number;
      variants: { sku: string; qtyInStock: number; unlimited: boolean }[];
    };
  }[];
}

describe("product feeds", () => {
  it("lists every variant of every published product in the dynamic ads feed", async () => {
    const res = await feed("dynamic-ads.xml");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("application/rss+xml");
    expect(res.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const entries = items(res.body);
    const products = await shop();
    expect(entries).toHaveLength(products.reduce((n, p) => n + p.structuredContent.variants.length, 0));
    const shirt = products.find((p) => p.title === "Everyday Linen Shirt")!;
    const first = entries.find((e) => e["g:id"] === shirt.structuredContent.variants[0]!.sku)!;
    expect(first).toMatchObject({
      // The site's canonical address (PUBLIC_URL for the default site), whatever host asked.
      link: `${t.config.publicUrl}${shirt.fullUrl}`,
      "g:price": "98.00 USD",
      "g:brand": "Atelier Demo",
      "g:condition": "new",
      "g:item_group_id": shirt.id,
    });
    expect(first.title.startsWith("Everyday Linen Shirt – ")).toBe(true);
    expect(first["g:image_link"].startsWith(`${t.config.publicUrl}/`)).toBe(true);
    expect(first.description.length).toBeGreaterThan(10);
    expect(first.description).not.toContain("<");
  });

  it("says out of stock for a sold-out variant and keeps digital goods in stock", async () => {
    const products = await shop();
    const physical = products.find((p) => p.structuredContent.productType === 1)!;
    const sku = physical.structuredContent.variants[0]!.sku;
    await t.database.db
      .update(productVariants)
      .set({ qtyInStock: 0, unlimited: false })
      .where(eq(productVariants.sku, sku));
    const entries = items((await feed("dynamic-ads.xml")).body);
    expect(entries.find((e) => e["g:id"] === sku)!["g:availability"]).toBe("out of stock");
    const digital = products.find((p) => p.structuredContent.productType === 2)!;
    for (const v of digital.structuredContent.variants) {
      expect(entries.find((e) => e["g:id"] === v.sku)!["g:availability"]).toBe("in stock");
    }
  });

  it("keeps the Instagram feed to physical products", async () => {
    const products = await shop();
    const physicalSkus = products
      .filter((p) => p.structuredContent.productType === 1)
      .flatMap((p) => p.structuredContent.variants.map((v) => v.sku))
      .sort();
    const entries = items((await feed("instagram.xml")).body);
    expect(entries.map((e) => e["g:id"]).sort()).toEqual(physicalSkus);
  });

  it("refuses another feed name (400) and a host without a site (404)", async () => {
    expect((await feed("rss.xml")).statusCode).toBe(400);
    const none = await t.app.inject({
      url: "/api/commerce/feeds/instagram.xml",
      headers: { host: "nosuch.localhost" },
    });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.message).toBe("There is no website at this address.");
  });

  it("prices in the currency's fraction digits", () => {
    expect(feedPrice(9800, "USD")).toBe("98.00 USD");
    expect(feedPrice(9800, "JPY")).toBe("9800 JPY");
  });
});
