import { eq, isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, signUp, addSite, type TestApp, demoSite } from "../../../test/harness.js";
import { apiKeys, jobs } from "../../db/schema.js";
import { hashToken } from "../../lib/ids.js";
import { Shopper, product, setStock, stockOf } from "../checkout/test-helpers.js";
import { orderBody } from "../../../test/fixtures.js";
import { RESTOCK_JOB } from "../restock/service.js";
import {
  MAX_LIVE_KEYS,
  MSG_BAD_KEY,
  MSG_BELOW_ZERO,
  MSG_NO_KEY,
  MSG_NO_SUCH_KEY,
  MSG_TOO_MANY_KEYS,
  missingScope,
} from "./service.js";

let t: TestApp;
let owner: Shopper;
let eve: Shopper;
let siteId: string;
let eveSiteId: string;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  siteId = (await demoSite(db())).id;
  owner = await new Shopper(t).start();
  expect((await signIn(owner)).statusCode).toBe(200);
  eve = await new Shopper(t).start();
  await signUp(eve, "eve@example.com");
  const site = await addSite(eve);
  expect(site.statusCode).toBe(201);
  eveSiteId = site.json().site.id;
});
afterAll(() => t.close());
// Every test starts with no live key, so the 20 keys limit is the test's own.
afterEach(async () => {
  await db().update(apiKeys).set({ revokedAt: new Date() }).where(isNull(apiKeys.revokedAt));
});

const keysUrl = (site = siteId) => `/api/owner/sites/${site}/api-keys`;
async function createKey(scopes: string[], name = "Warehouse sync", who = owner, site = siteId) {
  const res = await who.request({ method: "POST", url: keysUrl(site), payload: { name, scopes } });
  expect(res.statusCode).toBe(201);
  return res.json() as { key: string; apiKey: { id: string; prefix: string; scopes: string[] } };
}
const call = (key: string | undefined, url: string, payload?: unknown) =>
  t.app.inject({
    method: payload === undefined ? "GET" : "POST",
    url,
    headers: key === undefined ? {} : { authorization: `Bearer ${key}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe("the owner's API keys", () => {
  it("creates a key shown once, stored only hashed, listed without the key", async () => {
    const { key, apiKey } = await createKey(["orders.read", "inventory.read"]);
    expect(key).toMatch(/^atl_[A-Za-z0-9_-]{40}$/);
    expect(apiKey).toMatchObject({ name: "Warehouse sync", scopes: ["orders.read", "inventory.read"] });
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.keyHash).toBe(hashToken(key));
    const list = await owner.request({ url: keysUrl() });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key);
    expect(list.json().apiKeys).toEqual([
      expect.objectContaining({
        id: apiKey.id,
        prefix: apiKey.prefix,
        lastUsedOn: null,
        createdOn: expect.any(Number),
      }),
    ]);
    await owner.request({ method: "DELETE", url: `${keysUrl()}/${apiKey.id}` });
  });

  it("grants the <area>.read / <area>.write scopes beside the first ones", async () => {
    const scopes = ["products.write", "content.read", "webhooks.write", "site_users.read", "inventory.read"];
    const { apiKey } = await createKey(scopes);
    expect(apiKey.scopes.sort()).toEqual([...scopes].sort());
  });

  it("refuses bad names and scopes, and calls without the crumb", async () => {
    const post = (payload: unknown) =>
      owner.request({ method: "POST", url: keysUrl(), payload: payload as object });
    for (const payload of [
      { name: "", scopes: ["orders.read"] },
      { name: "x".repeat(101), scopes: ["orders.read"] },
      { name: "Sync", scopes: [] },
      { name: "Sync", scopes: ["orders.delete"] },
      { name: "Sync", scopes: ["webhooks.admin"] },
      { name: "Sync", scopes: ["orders.read", "orders.read"] },
      { name: "Sync" },
      { name: "Sync", scopes: ["orders.read"], websiteId: eveSiteId },
    ]) {
      const res = await post(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBeTruthy();
    }
    const blank = await post({ name: "   ", scopes: ["orders.read"] });
    expect(blank.json().error.message).toBe("Give the key a name of 1 to 100 characters.");
    const noCrumb = await owner.request({
      method: "POST",
      url: keysUrl(),
      payload: { name: "Sync", scopes: ["orders.read"] },
      withCrumb: false,
    });
    expect(noCrumb.statusCode).toBe(403);
  });

  it(`allows at most ${MAX_LIVE_KEYS} live keys; a deleted key frees a place`, async () => {
    const made = [];
    for (let i = 0; i < MAX_LIVE_KEYS; i++) made.push(await createKey(["products.read"], `Key ${i}`));
    const over = await owner.request({
      method: "POST",
      url: keysUrl(),
      payload: { name: "One more", scopes: ["products.read"] },
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe(MSG_TOO_MANY_KEYS);
    const del = await owner.request({ method: "DELETE", url: `${keysUrl()}/${made[0]!.apiKey.id}` });
    expect(del.statusCode).toBe(200);
    const again = await createKey(["products.read"], "One more");
    for (const k of [...made.slice(1), again]) {
      await owner.request({ method: "DELETE", url: `${keysUrl()}/${k.apiKey.id}` });
    }
    expect((await owner.request({ url: keysUrl() })).json().apiKeys).toEqual([]);
  });

  it("deletes only the site's own live keys: unknown, revoked or another site's key is 404", async () => {
    const mine = await createKey(["orders.read"]);
    const theirs = await createKey(["orders.read"], "Eve's", eve, eveSiteId);
    const unknown = await owner.request({ method: "DELETE", url: `${keysUrl()}/0123456789abcdef01234567` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(MSG_NO_SUCH_KEY);
    // Eve's key through the demo site's path: not found, and still working.
    const cross = await owner.request({ method: "DELETE", url: `${keysUrl()}/${theirs.apiKey.id}` });
    expect(cross.statusCode).toBe(404);
    expect((await call(theirs.key, "/api/1/commerce/orders")).statusCode).toBe(200);
    // Eve cannot list or delete the demo site's keys.
    expect((await eve.request({ url: keysUrl() })).statusCode).toBe(404);
    expect((await eve.request({ method: "DELETE", url: `${keysUrl()}/${mine.apiKey.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await owner.request({ method: "DELETE", url: `${keysUrl()}/${mine.apiKey.id}` })).statusCode,
    ).toBe(200);
    expect(
      (await owner.request({ method: "DELETE", url: `${keysUrl()}/${mine.apiKey.id}` })).statusCode,
    ).toBe(404);
    expect((await owner.request({ method: "DELETE", url: `${keysUrl()}/not-an-id` })).statusCode).toBe(400);
  });
});

