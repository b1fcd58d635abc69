/**
 * The activity log: every change through the owner API (a person in the dashboard or an API key)
 * gets one entry in the change's transaction, with who, when, from where and the names of the
 * fields sent (never secrets); a refused change gets none. Filters, the cursor, CSV, pruning after
 * a year (the clock moved), and no call that changes or deletes an entry.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, DEMO_OWNER, type TestApp, createTestApp, demoOwner } from "../../../test/harness.js";
import { activityEntries, apiKeys, events } from "../../db/schema.js";
import { runHousekeeping } from "../jobs/plugin.js";
import { changedFields, describeCall, fieldNames } from "./recording.js";
import { listActivity } from "./service.js";
import { product } from "../checkout/test-helpers.js";

let now = new Date("2026-03-01T10:00:00Z");
let t: TestApp;
let owner: Browser;
let siteId: string;
let ownerId: string;
const db = () => t.database.db;
const api = (path: string) => `/api/owner/sites/${siteId}${path}`;
const UA = "Mozilla/5.0 (X11; Linux x86_64) ActivityTest/1.0";

beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    clock: { now: () => now },
    // hooks.example.com does not resolve here: private addresses allowed, http still refused.
    env: { WEBHOOKS_ALLOW_HTTP: "false", WEBHOOKS_ALLOW_PRIVATE: "true" },
  });
  ({ owner, siteId } = await demoOwner(t));
  ownerId = (await owner.request({ url: "/api/owner/account" })).json().account.id;
}, 180_000);
afterAll(() => t.close());

const entries = async (query = "") => {
  const res = await owner.request({ url: api(`/activity${query}`) });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    entries: {
      id: string;
      at: string;
      actor: { type: string; id: string; email: string | null; name: string };
      ip: string;
      userAgent: string;
      area: string;
      action: string;
      entity: { type: string; id: string | null };
      fields: string[];
    }[];
    nextCursor: string | null;
    actors: { id: string; name: string }[];
  };
};

async function newWebhook(by: (o: object) => Promise<{ statusCode: number; json(): any }>) {
  const res = await by({
    url: "https://hooks.example.com/in",
    topics: ["order.created"],
    description: "Accounting",
  });
  expect(res.statusCode).toBe(201);
  return res.json().webhook.id as string;
}

describe("recording", () => {
  it("records a person's change with who, when, where, the entity and the fields sent", async () => {
    const before = (await entries()).entries.length;
    const id = await newWebhook((payload) =>
      owner.request({
        method: "POST",
        url: api("/webhooks"),
        payload,
        headers: { "user-agent": UA },
        remoteAddress: "203.0.113.7",
      }),
    );
    const { entries: list } = await entries();
    expect(list).toHaveLength(before + 1);
    expect(list[0]).toMatchObject({
      at: now.toISOString(),
      actor: { type: "account", id: ownerId, email: DEMO_OWNER.email },
      ip: "203.0.113.7",
      userAgent: UA,
      area: "webhooks",
      action: "webhook.created",
      entity: { type: "webhook", id },
      fields: ["url", "topics", "description"],
    });
    const patched = await owner.request({
      method: "PATCH",
      url: api(`/webhooks/${id}`),
      payload: { active: false },
    });
    expect(patched.statusCode).toBe(200);
    expect((await entries()).entries[0]).toMatchObject({
      action: "webhook.updated",
      entity: { type: "webhook", id },
      fields: ["active"],
    });
  });

  it("records an API key's change as the key, by its name", async () => {
    const created = await owner.request({
      method: "POST",
      url: api("/api-keys"),
      payload: { name: "Accounting sync", scopes: ["webhooks.write"] },
    });
    expect(created.statusCode).toBe(201);
    const { key, apiKey } = created.json();
    expect((await entries()).entries[0]).toMatchObject({
      action: "api_key.created",
      fields: ["name", "scopes"],
    });
    const id = await newWebhook((payload) =>
      t.app.inject({
        method: "POST",
        url: api("/webhooks"),
        payload,
        headers: { authorization: `Bearer ${key}`, "user-agent": "accounting-sync/2.1" },
      }),
    );
    const latest = (await entries()).entries[0]!;
    expect(latest).toMatchObject({
      actor: { type: "api_key", id: apiKey.id, email: null, name: "Accounting sync" },
      userAgent: "accounting-sync/2.1",
      action: "webhook.created",
      entity: { type: "webhook", id },
    });
    // The events an owner call records carry its person or key (here a stock change by the key).
    await db()
      .update(apiKeys)
      .set({ scopes: ["inventory.write"] })
      .where(eq(apiKeys.id, apiKey.id));
    const variant = (await product(db(), "wool-beanie")).variants[0]!;
    const stock = await t.app.inject({
      method: "PATCH",
      url: api(`/variants/${variant.id}/stock`),
      payload: { delta: 1 },
      headers: { authorization: `Bearer ${key}` },
    });
    expect(stock.statusCode).toBe(200);
    const changed = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, "inventory.updated"), eq(events.entityId, variant.id)));
    expect(changed.at(-1)).toMatchObject({ actorType: "api_key", actorId: apiKey.id });
    expect((await entries()).entries[0]).toMatchObject({
      action: "variant.stock",
      area: "inventory",
      entity: { type: "variant", id: variant.id },
      fields: ["delta"],
    });
    await db().update(apiKeys).set({ revokedAt: now }).where(eq(apiKeys.id, apiKey.id));
  });

  it("records nothing for a refused change, and never a secret's name", async () => {
    const before = (await entries()).entries.length;
    const refused = await owner.request({
      method: "POST",
      url: api("/webhooks"),
      payload: { url: "http://hooks.example.com/in", topics: ["order.created"] },
    });
    expect(refused.statusCode).toBe(400);
    const wrongPassword = await owner.request({
      method: "POST",
      url: api("/transfer-ownership"),
      payload: { accountId: "0123456789abcdef01234567", password: "not the password" },
    });
    expect(wrongPassword.statusCode).toBeGreaterThanOrEqual(400);
    expect((await entries()).entries.length).toBe(before);
    expect(
      fieldNames({
        title: "x",
        password: "p",
        newPassword: "p",
        currentPassword: "p",
        secret: "s",
        card: { number: "4242" },
        cardNumber: "4242",
        settings: { colour: "red", apiToken: "t" },
      }),
    ).toEqual(["title", "settings.colour"]);
  });

  it("records a site export once its whole archive has been sent", async () => {
    const before = (await entries()).entries.length;
    const exported = await owner.request({ url: api("/export") });
    expect(exported.statusCode).toBe(200);
    // The entry is written as the answer finishes, beside the client reading its last byte.
    await expect.poll(async () => (await entries()).entries.length).toBe(before + 1);
    expect((await entries()).entries[0]).toMatchObject({
      action: "site.exported",
      area: "settings",
      actor: { id: ownerId },
    });
    // A download that is refused (no such prepared archive) leaves none.
    const refused = await owner.request({ url: api("/exports/nosuchexport/download") });
    expect(refused.statusCode).toBe(404);
    expect((await entries()).entries.length).toBe(before + 1);
  });

  it("names only the fields a save changed, not every field it sent", async () => {
    const site = (await owner.request({ url: api("") })).json().site as { title: string };
    const renamed = await owner.request({
      method: "PATCH",
      url: api(""),
      payload: { title: site.title, tagline: "Hand-made in small batches" },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await entries()).entries[0]).toMatchObject({
      action: "site.updated",
      entity: { type: "site", id: siteId },
      fields: ["tagline"],
    });

    const { pages } = (await owner.request({ url: api("/pages") })).json() as {
      pages: { id: string; kind: string; title: string }[];
    };
    const page = pages.find((p) => p.kind === "page")!;
    const body = { title: page.title, description: "About the workshop and its people" };
    const saved = await owner.request({ method: "PATCH", url: api(`/pages/${page.id}`), payload: body });
    expect(saved.statusCode).toBe(200);
    expect((await entries()).entries[0]).toMatchObject({
      action: "page.updated",
      entity: { type: "page", id: page.id },
      fields: ["description"],
    });
    // The same body again changes nothing: the entry names no field.
    const again = await owner.request({ method: "PATCH", url: api(`/pages/${page.id}`), payload: body });
    expect(again.statusCode).toBe(200);
    expect((await entries()).entries[0]).toMatchObject({ action: "page.updated", fields: [] });

    // The rule itself: values compared, bookkeeping and secrets never named, fields it cannot see kept.
    expect(
      changedFields(
        { title: "A", tagline: "x", updatedAt: "1", apiSecret: "s", styles: { a: 1 } },
        { title: "A", tagline: "y", updatedAt: "2", apiSecret: "t", styles: { a: 2 } },
        ["title", "tagline", "folderId", "password"],
      ),
    ).toEqual(["tagline", "styles", "folderId", "password"]);
  });

  it("writes a one-statement change and its entry in one transaction", async () => {
    const id = await newWebhook((payload) =>
      owner.request({ method: "POST", url: api("/webhooks"), payload }),
    );
    const patched = await owner.request({
      method: "PATCH",
      url: api(`/webhooks/${id}`),
      payload: { description: "Bookkeeping" },
    });
    expect(patched.statusCode).toBe(200);
    const entry = (await entries()).entries[0]!;
    expect(entry).toMatchObject({ action: "webhook.updated", fields: ["description"] });
    // Rows written by one transaction carry its id (xmin): the change's and the entry's are the same.
    const xmin = async (query: ReturnType<typeof sql>) =>
      ((await db().execute(query)) as unknown as { rows: { tx: string }[] }).rows[0]?.tx;
    const changed = await xmin(sql`select xmin::text as tx from webhooks where id = ${id}`);
    const logged = await xmin(
      sql`select xmin::text as tx from activity_entries where id = ${Number(entry.id)}`,
    );
    expect(changed).toBeTruthy();
    expect(logged).toBe(changed);
    // A change refused by its own rule (a topic that does not exist) leaves no entry.
    const count = (await entries()).entries.length;
    const refused = await owner.request({
      method: "PATCH",
      url: api(`/webhooks/${id}`),
      payload: { topics: ["no.such.topic"] },
    });
    expect(refused.statusCode).toBe(400);
    expect((await entries()).entries.length).toBe(count);
  });

  it("names every owner change by its route: entity and action", () => {
    expect(
      describeCall("PATCH", "/api/owner/sites/:siteId/products/:productId", { productId: "p1" }),
    ).toEqual({
      entityType: "product",
      entityId: "p1",
      action: "product.updated",
    });
    expect(
      describeCall("POST", "/api/owner/sites/:siteId/orders/:orderId/refunds", { orderId: "o1" }),
    ).toEqual({ entityType: "order", entityId: "o1", action: "order.refunds" });
    expect(describeCall("PATCH", "/api/owner/sites/:siteId", { siteId: "s1" })).toEqual({
      entityType: "site",
      entityId: "s1",
      action: "site.updated",
    });
    const changes = t.app.routeList.filter(
      (r) => r.url.startsWith("/api/owner/sites/:siteId") && r.method !== "GET",
    );
    for (const r of changes) {
      const { action } = describeCall(r.method, r.url, {});
      expect(action, `${r.method} ${r.url}`).toMatch(/^[a-z_]+\.[a-z_.]+$/);
    }
  });
});

describe("reading the log", () => {
  it("filters by person, area and date, and pages with a cursor", async () => {
    const day1 = now.toISOString().slice(0, 10);
    now = new Date(now.getTime() + 3 * 86_400_000);
    const day2 = now.toISOString().slice(0, 10);
    await newWebhook((payload) => owner.request({ method: "POST", url: api("/webhooks"), payload }));
    const all = await entries();
    const byPerson = await entries(`?actor=${ownerId}`);
    expect(byPerson.entries.every((e) => e.actor.id === ownerId)).toBe(true);
    expect(byPerson.entries.length).toBeLessThan(all.entries.length);
    expect(all.actors.map((a) => a.name)).toEqual(
      expect.arrayContaining([DEMO_OWNER.email, "Accounting sync"]),
    );
    const keys = await entries("?area=api_keys");
    expect(keys.entries.map((e) => e.action)).toEqual(["api_key.created"]);
    const onDay2 = await entries(`?from=${day2}&to=${day2}`);
    expect(onDay2.entries).toHaveLength(1);
    const onDay1 = await entries(`?from=${day1}&to=${day1}`);
    expect(onDay1.entries.length).toBe(all.entries.length - 1);
    // Pages of 2 through the service; the API's nextCursor is the same cursor.
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listActivity(db(), siteId, { cursor }, 2);
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all.entries.map((e) => e.id));
    const second = await entries(`?cursor=${all.entries[1]!.id}`);
    expect(second.entries.map((e) => e.id)).toEqual(all.entries.slice(2).map((e) => e.id));
    for (const bad of ["?from=2026-13-01", "?to=yesterday", "?cursor=abc", "?area=nothing", "?actor=x"]) {
      expect((await owner.request({ url: api(`/activity${bad}`) })).statusCode, bad).toBe(400);
    }
  });

  it("exports the filtered log as CSV", async () => {
    const res = await owner.request({ url: api("/activity/export?area=webhooks") });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/csv");
    const lines = res.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,at,actor_type,actor_id,actor,ip,user_agent,area,action,entity_type,entity_id,fields",
    );
    const webhooks = (await entries("?area=webhooks")).entries;
    expect(lines).toHaveLength(webhooks.length + 1);
    expect(lines[1]).toContain(",webhooks,webhook.created,webhook,");
    expect(res.body).not.toContain("whsec_");
  });

  it("offers no call that changes or deletes an entry", () => {
    const calls = t.app.routeList.filter((r) => r.url.includes("/activity"));
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.method === "GET")).toBe(true);
  });

  it("prunes entries older than a year in the job queue's housekeeping", async () => {
    const count = async () =>
      (await db().select().from(activityEntries).where(eq(activityEntries.websiteId, siteId))).length;
    const before = await count();
    const newest = (await entries()).entries[0]!;
    // A year and a day after the first entries, two days before the newest's birthday.
    now = new Date(new Date("2026-03-01T10:00:00Z").getTime() + 366 * 86_400_000);
    await runHousekeeping({ ...t.app.deps, clock: { now: () => now } });
    const left = await db().select().from(activityEntries).where(eq(activityEntries.websiteId, siteId));
    expect(left.map((e) => String(e.id))).toEqual([newest.id]);
    expect(before).toBeGreaterThan(1);
  });
});
