/** Reading a cart and adding to it: cookies, stock, the SPEC's messages, the crumb, express carts, concurrency. */
import {
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_QUANTITY_NOT_A_NUMBER,
  MSG_QUANTITY_NOT_WHOLE,
  MSG_QUANTITY_OUT_OF_RANGE,
  MSG_VARIANT_UNAVAILABLE,
  computeCartTotals,
} from "@atelier/commerce";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { carts, storeSettings, websites } from "../../db/schema.js";
import { CRUMB_EXPIRED, CRUMB_NO_COOKIES } from "../../http/crumb.js";
import { hashToken } from "../../lib/ids.js";
import { Browser, expectRefusals } from "../../../test/harness.js";
import { CART_COOKIE, CART_PRESENT_COOKIE } from "./routes.js";
import { MSG_ADDITIONAL_FIELDS_INVALID } from "./service.js";
import { add, product, sku, t, useCartApp, visitor } from "./cart.test-helper.js";

useCartApp();

describe("GET /api/commerce/shopping-cart", () => {
  it("answers an empty cart to a visitor without one, and sets no cookie", async () => {
    const b = await visitor();
    const res = await b.request({ url: "/api/commerce/shopping-cart?mock=false&timecode=123" });
    expect(res.statusCode).toBe(200);
    const cart = res.json();
    // The totals of nothing, as the shared cart math has them (all zero, nothing to ship).
    expect(cart).toMatchObject({ id: null, entries: [], ...computeCartTotals([]), currencyCode: "USD" });
    expect(b.cookies.has(CART_COOKIE)).toBe(false);
  });

  it("answers 404 on a host with no website", async () => {
    const b = new Browser(t.app, "nosuchsite.localhost");
    const res = await b.request({ url: "/api/commerce/shopping-cart" });
    expect(res.statusCode).toBe(404);
  });
});

