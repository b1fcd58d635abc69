import {
  MSG_GIFT_CARD_DENOMINATION,
  MSG_NOT_ENOUGH_STOCK,
  MSG_QUANTITY_NOT_A_NUMBER,
  MSG_QUANTITY_NOT_WHOLE,
  MSG_QUANTITY_OUT_OF_RANGE,
  MSG_VARIANT_UNAVAILABLE,
} from "@atelier/commerce";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.js";
import {
  carts,
  contentItems,
  domains,
  forms,
  rateLimitCounters,
  storeSettings,
  websiteSettings,
  websites,
} from "../../db/schema.js";
import { CRUMB_EXPIRED, CRUMB_NO_COOKIES } from "../../http/crumb.js";
import { hashToken } from "../../lib/ids.js";
import { Browser, type TestApp, createTestApp } from "../../../test/harness.js";
import { CART_COOKIE, CART_PRESENT_COOKIE, CART_WRITE_LIMIT, RATE_LIMITED_MESSAGE } from "./routes.js";
import {
  MSG_ADDITIONAL_FIELDS_INVALID,
  MSG_ENTRY_NOT_FOUND,
  MSG_SUBSCRIPTION_FEATURE,
  MSG_SUBSCRIPTION_NOT_SUBSCRIBABLE,
  MSG_SUBSCRIPTION_PRODUCT_TYPE,
} from "./service.js";

let now = new Date("2025-03-01T12:00:00Z");
const clock = { now: () => now };
let t: TestApp;

interface Product {
  id: string;
  variants: { id: string; sku: string; attributes: Record<string, string>; qtyInStock: number }[];
}
const products: Record<string, Product> = {};

async function product(slug: string): Promise<Product> {
  if (products[slug]) return products[slug];
  const res = await t.app.inject({ url: `/shop/p/${slug}?format=json`, headers: { host: "localhost" } });
  expect(res.statusCode).toBe(200);
  const item = res.json().item;
  products[slug] = { id: item.id, variants: item.structuredContent.variants };
  return products[slug];
}

async function sku(slug: string, attrs: Record<string, string> = {}): Promise<string> {
  const p = await product(slug);
  const v = p.variants.find((v) => Object.entries(attrs).every(([k, val]) => v.attributes[k] === val));
  return v!.sku;
}

/** A visitor with the crumb (they have seen a page), each on their own address. */
let visitorCount = 0;
async function visitor(host = "localhost"): Promise<Browser> {
  const b = new Browser(t.app, host);
  const address = `10.1.${Math.floor(visitorCount / 200)}.${(visitorCount++ % 200) + 1}`;
  const original = b.request.bind(b);
  b.request = (opts) => original({ remoteAddress: address, ...opts });
  await b.visit("/");
  return b;
}

function add(b: Browser, body: Record<string, unknown>, query = "") {
  return b.request({ method: "POST", url: `/api/commerce/shopping-cart/entries${query}`, payload: body });
}

beforeAll(async () => {
  t = await createTestApp({ seed: true, clock });
});
afterAll(() => t.close());

