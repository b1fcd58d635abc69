/** Subscription carts, stock answers, tenancy, rate limits and money on the product page. */
import {
  MSG_QUANTITY_NOT_A_NUMBER,
  MSG_QUANTITY_NOT_WHOLE,
  MSG_QUANTITY_OUT_OF_RANGE,
  MSG_VARIANT_UNAVAILABLE,
} from "@atelier/commerce";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import {
  carts,
  contentItems,
  rateLimitCounters,
  storeSettings,
  websiteSettings,
  websites,
} from "../../db/schema.js";
import { hashToken } from "../../lib/ids.js";
import { Browser, connectVerifiedDomain, expectRefusals, signIn } from "../../../test/harness.js";
import { CART_COOKIE, CART_WRITE_LIMIT, RATE_LIMITED_MESSAGE } from "./routes.js";
import {
  MSG_ADDITIONAL_FIELDS_INVALID,
  MSG_SUBSCRIPTION_FEATURE,
  MSG_SUBSCRIPTION_NOT_SUBSCRIBABLE,
  MSG_SUBSCRIPTION_PRODUCT_TYPE,
} from "./service.js";
import { add, advanceClock, clock, product, t, useCartApp, visitor } from "./cart.test-helper.js";

useCartApp();

describe("POST /api/3/commerce/cart/subscription", () => {
  const url = "/api/3/commerce/cart/subscription";

  it("answers the token of a cart holding the subscription", async () => {
    const b = await visitor();
    const coffee = await product("single-origin-coffee");
    const res = await b.request({
      method: "POST",
      url,
      payload: { itemId: coffee.id, sku: coffee.variants[1]!.sku, qty: 2, additionalFields: null },
    });
    expect(res.statusCode).toBe(200);
    const { cartToken } = res.json();
    expect(cartToken).toMatch(/^[\w-]{20,}$/);
    const [cart] = await t.database.db
      .select()
      .from(carts)
      .where(eq(carts.tokenHash, hashToken(cartToken)));
    expect(cart).toBeDefined();
    // The visitor's own cart is untouched.
    expect(b.cookies.has(CART_COOKIE)).toBe(false);
  });

  it("refuses products that are not subscriptions, other product types and plans without the feature", async () => {
    const b = await visitor();
    const coffee = await product("single-origin-coffee");
    const apron = await product("linen-work-apron");
    const course = await product("pottery-at-home-course");
    const notSub = await b.request({
      method: "POST",
      url,
      payload: { itemId: apron.id, sku: apron.variants[0]!.sku },
    });
    expect(notSub.json().error.message).toBe(MSG_SUBSCRIPTION_NOT_SUBSCRIBABLE);

    // A digital product marked subscribable is still refused.
    const [row] = await t.database.db.select().from(contentItems).where(eq(contentItems.id, course.id));
    await t.database.db
      .update(contentItems)
      .set({
        structuredContent: {
          ...row!.structuredContent,
          isSubscribable: true,
          subscriptionPlan: { billingPeriod: { value: 1, unit: "MONTH" }, numBillingCycles: 0 },
        },
      })
      .where(eq(contentItems.id, course.id));
    const digital = await b.request({ method: "POST", url, payload: { itemId: course.id } });
    expect(digital.statusCode).toBe(400);
    expect(digital.json().error.message).toBe(MSG_SUBSCRIPTION_PRODUCT_TYPE);
    await t.database.db
      .update(contentItems)
      .set({ structuredContent: row!.structuredContent })
      .where(eq(contentItems.id, course.id));

    const bad: [Record<string, unknown>, string][] = [
      [{ itemId: "000000000000000000000000" }, MSG_VARIANT_UNAVAILABLE],
      [{ itemId: coffee.id }, "Please select the Grind option."],
      [{ itemId: coffee.id, sku: "NOPE" }, MSG_VARIANT_UNAVAILABLE],
      [{ itemId: coffee.id, sku: coffee.variants[0]!.sku, qty: "x" }, MSG_QUANTITY_NOT_A_NUMBER],
      [{ itemId: coffee.id, sku: coffee.variants[0]!.sku, qty: 1.5 }, MSG_QUANTITY_NOT_WHOLE],
      [{ itemId: coffee.id, sku: coffee.variants[0]!.sku, qty: 0 }, MSG_QUANTITY_OUT_OF_RANGE],
      [
        { itemId: coffee.id, sku: coffee.variants[0]!.sku, additionalFields: "{" },
        MSG_ADDITIONAL_FIELDS_INVALID,
      ],
    ];
    await expectRefusals(bad, (payload) => b.request({ method: "POST", url, payload }));

    const site = (await t.database.db.select().from(websites))[0]!;
    await t.database.db.update(websites).set({ featureSetId: "business" }).where(eq(websites.id, site.id));
    try {
      const res = await b.request({
        method: "POST",
        url,
        payload: { itemId: coffee.id, sku: coffee.variants[0]!.sku },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG_SUBSCRIPTION_FEATURE);
    } finally {
      await t.database.db
        .update(websites)
        .set({ featureSetId: site.featureSetId })
        .where(eq(websites.id, site.id));
    }
  });
});

describe("GET /api/commerce/inventory/stock/", () => {
  it("answers the stock of every variant", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const res = await b.request({ url: `/api/commerce/inventory/stock/?itemId=${apron.id}` });
    expect(res.statusCode).toBe(200);
    expect(
      res.json().results.map((r: { qtyInStock: number; unlimited: boolean }) => [r.qtyInStock, r.unlimited]),
    ).toEqual([
      [8, false],
      [5, false],
      [2, false],
    ]);
    const card = await product("atelier-gift-card");
    const gift = await b.request({ url: `/api/commerce/inventory/stock?itemId=${card.id}` });
    expect(gift.json().results.every((r: { unlimited: boolean }) => r.unlimited)).toBe(true);
  });

  it("answers 404 for an unknown product and 400 without an itemId", async () => {
    const b = await visitor();
    expect((await b.request({ url: "/api/commerce/inventory/stock/?itemId=nope" })).statusCode).toBe(404);
    const missing = await b.request({ url: "/api/commerce/inventory/stock/" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe("Item ID is required.");
  });
});

describe("tenancy", () => {
  it("keeps carts and products to their own website", async () => {
    const [site] = await t.database.db.select().from(websites);
    const otherId = "0ther0000000000000000000";
    await t.database.db.insert(websites).values({
      ...site!,
      id: otherId,
      identifier: "othershop",
      isDefault: false,
      title: "Other",
    });
    await t.database.db.insert(websiteSettings).values({ websiteId: otherId });
    await t.database.db.insert(storeSettings).values({ websiteId: otherId, currency: "EUR" });
    await connectVerifiedDomain(t.database.db, otherId, "other.example");

    const b = await visitor();
    const vase = await product("hand-thrown-vase");
    expect((await add(b, { itemId: vase.id })).statusCode).toBe(200);
    // The same cookie on another site's host names no cart there.
    const there = new Browser(t.app, "other.example");
    for (const [k, v] of b.cookies) there.cookies.set(k, v);
    const cart = (await there.request({ url: "/api/commerce/shopping-cart" })).json();
    expect(cart).toMatchObject({ id: null, totalQuantity: 0, currencyCode: "EUR", websiteId: otherId });
    const foreign = await add(there, { itemId: vase.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe(MSG_VARIANT_UNAVAILABLE);
    expect(
      (await there.request({ url: `/api/commerce/inventory/stock/?itemId=${vase.id}` })).statusCode,
    ).toBe(404);
  });
});

describe("rate limits", () => {
  it("answers 429 'Please try again in a few seconds.' past the limit, and again after the window", async () => {
    const b = await visitor();
    const journal = await product("field-notes-journal");
    const statuses: number[] = [];
    for (let i = 0; i < CART_WRITE_LIMIT.max + 2; i++) {
      const res = await add(b, { itemId: journal.id });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json().error.message).toBe(RATE_LIMITED_MESSAGE);
        expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(CART_WRITE_LIMIT.max);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    advanceClock(CART_WRITE_LIMIT.windowMs);
    expect((await add(b, { itemId: journal.id })).statusCode).toBe(200);
  });

  it("shares the limit between server processes on one database", async () => {
    // A second app on the same database stands for a second server process.
    const second = await buildApp({ config: t.config, database: t.database, clock, logger: false });
    await second.ready();
    try {
      const a = await visitor();
      const b2 = new Browser(second);
      for (const [k, v] of a.cookies) b2.cookies.set(k, v);
      const journal = await product("field-notes-journal");
      const address = "10.9.9.9";
      const send = (br: Browser) =>
        br.request({
          method: "POST",
          url: "/api/commerce/shopping-cart/entries",
          payload: { itemId: journal.id },
          remoteAddress: address,
        });
      for (let i = 0; i < CART_WRITE_LIMIT.max / 2; i++) {
        expect((await send(a)).statusCode).toBe(200);
        expect((await send(b2)).statusCode).toBe(200);
      }
      expect((await send(a)).statusCode).toBe(429);
      expect((await send(b2)).statusCode).toBe(429);
      const rows = await t.database.db
        .select()
        .from(rateLimitCounters)
        .where(eq(rateLimitCounters.key, `cart-write:${address}`));
      expect(rows).toHaveLength(1);
      const n = rows[0]!.count;
      expect(n).toBe(CART_WRITE_LIMIT.max + 2);
    } finally {
      await second.close();
    }
  });
});

describe("money on the product page", () => {
  it("prints prices in the CLDR form when the store turns it on, and the legacy span otherwise", async () => {
    const owner = await visitor();
    expect((await signIn(owner)).statusCode).toBe(200);
    const siteId = (await owner.request({ url: "/api/owner/sites" })).json().sites[0].id;
    const setMoney = async (currency: string, useCLDRMoneyFormat: boolean) => {
      const res = await owner.request({
        method: "PATCH",
        url: `/api/owner/sites/${siteId}/store`,
        payload: { currency, useCLDRMoneyFormat },
      });
      expect(res.statusCode).toBe(200);
    };
    /** The first `.product-price` of the shirt's page once it shows `want` (pages are cached). */
    const priceOnPage = async (want: RegExp) => {
      const started = Date.now();
      for (;;) {
        const res = await t.app.inject({
          url: "/shop/p/everyday-linen-shirt",
          headers: { host: "localhost" },
        });
        expect(res.statusCode).toBe(200);
        const price = res.body.match(/<div class="product-price">([\s\S]*?)<\/div>/)?.[1]?.trim() ?? "";
        if (want.test(price) || Date.now() - started > 3000) return price;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    try {
      expect(await priceOnPage(/sqs-money-native/)).toBe('<span class="sqs-money-native">98.00</span>');
      await setMoney("EUR", true);
      // Never an empty price: the locale's CLDR data is loaded before the page renders.
      expect(await priceOnPage(/€/)).toBe("€98.00");
      await setMoney("USD", true);
      expect(await priceOnPage(/\$/)).toBe("$98.00");
      // SPEC §9: JPY has no fraction digits, in the legacy form too (9800 minor units are ¥9,800).
      await setMoney("JPY", false);
      expect(await priceOnPage(/9,800/)).toBe('<span class="sqs-money-native">9,800</span>');
    } finally {
      await setMoney("USD", false);
    }
    expect(await priceOnPage(/sqs-money-native/)).toBe('<span class="sqs-money-native">98.00</span>');
  });
});