describe("POST /api/commerce/shopping-cart/entries", () => {
  it("adds an entry, keeps the cart in an HttpOnly cookie and merges the same variant", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const natural = await sku("linen-work-apron", { Color: "Natural" });
    const res = await add(b, { itemId: apron.id, sku: natural, quantity: 2, additionalFields: null });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.shoppingCart.totalQuantity).toBe(2);
    expect(body.shoppingCart.subtotalCents).toBe(13600);
    expect(body.shoppingCart.grandTotalCents).toBe(13600);
    expect(body.shoppingCart.requiresShipping).toBe(true);
    expect(body.shoppingCart.hasDigital).toBe(false);
    expect(body.newlyAdded).toMatchObject({
      itemId: apron.id,
      sku: natural,
      quantity: 2,
      title: "Linen Work Apron",
      url: "/shop/p/linen-work-apron",
      purchasePriceCents: 6800,
      subTotal: 13600,
      currencyCode: "USD",
      chosenVariant: { sku: natural, attributes: { Color: "Natural" } },
    });
    expect(body.newlyAdded.imageUrl).toMatch(/^\/media\//);
    expect(body.updatedEntry).toBeUndefined();
    const cookie = (res.cookies as { name: string; httpOnly?: boolean }[]).find(
      (c) => c.name === CART_COOKIE,
    );
    expect(cookie?.httpOnly).toBe(true);
    const marker = (res.cookies as { name: string; httpOnly?: boolean }[]).find(
      (c) => c.name === CART_PRESENT_COOKIE,
    );
    expect(marker?.httpOnly).not.toBe(true);
    // The token is stored hashed only.
    const [row] = await t.database.db
      .select()
      .from(carts)
      .where(eq(carts.tokenHash, hashToken(b.cookies.get(CART_COOKIE)!)));
    expect(row?.id).toBe(body.shoppingCart.id);
    expect(row?.tokenHash).not.toBe(b.cookies.get(CART_COOKIE));

    const again = await add(b, { itemId: apron.id, sku: natural, quantity: 1 });
    expect(again.statusCode).toBe(200);
    expect(again.json().shoppingCart.entries).toHaveLength(1);
    expect(again.json().updatedEntry).toMatchObject({ quantity: 3 });
    expect(again.json().newlyAdded.id).toBe(body.newlyAdded.id);

    const get = await b.request({ url: "/api/commerce/shopping-cart" });
    expect(get.json()).toMatchObject({ id: body.shoppingCart.id, totalQuantity: 3, subtotalCents: 20400 });
  });

  it("uses the only variant when no sku is sent, and prices sale variants at their sale price", async () => {
    const b = await visitor();
    const vase = await product("hand-thrown-vase");
    const res = await add(b, { itemId: vase.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().newlyAdded.quantity).toBe(1);
    const board = await product("walnut-serving-board");
    const small = await sku("walnut-serving-board", { Size: "Small" });
    const sale = await add(b, { itemId: board.id, sku: small, quantity: "2" });
    expect(sale.statusCode).toBe(200);
    expect(sale.json().newlyAdded).toMatchObject({
      purchasePriceCents: 4300,
      unitPriceCents: 5400,
      onSale: true,
      subTotal: 8600,
    });
    expect(sale.json().shoppingCart.subtotalCents).toBe(4200 + 8600);
  });

  it("never reserves or decrements stock", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const before = (await b.request({ url: `/api/commerce/inventory/stock/?itemId=${apron.id}` })).json();
    await add(b, {
      itemId: apron.id,
      sku: await sku("linen-work-apron", { Color: "Charcoal" }),
      quantity: 5,
    });
    const after = (await b.request({ url: `/api/commerce/inventory/stock/?itemId=${apron.id}` })).json();
    expect(after).toEqual(before);
    // Another visitor can still put every unit in their own cart.
    const other = await visitor();
    const res = await add(other, {
      itemId: apron.id,
      sku: await sku("linen-work-apron", { Color: "Charcoal" }),
      quantity: 5,
    });
    expect(res.statusCode).toBe(200);
  });

  it("answers each bad input with the SPEC's message", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const shirt = await product("everyday-linen-shirt");
    const card = await product("atelier-gift-card");
    const throw_ = await product("merino-throw");
    const rust = await sku("linen-work-apron", { Color: "Rust" });
    const cases: [Record<string, unknown>, string][] = [
      [{ itemId: "000000000000000000000000", sku: rust }, MSG_VARIANT_UNAVAILABLE],
      [{ itemId: apron.id, sku: "NO-SUCH-SKU" }, MSG_VARIANT_UNAVAILABLE],
      [{ itemId: apron.id }, "Please select the Color option."],
      [{ itemId: shirt.id }, "Please select the Size and Color options."],
      [{ itemId: card.id }, MSG_GIFT_CARD_DENOMINATION],
      [{ itemId: apron.id, sku: rust, quantity: "many" }, MSG_QUANTITY_NOT_A_NUMBER],
      [{ itemId: apron.id, sku: rust, quantity: "" }, MSG_QUANTITY_NOT_A_NUMBER],
      [{ itemId: apron.id, sku: rust, quantity: true }, MSG_QUANTITY_NOT_A_NUMBER],
      [{ itemId: apron.id, sku: rust, quantity: 1.5 }, MSG_QUANTITY_NOT_WHOLE],
      [{ itemId: apron.id, sku: rust, quantity: "2.5" }, MSG_QUANTITY_NOT_WHOLE],
      [{ itemId: apron.id, sku: rust, quantity: 0 }, MSG_QUANTITY_OUT_OF_RANGE],
      [{ itemId: apron.id, sku: rust, quantity: 10000 }, MSG_QUANTITY_OUT_OF_RANGE],
      [{ itemId: apron.id, sku: rust, quantity: 3 }, MSG_NOT_ENOUGH_STOCK],
      [{ itemId: throw_.id, sku: throw_.variants[0]!.sku }, MSG_NOT_ENOUGH_STOCK],
      [{ itemId: apron.id, sku: rust, additionalFields: "{not json" }, MSG_ADDITIONAL_FIELDS_INVALID],
      [{ itemId: apron.id, sku: rust, additionalFields: "42" }, MSG_ADDITIONAL_FIELDS_INVALID],
    ];
    await expectRefusals(cases, (body) => add(b, body));
    // A quantity error names the field.
    const q = await add(b, { itemId: apron.id, sku: rust, quantity: "x" });
    expect(q.json().error.fields).toEqual({ quantity: MSG_QUANTITY_NOT_A_NUMBER });
    // Nothing was half-written: the visitor still has no cart.
    expect(b.cookies.has(CART_COOKIE)).toBe(false);
  });

  it("counts what is already in the cart against the stock", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const rust = await sku("linen-work-apron", { Color: "Rust" });
    expect((await add(b, { itemId: apron.id, sku: rust, quantity: 2 })).statusCode).toBe(200);
    const res = await add(b, { itemId: apron.id, sku: rust, quantity: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(MSG_NOT_ENOUGH_STOCK);
  });

  it("never sells digital products or gift cards out, and marks digital carts", async () => {
    const b = await visitor();
    const course = await product("pottery-at-home-course");
    const res = await add(b, { itemId: course.id, quantity: 9999 });
    expect(res.statusCode).toBe(200);
    expect(res.json().shoppingCart).toMatchObject({
      hasDigital: true,
      purelyDigital: true,
      requiresShipping: false,
      totalQuantity: 9999,
    });
    const card = await product("atelier-gift-card");
    const fifty = card.variants[1]!.sku;
    const gift = await add(b, { itemId: card.id, sku: fifty });
    expect(gift.statusCode).toBe(200);
    expect(gift.json().newlyAdded.purchasePriceCents).toBe(5000);
    const mug = await product("stoneware-mug");
    const both = await add(b, { itemId: mug.id, sku: mug.variants[0]!.sku });
    expect(both.json().shoppingCart).toMatchObject({
      hasDigital: true,
      purelyDigital: false,
      requiresShipping: true,
    });
  });

  it("refuses a second unit of a service when the store allows only one", async () => {
    const site = (await t.database.db.select().from(websites))[0]!;
    const b = await visitor();
    const workshop = await product("wheel-throwing-workshop");
    expect((await add(b, { itemId: workshop.id, quantity: 2 })).statusCode).toBe(200);
    await t.database.db
      .update(storeSettings)
      .set({ multipleQuantityAllowedForServices: false })
      .where(eq(storeSettings.websiteId, site.id));
    try {
      const res = await add(b, { itemId: workshop.id });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe("Only one of this service can be added to the cart.");
    } finally {
      await t.database.db
        .update(storeSettings)
        .set({ multipleQuantityAllowedForServices: true })
        .where(eq(storeSettings.websiteId, site.id));
    }
  });

  it("needs the crumb, with both crumb-failure texts", async () => {
    const b = await visitor();
    const vase = await product("hand-thrown-vase");
    const res = await b.request({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      payload: { itemId: vase.id },
      withCrumb: false,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_EXPIRED } });
    const stranger = await t.app.inject({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      headers: { host: "localhost" },
      payload: { itemId: vase.id },
    });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ crumbFail: true, error: { message: CRUMB_NO_COOKIES } });
    // The crumb may also come back as the query parameter.
    const viaQuery = await b.request({
      method: "POST",
      url: `/api/commerce/shopping-cart/entries?crumb=${b.crumb}`,
      payload: { itemId: vase.id },
      withCrumb: false,
    });
    expect(viaQuery.statusCode).toBe(200);
  });

  it("answers schema errors for malformed bodies", async () => {
    const b = await visitor();
    const missing = await add(b, { sku: "X" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toBe("Item ID is required.");
    const wrong = await add(b, { itemId: {} });
    expect(wrong.statusCode).toBe(400);
  });

  it("puts an express purchase in a cart of its own and answers its token", async () => {
    const b = await visitor();
    const vase = await product("hand-thrown-vase");
    const mug = await product("stoneware-mug");
    await add(b, { itemId: mug.id, sku: mug.variants[0]!.sku });
    const cookie = b.cookies.get(CART_COOKIE);
    const res = await add(b, { itemId: vase.id, quantity: 1 }, "?isExpress=true");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.cartToken).toMatch(/^[\w-]{20,}$/);
    expect(body.shoppingCart.entries).toHaveLength(1);
    expect(body.shoppingCart.entries[0].itemId).toBe(vase.id);
    expect(b.cookies.get(CART_COOKIE)).toBe(cookie);
    const mine = (await b.request({ url: "/api/commerce/shopping-cart" })).json();
    expect(mine.entries.map((e: { itemId: string }) => e.itemId)).toEqual([mug.id]);
    const [express] = await t.database.db
      .select()
      .from(carts)
      .where(eq(carts.tokenHash, hashToken(body.cartToken)));
    expect(express?.id).toBe(body.shoppingCart.id);
  });

  it("never loses an entry when adds to one cart run concurrently", async () => {
    const b = await visitor();
    const candle = await product("beeswax-candle");
    const journal = await product("field-notes-journal");
    const course = await product("pottery-at-home-course");
    // The cart exists first (its cookie is what makes the adds target one cart).
    expect((await add(b, { itemId: journal.id })).statusCode).toBe(200);
    const adds = [];
    for (let i = 0; i < 8; i++) {
      adds.push(add(b, { itemId: candle.id, sku: candle.variants[i % 2]!.sku, quantity: 1 }));
      adds.push(add(b, { itemId: journal.id, quantity: 2 }));
      adds.push(add(b, { itemId: course.id, additionalFields: JSON.stringify({ note: `n${i}` }) }));
    }
    const answers = await Promise.all(adds);
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const cart = (await b.request({ url: "/api/commerce/shopping-cart" })).json();
    expect(cart.totalQuantity).toBe(1 + 8 + 16 + 8);
    const byItem = (id: string) =>
      cart.entries
        .filter((e: { itemId: string }) => e.itemId === id)
        .map((e: { quantity: number }) => e.quantity);
    expect(byItem(candle.id).sort()).toEqual([4, 4]);
    expect(byItem(journal.id)).toEqual([17]);
    expect(byItem(course.id)).toHaveLength(8);
  });
});