describe("GET /api/commerce/shopping-cart", () => {
  it("answers an empty cart to a visitor without one, and sets no cookie", async () => {
    const b = await visitor();
    const res = await b.request({ url: "/api/commerce/shopping-cart?mock=false&timecode=123" });
    expect(res.statusCode).toBe(200);
    const cart = res.json();
    expect(cart).toMatchObject({
      id: null,
      entries: [],
      subtotalCents: 0,
      taxCents: 0,
      shippingCostCents: 0,
      discountCents: 0,
      grandTotalCents: 0,
      totalQuantity: 0,
      hasDigital: false,
      purelyDigital: false,
      requiresShipping: false,
      currencyCode: "USD",
    });
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
    for (const [body, message] of cases) {
      const res = await add(b, body);
      expect({ body, status: res.statusCode, message: res.json().error?.message }).toEqual({
        body,
        status: 400,
        message,
      });
    }
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
    expect(missing.json().error.message).toBe("Invalid body: itemId is required.");
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

describe("entries: additional fields, quantity, removal", () => {
  it("checks the answers of a product's additional-fields form with the form's rules", async () => {
    const site = (await t.database.db.select().from(websites))[0]!;
    const course = await product("pottery-at-home-course");
    await t.database.db.insert(forms).values({
      id: "f0rm00000000000000000001",
      websiteId: site.id,
      name: "Engraving",
      fields: [
        { id: "engraving", type: "text", title: "Engraving", required: true },
        { id: "email", type: "email", title: "Gift email" },
      ],
    });
    const [row] = await t.database.db.select().from(contentItems).where(eq(contentItems.id, course.id));
    await t.database.db
      .update(contentItems)
      .set({
        structuredContent: { ...row!.structuredContent, additionalFieldsFormId: "f0rm00000000000000000001" },
      })
      .where(eq(contentItems.id, course.id));
    try {
      const b = await visitor();
      const formAnswer = await b.request({
        url: `/api/commerce/products/${course.id}/additional-fields-form`,
      });
      expect(formAnswer.statusCode).toBe(200);
      expect(formAnswer.json().form).toMatchObject({
        id: "f0rm00000000000000000001",
        name: "Engraving",
        fields: [{ id: "engraving", type: "text", title: "Engraving", required: true }, { id: "email" }],
      });
      const vase = await product("hand-thrown-vase");
      const noForm = await b.request({ url: `/api/commerce/products/${vase.id}/additional-fields-form` });
      expect(noForm.statusCode).toBe(404);
      const none = await add(b, { itemId: course.id });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toMatchObject({
        message: "One or more fields is invalid, please check your entries.",
        fields: { engraving: "Required" },
      });
      const badEmail = await add(b, {
        itemId: course.id,
        additionalFields: JSON.stringify({ engraving: "Ada", email: "nope" }),
      });
      expect(badEmail.json().error.fields.email).toMatch(/^Email is not valid\./);
      const ok = await add(b, {
        itemId: course.id,
        additionalFields: JSON.stringify({ engraving: "Ada", junk: 1 }),
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().newlyAdded.additionalFields).toEqual({ engraving: "Ada", email: "" });
      const put = await b.request({
        method: "PUT",
        url: `/api/commerce/shopping-cart/entries/${ok.json().newlyAdded.id}/additionalFields`,
        payload: { itemId: course.id, additionalFields: "{}" },
      });
      expect(put.statusCode).toBe(400);
      expect(put.json().error.fields).toEqual({ engraving: "Required" });
    } finally {
      await t.database.db
        .update(contentItems)
        .set({ structuredContent: row!.structuredContent })
        .where(eq(contentItems.id, course.id));
    }
  });

  it('takes the JSON strings "null" and "" as no additional fields on every call that carries them', async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const natural = await sku("linen-work-apron", { Color: "Natural" });
    for (const none of ["null", "", " null "]) {
      const res = await add(b, { itemId: apron.id, sku: natural, additionalFields: none });
      expect({ none, status: res.statusCode }).toEqual({ none, status: 200 });
      expect(res.json().newlyAdded.additionalFields ?? null).toBeNull();
    }
    // All three adds merged into one entry, as adds without fields do.
    const cart = (await add(b, { itemId: apron.id, sku: natural, additionalFields: "null" })).json();
    expect(cart.shoppingCart.entries).toHaveLength(1);
    expect(cart.shoppingCart.entries[0].quantity).toBe(4);

    const course = await product("pottery-at-home-course");
    const added = (await add(b, { itemId: course.id, additionalFields: '{"name":"Ada"}' })).json();
    const put = await b.request({
      method: "PUT",
      url: `/api/commerce/shopping-cart/entries/${added.newlyAdded.id}/additionalFields`,
      payload: { itemId: course.id, additionalFields: "null" },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().updatedEntry.additionalFields ?? null).toBeNull();

    const coffee = await product("single-origin-coffee");
    for (const none of ["null", ""]) {
      const sub = await b.request({
        method: "POST",
        url: "/api/3/commerce/cart/subscription",
        payload: { itemId: coffee.id, sku: coffee.variants[1]!.sku, qty: 1, additionalFields: none },
      });
      expect({ none, status: sub.statusCode }).toEqual({ none, status: 200 });
    }
    // Other JSON that is not an object is still refused.
    for (const bad of ["42", '"text"', "true", "[oops"]) {
      const res = await add(b, { itemId: apron.id, sku: natural, additionalFields: bad });
      expect({ bad, message: res.json().error?.message }).toEqual({
        bad,
        message: MSG_ADDITIONAL_FIELDS_INVALID,
      });
    }
  });

  it("replaces an entry's additional fields", async () => {
    const b = await visitor();
    const course = await product("pottery-at-home-course");
    const added = (await add(b, { itemId: course.id, additionalFields: '{"name":"Ada"}' })).json();
    const entryId = added.newlyAdded.id;
    expect(added.newlyAdded.additionalFields).toEqual({ name: "Ada" });
    const url = `/api/commerce/shopping-cart/entries/${entryId}/additionalFields`;
    const res = await b.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, sku: added.newlyAdded.sku, additionalFields: '{"name":"Grace"}' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().updatedEntry).toMatchObject({ id: entryId, additionalFields: { name: "Grace" } });
    expect(res.json().shoppingCart.entries[0].additionalFields).toEqual({ name: "Grace" });

    const bad = await b.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, additionalFields: "[oops" },
    });
    expect(bad.json().error.message).toBe(MSG_ADDITIONAL_FIELDS_INVALID);
    const wrongItem = await b.request({
      method: "PUT",
      url,
      payload: { itemId: "000000000000000000000000", additionalFields: "{}" },
    });
    expect(wrongItem.statusCode).toBe(400);
    expect(wrongItem.json().error.message).toBe(MSG_VARIANT_UNAVAILABLE);
    const unknown = await b.request({
      method: "PUT",
      url: "/api/commerce/shopping-cart/entries/000000000000000000000000/additionalFields",
      payload: { itemId: course.id, additionalFields: "{}" },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(MSG_ENTRY_NOT_FOUND);
    // Another visitor cannot touch this entry.
    const other = await visitor();
    const theirs = await other.request({
      method: "PUT",
      url,
      payload: { itemId: course.id, additionalFields: "{}" },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it("changes an entry's quantity within the rules and removes entries", async () => {
    const b = await visitor();
    const apron = await product("linen-work-apron");
    const charcoal = await sku("linen-work-apron", { Color: "Charcoal" });
    const entryId = (await add(b, { itemId: apron.id, sku: charcoal })).json().newlyAdded.id;
    const url = `/api/commerce/shopping-cart/entries/${entryId}`;
    const ok = await b.request({ method: "PATCH", url, payload: { quantity: 4 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().updatedEntry.quantity).toBe(4);
    expect(ok.json().shoppingCart.subtotalCents).toBe(4 * 6800);
    const cases: [unknown, string][] = [
      ["lots", MSG_QUANTITY_NOT_A_NUMBER],
      [null, MSG_QUANTITY_NOT_A_NUMBER],
      [2.25, MSG_QUANTITY_NOT_WHOLE],
      [0, MSG_QUANTITY_OUT_OF_RANGE],
      [-1, MSG_QUANTITY_OUT_OF_RANGE],
      [10000, MSG_QUANTITY_OUT_OF_RANGE],
      [6, MSG_NOT_ENOUGH_STOCK],
    ];
    for (const [quantity, message] of cases) {
      const res = await b.request({ method: "PATCH", url, payload: { quantity } });
      expect({ quantity, status: res.statusCode, message: res.json().error?.message }).toEqual({
        quantity,
        status: 400,
        message,
      });
    }
    const missing = await b.request({ method: "PATCH", url, payload: {} });
    expect(missing.statusCode).toBe(400);
    const other = await visitor();
    expect((await other.request({ method: "PATCH", url, payload: { quantity: 1 } })).statusCode).toBe(404);
    expect((await other.request({ method: "DELETE", url })).statusCode).toBe(404);

    const removed = await b.request({ method: "DELETE", url });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().shoppingCart).toMatchObject({ entries: [], totalQuantity: 0, subtotalCents: 0 });
    const again = await b.request({ method: "DELETE", url });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(MSG_ENTRY_NOT_FOUND);
  });
});

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
    for (const [payload, message] of bad) {
      const res = await b.request({ method: "POST", url, payload });
      expect({ payload, message: res.json().error?.message, status: res.statusCode }).toEqual({
        payload,
        message,
        status: 400,
      });
    }

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
    expect(missing.json().error.message).toBe("Invalid querystring: itemId is required.");
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
    await t.database.db.insert(domains).values({ host: "other.example", websiteId: otherId });

    const b = await visitor();
    const vase = await product("hand-thrown-vase");
    expect((await add(b, { itemId: vase.id })).statusCode).toBe(200);
    // The same cookie on another site's host names no cart there.
    const there = new Browser(t.app, "other.example");
    for (const [k, v] of b.cookies) there.cookies.set(k, v);
    const cart = (await there.request({ url: "/api/commerce/shopping-cart" })).json();
    expect(cart).toMatchObject({ id: null, totalQuantity: 0, currencyCode: "EUR", websiteId: otherId });
    const foreign = await there.request({
      method: "POST",
      url: "/api/commerce/shopping-cart/entries",
      payload: { itemId: vase.id },
    });
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
    now = new Date(now.getTime() + CART_WRITE_LIMIT.windowMs);
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
    const login = await owner.request({
      method: "POST",
      url: "/api/owner/session",
      payload: { email: "owner@atelier.test", password: "atelier-demo" },
    });
    expect(login.statusCode).toBe(200);
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
