import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { siteApi as base, owner, ownerSends, siteId, t, useDemoApp } from "../../../test/demo-app.js";
import { signedUpOwner } from "../../../test/harness.js";
import { analyticsEvents, contentItems, jobs } from "../../db/schema.js";
import { RESTOCK_JOB } from "../restock/service.js";
import { newId } from "../../lib/ids.js";
import { published } from "../owner-sites/published.test-helper.js";
import { SALE_PRICE_BELOW, SUBSCRIPTION_TYPES_ONLY, SUBSCRIPTION_UPSELL } from "./admin.js";

let shopId: string;

useDemoApp();
beforeAll(async () => {
  const pages = (await owner.request({ url: `${base}/pages` })).json().pages;
  shopId = pages.find((p: { kind: string }) => p.kind === "products").id;
});

const mug = (over: object = {}) => ({
  collectionId: shopId,
  title: "Speckled Mug",
  productType: 1,
  body: "<p>Stoneware <script>x</script>mug.</p>",
  tags: ["mug"],
  categories: ["Ceramics"],
  variantOptionOrdering: ["Size", "Glaze"],
  variants: [
    { attributes: { Size: "Small", Glaze: "White" }, priceCents: 3200, qtyInStock: 5 },
    { attributes: { Size: "Large", Glaze: "White" }, priceCents: 3800, qtyInStock: 0, sku: "MUG-LW" },
    {
      attributes: { Size: "Large", Glaze: "Blue" },
      priceCents: 3800,
      salePriceCents: 3000,
      onSale: true,
      unlimited: true,
    },
  ],
  scarcityText: "Only {qtyInStock} left",
  useCustomAddButtonText: true,
  customAddButtonText: "Add to basket",
  ...over,
});

const create = (payload: object) => owner.request({ method: "POST", url: `${base}/products`, payload });