describe("the public commerce API", () => {
  it("answers 401 without a key, with an unknown key and with a deleted key", async () => {
    const none = await call(undefined, "/api/1/commerce/inventory");
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: { code: "unauthorized", message: MSG_NO_KEY } });
    for (const header of ["Basic abc", "Bearer", "Bearer atl_unknown", "Bearer nope"]) {
      const res = await t.app.inject({
        url: "/api/1/commerce/inventory",
        headers: { authorization: header },
      });
      expect(res.statusCode, header).toBe(401);
      expect(res.json().error.code).toBe("unauthorized");
    }
    const { key, apiKey } = await createKey(["inventory.read"]);
    expect((await call(key, "/api/1/commerce/inventory")).statusCode).toBe(200);
    await owner.request({ method: "DELETE", url: `${keysUrl()}/${apiKey.id}` });
    const revoked = await call(key, "/api/1/commerce/inventory");
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error.message).toBe(MSG_BAD_KEY);
    // Even with bad input, a call without a valid key is 401 first.
    expect((await call(key, "/api/1/commerce/inventory/adjustments", { adjustments: "x" })).statusCode).toBe(
      401,
    );
  });

  it("ignores owner cookies: the session alone opens nothing", async () => {
    const res = await owner.request({ url: "/api/1/commerce/orders" });
    expect(res.statusCode).toBe(401);
  });

  it("answers 403 naming the missing scope", async () => {
    const { key } = await createKey(["orders.read"]);
    for (const [url, scope] of [
      ["/api/1/commerce/products", "products.read"],
      ["/api/1/commerce/inventory", "inventory.read"],
    ] as const) {
      const res = await call(key, url);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: "forbidden", message: missingScope(scope) });
    }
    const write = await call(key, "/api/1/commerce/inventory/adjustments", {
      adjustments: [{ variantId: "0123456789abcdef01234567", quantityDelta: 1 }],
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.message).toBe("This API key does not have the inventory.write scope.");
  });

  it("lists orders with lines, totals in cents and statuses, with a cursor; updates lastUsedAt", async () => {
    const beanie = await product(db(), "wool-beanie");
    for (const email of ["a@example.com", "b@example.com", "c@example.com"]) {
      const s = await new Shopper(t).start();
      await s.add(beanie.itemId, beanie.variants[0]!.sku, 1);
      expect((await s.order(orderBody({ email }))).statusCode).toBe(201);
    }
    const { key, apiKey } = await createKey(["orders.read"]);
    const first = await call(key, "/api/1/commerce/orders?limit=2");
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1.orders).toHaveLength(2);
    expect(page1.orders[0]).toMatchObject({
      email: "c@example.com",
      paymentStatus: "paid",
      fulfillmentStatus: "unfulfilled",
      grandTotalCents: expect.any(Number),
      lines: [
        expect.objectContaining({
          sku: beanie.variants[0]!.sku,
          quantity: 1,
          unitPriceCents: expect.any(Number),
        }),
      ],
    });
    expect(page1.nextCursor).toBe("2");
    const page2 = (await call(key, `/api/1/commerce/orders?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.orders[0].email).toBe("a@example.com");
    const [row] = await db().select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
    const listed = (await owner.request({ url: keysUrl() })).json().apiKeys;
    expect(listed.find((k: { id: string }) => k.id === apiKey.id).lastUsedOn).toBe(
      row!.lastUsedAt!.getTime(),
    );
  });

  it("lists products with variants, and the inventory of every variant with a cursor", async () => {
    const { key } = await createKey(["products.read", "inventory.read"]);
    const products = (await call(key, "/api/1/commerce/products")).json();
    const beanie = await product(db(), "wool-beanie");
    const listed = products.products.find((p: { id: string }) => p.id === beanie.itemId);
    expect(listed).toMatchObject({ title: beanie.title, productType: expect.any(Number) });
    expect(listed.variants[0]).toMatchObject({
      id: beanie.variants[0]!.id,
      sku: beanie.variants[0]!.sku,
      priceCents: beanie.variants[0]!.priceCents,
      qtyInStock: expect.any(Number),
      unlimited: expect.any(Boolean),
    });
    const all: { variantId: string; sku: string; qtyInStock: number; unlimited: boolean }[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(key, `/api/1/commerce/inventory${cursor ? `?cursor=${cursor}` : ""}`);
      expect(res.statusCode).toBe(200);
      all.push(...res.json().inventory);
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(all.find((v) => v.variantId === beanie.variants[0]!.id)).toMatchObject({
      sku: beanie.variants[0]!.sku,
      qtyInStock: await stockOf(db(), beanie.variants[0]!.id),
    });
  });

  it("adjusts stock in one transaction, refuses going below 0 with 409 and changes nothing", async () => {
    const { key } = await createKey(["inventory.write"]);
    const tote = await product(db(), "everyday-tote");
    const beanie = await product(db(), "wool-beanie");
    const [a, b] = [tote.variants[0]!.id, beanie.variants[0]!.id];
    await setStock(db(), a, 5);
    await setStock(db(), b, 2);
    const adjust = (adjustments: unknown) =>
      call(key, "/api/1/commerce/inventory/adjustments", { adjustments });
    const ok = await adjust([
      { variantId: a, quantityDelta: 3 },
      { variantId: b, quantityDelta: -2 },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(await stockOf(db(), a)).toBe(8);
    expect(await stockOf(db(), b)).toBe(0);
    const below = await adjust([
      { variantId: a, quantityDelta: 1 },
      { variantId: b, quantityDelta: -1 },
    ]);
    expect(below.statusCode).toBe(409);
    expect(below.json().error.message).toBe(MSG_BELOW_ZERO);
    expect(await stockOf(db(), a)).toBe(8);
    expect(await stockOf(db(), b)).toBe(0);
    // Deltas of one variant add up: 8 - 5 - 4 is below 0.
    expect(
      (
        await adjust([
          { variantId: a, quantityDelta: -5 },
          { variantId: a, quantityDelta: -4 },
        ])
      ).statusCode,
    ).toBe(409);
    expect(await stockOf(db(), a)).toBe(8);
    // Back in stock: the restock notification job is queued, as from the inventory panel.
    const queued = async () =>
      (await db().select().from(jobs).where(eq(jobs.kind, RESTOCK_JOB))).filter(
        (j) => j.payload.variantId === b,
      ).length;
    const before = await queued();
    expect((await adjust([{ variantId: b, quantityDelta: 4 }])).json().variants).toEqual([
      expect.objectContaining({ variantId: b, qtyInStock: 4 }),
    ]);
    expect(await queued()).toBe(before + 1);
  });

  it("refuses bad adjustments with 400, never 500", async () => {
    const { key } = await createKey(["inventory.write"]);
    const v = (await product(db(), "everyday-tote")).variants[0]!.id;
    const tooMany = Array.from({ length: 51 }, () => ({ variantId: v, quantityDelta: 1 }));
    for (const body of [
      {},
      { adjustments: [] },
      { adjustments: tooMany },
      { adjustments: [{ variantId: v }] },
      { adjustments: [{ variantId: v, quantityDelta: 1.5 }] },
      { adjustments: [{ variantId: v, quantityDelta: "1" + "0".repeat(20) }] },
      { adjustments: [{ variantId: "nope", quantityDelta: 1 }] },
      { adjustments: [{ variantId: v, quantityDelta: 1, websiteId: "x" }] },
      { adjustments: [{ variantId: v, quantityDelta: 10_000_000 }] },
    ]) {
      const res = await call(key, "/api/1/commerce/inventory/adjustments", body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.message).toBeTruthy();
    }
    const junk = await t.app.inject({
      method: "POST",
      url: "/api/1/commerce/inventory/adjustments",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: "{not json",
    });
    expect(junk.statusCode).toBe(400);
    const { key: reader } = await createKey(["orders.read", "products.read"]);
    for (const url of [
      "/api/1/commerce/orders?limit=0",
      "/api/1/commerce/orders?limit=101",
      "/api/1/commerce/orders?cursor=abc",
      "/api/1/commerce/orders?cursor=-1",
      "/api/1/commerce/products?cursor=x",
      "/api/1/commerce/orders?unknown=1",
    ]) {
      expect((await call(reader, url)).statusCode, url).toBe(400);
    }
  });

  it("a key of one site never sees or changes another site", async () => {
    const demoKey = (await createKey(["orders.read", "products.read", "inventory.read", "inventory.write"]))
      .key;
    const eveKey = (
      await createKey(
        ["orders.read", "products.read", "inventory.read", "inventory.write"],
        "Eve",
        eve,
        eveSiteId,
      )
    ).key;
    const demoInventory = (await call(demoKey, "/api/1/commerce/inventory")).json().inventory;
    expect(demoInventory.length).toBeGreaterThan(0);
    expect((await call(eveKey, "/api/1/commerce/orders")).json().orders).toEqual([]);
    expect((await call(eveKey, "/api/1/commerce/products")).json().products).toEqual([]);
    expect((await call(eveKey, "/api/1/commerce/inventory")).json().inventory).toEqual([]);
    // The host names nothing: the demo site's host with Eve's key is still Eve's site.
    const viaHost = await t.app.inject({
      url: "/api/1/commerce/inventory",
      headers: { authorization: `Bearer ${eveKey}`, host: "demo.localhost" },
    });
    expect(viaHost.json().inventory).toEqual([]);
    const variantId = demoInventory[0].variantId;
    const before = await stockOf(db(), variantId);
    const cross = await call(eveKey, "/api/1/commerce/inventory/adjustments", {
      adjustments: [{ variantId, quantityDelta: 1 }],
    });
    expect(cross.statusCode).toBe(404);
    expect(await stockOf(db(), variantId)).toBe(before);
  });

  it("rate limits each key to 120 calls a minute", async () => {
    const { key } = await createKey(["inventory.read"]);
    const other = (await createKey(["inventory.read"])).key;
    let last = 0;
    for (let i = 0; i < 121; i++)
      last = (await call(key, "/api/1/commerce/inventory?cursor=ffffffffffffffffffffffff")).statusCode;
    expect(last).toBe(429);
    expect((await call(other, "/api/1/commerce/inventory?cursor=ffffffffffffffffffffffff")).statusCode).toBe(
      200,
    );
  });
});