describe("products", () => {
  let mugId: string;

  it("creates a product with variants, prices and stock; it is live in the shop at that price", async () => {
    const res = await create(mug());
    expect(res.statusCode).toBe(201);
    const p = res.json().product;
    mugId = p.id;
    expect(p).toMatchObject({
      title: "Speckled Mug",
      urlId: "speckled-mug",
      fullUrl: "/shop/p/speckled-mug",
      productType: 1,
      body: "<p>Stoneware mug.</p>",
      variantOptionOrdering: ["Size", "Glaze"],
      useCustomAddButtonText: true,
      customAddButtonText: "Add to basket",
    });
    expect(p.variants.map((v: { sku: string }) => v.sku)).toEqual(["SPEMUG-01", "MUG-LW", "SPEMUG-03"]);
    expect(p.variants[2]).toMatchObject({ onSale: true, salePriceCents: 3000, unlimited: true });
    const page = (await published(t.app, "/shop/p/speckled-mug", (r) => r.status === 200)).json;
    expect(page.item.title).toBe("Speckled Mug");
    expect(page.item.structuredContent.variants.map((v: { price: number }) => v.price)).toEqual([
      3200, 3800, 3800,
    ]);
    expect(page.item.structuredContent.variants[0].qtyInStock).toBe(5);
  });

  it("reads and updates a product: edit a variant, add one, remove one, reorder options", async () => {
    const current = (await owner.request({ url: `${base}/products/${mugId}` })).json().product;
    const [small, largeWhite] = current.variants;
    const res = await owner.request({
      method: "PUT",
      url: `${base}/products/${mugId}`,
      payload: mug({
        title: "Speckled Mug",
        variantOptionOrdering: ["Glaze", "Size"],
        variants: [
          { ...small, priceCents: 3400, qtyInStock: 9 },
          { ...largeWhite },
          { attributes: { Size: "Small", Glaze: "Blue" }, priceCents: 3400, qtyInStock: 2 },
        ].map(({ id, sku, attributes, priceCents, qtyInStock, unlimited }) => ({
          id,
          sku,
          attributes,
          priceCents,
          qtyInStock,
          unlimited,
        })),
      }),
    });
    expect(res.statusCode).toBe(200);
    const p = res.json().product;
    expect(p.variantOptionOrdering).toEqual(["Glaze", "Size"]);
    expect(p.variants).toHaveLength(3);
    expect(p.variants[0]).toMatchObject({ id: small.id, priceCents: 3400, qtyInStock: 9 });
    expect(p.variants[2].attributes).toEqual({ Size: "Small", Glaze: "Blue" });
  });

  it("refuses bad products with clear messages", async () => {
    const bad = async (over: object) => (await create(mug(over))).json().error;
    expect((await bad({ title: " " })).fields.title).toBe("Please give the product a name.");
    expect(
      (
        await bad({
          variants: [
            { attributes: { Size: "S", Glaze: "W" }, priceCents: 1000, salePriceCents: 1200, onSale: true },
          ],
        })
      ).fields["variants.0.salePriceCents"],
    ).toBe(SALE_PRICE_BELOW);
    expect(
      (await bad({ variants: [{ attributes: { Size: "S" }, priceCents: 100 }] })).fields[
        "variants.0.attributes"
      ],
    ).toBe("Choose a value for Size, Glaze.");
    expect(
      (
        await bad({
          variants: [
            { attributes: { Size: "S", Glaze: "W" }, priceCents: 100 },
            { attributes: { Size: "s", Glaze: "w" }, priceCents: 100 },
          ],
        })
      ).fields["variants.1.attributes"],
    ).toBe("Another variant has the same options.");
    expect((await bad({ variants: [] })).message).toBe("A product needs at least one variant with a price.");
    expect((await bad({ productType: 2, isSubscribable: true })).message).toBe(SUBSCRIPTION_TYPES_ONLY);
    expect((await bad({ categories: ["x".repeat(26)] })).message).toBe(
      "Categories can be at most 25 characters.",
    );
    expect((await bad({ tags: ["x".repeat(51)] })).message).toBe("Tags can be at most 50 characters.");
    const dupSku = await create(
      mug({
        title: "Other",
        variants: [{ attributes: { Size: "S", Glaze: "W" }, priceCents: 100, sku: "MUG-LW" }],
      }),
    );
    expect(dupSku.statusCode).toBe(409);
    expect(dupSku.json().error.message).toBe("Another product already uses the SKU MUG-LW.");
    const foreignImage = await create(mug({ title: "Img", imageIds: ["0123456789abcdef01234567"] }));
    expect(foreignImage.json().error.message).toBe("An image is not in this site's media library.");
    const notStore = (await owner.request({ url: `${base}/pages` }))
      .json()
      .pages.find((p: { kind: string }) => p.kind === "blog");
    expect((await create(mug({ collectionId: notStore.id }))).json().error.message).toBe(
      "Choose a store page for the product.",
    );
    const longUrl = await create(mug({ title: "Long", urlId: "a".repeat(2080) }));
    expect(longUrl.json().error.message).toBe("URLs must be under 2083 characters.");
  });

  it("makes digital products and gift cards unlimited; gift cards sell their denominations", async () => {
    const digital = await create({
      collectionId: shopId,
      title: "Glaze Recipes (PDF)",
      productType: 2,
      variants: [{ priceCents: 1200, qtyInStock: 0 }],
    });
    expect(digital.json().product.variants[0]).toMatchObject({ unlimited: true, priceCents: 1200 });
    const gift = await create({
      collectionId: shopId,
      title: "Studio Gift Card",
      productType: 4,
      variants: [],
      giftCardDenominations: [2000, 4000],
    });
    expect(gift.statusCode).toBe(201);
    expect(gift.json().product.variants.map((v: { priceCents: number }) => v.priceCents)).toEqual([
      2000, 4000,
    ]);
    const noAmounts = await create({
      collectionId: shopId,
      title: "Empty Card",
      productType: 4,
      variants: [],
      giftCardDenominations: [],
    });
    expect(noAmounts.json().error.message).toBe("Add at least one gift card amount.");
  });

  it("sells subscriptions only with the commerce-subscriptions feature", async () => {
    const sub = await create(
      mug({
        title: "Coffee Club",
        variantOptionOrdering: [],
        variants: [{ priceCents: 1800, qtyInStock: 100 }],
        isSubscribable: true,
        subscriptionPlan: { billingPeriod: { value: 1, unit: "MONTH" }, numBillingCycles: 0 },
      }),
    );
    expect(sub.statusCode).toBe(201);
    expect(sub.json().product.subscriptionPlan).toEqual({
      billingPeriod: { value: 1, unit: "MONTH" },
      numBillingCycles: 0,
    });
    // A classic site on trial has no commerce-subscriptions feature: the upsell.
    const other = await owner.request({
      method: "POST",
      url: "/api/owner/sites",
      payload: { title: "Small Shop", theme: "classic" },
    });
    const otherId = other.json().site.id;
    const store = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${otherId}/pages`,
      payload: { kind: "products", title: "Store" },
    });
    const upsell = await owner.request({
      method: "POST",
      url: `/api/owner/sites/${otherId}/products`,
      payload: {
        collectionId: store.json().page.id,
        title: "Beans",
        productType: 1,
        variants: [{ priceCents: 1800 }],
        isSubscribable: true,
        subscriptionPlan: { billingPeriod: { value: 1, unit: "MONTH" }, numBillingCycles: 0 },
      },
    });
    expect(upsell.statusCode).toBe(402);
    expect(upsell.json().error.message).toBe(SUBSCRIPTION_UPSELL);
  });

  it("lists products for the inventory panel: search, sort by name, stock and price, paging", async () => {
    const list = async (qs: string) => (await owner.request({ url: `${base}/products?${qs}` })).json();
    const byName = await list("sort=name&pageSize=5");
    expect(byName.products).toHaveLength(5);
    expect(byName.hasNextPage).toBe(true);
    const names = byName.products.map((p: { title: string }) => p.title.toLowerCase());
    expect(names).toEqual([...names].sort());
    const next = await list("sort=name&pageSize=5&page=2");
    expect(next.page).toBe(2);
    expect(next.products[0].title).not.toBe(byName.products[0].title);
    const search = await list("q=speckled");
    expect(search.products.map((p: { title: string }) => p.title)).toEqual(["Speckled Mug"]);
    expect(search.products[0]).toMatchObject({
      stock: 11,
      unlimited: false,
      variantCount: 3,
      priceCents: 3400,
    });
    const bySku = await list("q=MUG-LW");
    expect(bySku.products.map((p: { title: string }) => p.title)).toEqual(["Speckled Mug"]);
    const byPrice = (await list("sort=price&dir=desc&pageSize=200")).products.map(
      (p: { priceCents: number }) => p.priceCents,
    );
    expect(byPrice).toEqual([...byPrice].sort((a, b) => b - a));
    const byStock = (await list("sort=stock&pageSize=200")).products;
    const keys = byStock.map((p: { stock: number; unlimited: boolean }) =>
      p.unlimited ? Number.MAX_SAFE_INTEGER : p.stock,
    );
    expect(keys).toEqual([...keys].sort((a, b) => a - b));
    expect((await owner.request({ url: `${base}/products?sort=colour` })).statusCode).toBe(400);
  });

  it("changes a variant's stock from the inventory panel", async () => {
    const p = (await owner.request({ url: `${base}/products/${mugId}` })).json().product;
    const v = p.variants[1];
    const set = await ownerSends("PATCH", `/variants/${v.id}/stock`, { qtyInStock: 12 });
    expect(set.json().variant.qtyInStock).toBe(12);
    const delta = await ownerSends("PATCH", `/variants/${v.id}/stock`, { delta: -2 });
    expect(delta.json().variant.qtyInStock).toBe(10);
    const below = await ownerSends("PATCH", `/variants/${v.id}/stock`, { delta: -20 });
    expect(below.statusCode).toBe(400);
    expect(below.json().error.message).toBe("Stock is a whole number, 0 or more.");
  });

  it("queues the restock emails when a sold-out variant gets stock back", async () => {
    const [throw_] = await t.database.db
      .select()
      .from(contentItems)
      .where(eq(contentItems.urlId, "merino-throw"));
    const p = (await owner.request({ url: `${base}/products/${throw_!.id}` })).json().product;
    const v = p.variants[0];
    expect(v.qtyInStock).toBe(0);
    const queued = async () =>
      (await t.database.db.select().from(jobs).where(eq(jobs.kind, RESTOCK_JOB))).filter(
        (j) => j.payload.variantId === v.id,
      ).length;
    const before = await queued();
    await ownerSends("PATCH", `/variants/${v.id}/stock`, { qtyInStock: 4 });
    expect(await queued()).toBe(before + 1);
    // Stock that was already there is no news: no second job.
    await ownerSends("PATCH", `/variants/${v.id}/stock`, { delta: 1 });
    expect(await queued()).toBe(before + 1);
  });

  it("records the inventory panel's tracking events", async () => {
    for (const action of ["search_products", "sort_by_stock", "expand_row", "click_row", "next_page"]) {
      const res = await ownerSends("POST", "/panel-events", {
        objectType: "inventory_panel",
        action,
        pagePath: "/config/inventory",
        data: { q: "mug" },
      });
      expect(res.statusCode).toBe(202);
    }
    const rows = await t.database.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.websiteId, siteId));
    expect(rows.map((r) => r.action)).toEqual([
      "search_products",
      "sort_by_stock",
      "expand_row",
      "click_row",
      "next_page",
    ]);
    expect(rows[0]).toMatchObject({
      actor: "user",
      objectType: "inventory_panel",
      pagePath: "/config/inventory",
    });
    const unknown = await ownerSends("POST", "/panel-events", {
      objectType: "inventory_panel",
      action: "dance",
    });
    expect(unknown.statusCode).toBe(400);
  });

  it("records the API keys panel and key creation modal events, and only theirs", async () => {
    const sent = [
      ...["learn_more", "terms_of_use", "create_key", "delete_key", "delete_confirm"].map((action) => ({
        objectType: "api_keys_panel",
        action,
      })),
      ...["copy", "next", "cancel", "complete"].map((action) => ({
        objectType: "api_key_creation_modal",
        action,
      })),
    ];
    for (const e of sent) {
      const res = await ownerSends("POST", "/panel-events", { ...e, pagePath: "/config/settings/api-keys" });
      expect(res.statusCode).toBe(202);
    }
    const rows = await t.database.db
      .select()
      .from(analyticsEvents)
      .where(eq(analyticsEvents.websiteId, siteId));
    const recorded = rows
      .filter((r) => r.objectType !== "inventory_panel")
      .map((r) => ({ objectType: r.objectType, action: r.action }));
    expect(recorded).toEqual(sent);
    // An action of another panel, or of no panel, is refused.
    for (const payload of [
      { objectType: "api_keys_panel", action: "copy" },
      { objectType: "api_key_creation_modal", action: "delete_key" },
      { objectType: "inventory_panel", action: "learn_more" },
      { objectType: "billing_panel", action: "copy" },
    ]) {
      const res = await owner.request({ method: "POST", url: `${base}/panel-events`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toMatch(/bad_request|invalid_request/);
    }
  });

  it("enforces 200 products per store page and 10000 categories per collection", async () => {
    const store = (await ownerSends("POST", "/pages", { kind: "products", title: "Outlet" })).json().page.id;
    await t.database.db.insert(contentItems).values(
      Array.from({ length: 199 }, (_, i) => ({
        id: newId(),
        websiteId: siteId,
        collectionId: store,
        recordType: 11,
        urlId: `p-${i}`,
        title: `P ${i}`,
        structuredContent: { productType: 1 },
        categories: i === 0 ? Array.from({ length: 10000 }, (_, j) => `c${j}`) : [],
      })),
    );
    /** A mug on the store page with no categories and a single variant. */
    const oneVariantMug = (title: string, sku: string) =>
      mug({
        collectionId: store,
        title,
        categories: [],
        variants: [{ attributes: { Size: "S", Glaze: "W" }, priceCents: 100, sku }],
      });
    const tooMany = await create(mug({ collectionId: store, title: "One more", categories: ["new"] }));
    expect(tooMany.json().error.message).toBe("A collection can have at most 10000 categories.");
    const fine = await create(oneVariantMug("Two hundredth", "X-200"));
    expect(fine.statusCode).toBe(201);
    const full = await create(oneVariantMug("Too many", "X-201"));
    expect(full.statusCode).toBe(409);
    expect(full.json().error.message).toBe("A store page can have at most 200 products.");
  });

  it("deletes a product; another owner can neither read nor change products", async () => {
    const mallory = await signedUpOwner(t, "m@example.com");
    expect((await mallory.request({ url: `${base}/products` })).statusCode).toBe(404);
    expect((await mallory.request({ url: `${base}/products/${mugId}` })).statusCode).toBe(404);
    expect((await mallory.request({ method: "DELETE", url: `${base}/products/${mugId}` })).statusCode).toBe(
      404,
    );
    const p = (await owner.request({ url: `${base}/products/${mugId}` })).json().product;
    expect(
      (
        await mallory.request({
          method: "PATCH",
          url: `${base}/variants/${p.variants[0].id}/stock`,
          payload: { qtyInStock: 0 },
        })
      ).statusCode,
    ).toBe(404);
    expect((await owner.request({ method: "DELETE", url: `${base}/products/${mugId}` })).statusCode).toBe(
      200,
    );
    expect((await owner.request({ url: `${base}/products/${mugId}` })).statusCode).toBe(404);
    expect((await published(t.app, "/shop/p/speckled-mug", (r) => r.status === 404)).status).toBe(404);
  });
});
