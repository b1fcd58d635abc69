/**
 * API keys on the whole owner API, generated from the app's route table: every owner route on a
 * site is called with a key of the site lacking the route's permission (403 forbidden) and with one
 * having it (never 403), with no cookie and no crumb. Routes of areas no key may have (the team,
 * the keys, billing) and a person's own drafts refuse every key; a key of another site is the 404
 * of a non-member; the account's own routes refuse keys. An integration manages its webhooks.
 */
import { API_SCOPES, KEY_AREAS } from "@atelier/owner-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, demoOwner, ownerWithSite } from "../../../test/harness.js";
import { apiKeys } from "../../db/schema.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { ANY_MEMBER } from "../members/permissions.js";

let t: TestApp;
let siteId: string;
let otherSiteId: string;
const UNKNOWN_ID = "0123456789abcdef01234567";

beforeAll(async () => {
  t = await createTestApp({
    seed: true,
    env: { WEBHOOKS_ALLOW_HTTP: "true", WEBHOOKS_ALLOW_PRIVATE: "true" },
  });
  ({ siteId } = await demoOwner(t));
  ({ siteId: otherSiteId } = await ownerWithSite(t, "other@example.com"));
}, 60_000);
afterAll(() => t.close());

/** A live key of the site with the scopes, written straight to the table (no 20-key limit here). */
async function key(scopes: readonly string[], site = siteId): Promise<string> {
  const token = `atl_${newToken(30)}`;
  await t.database.db.insert(apiKeys).values({
    id: newId(),
    websiteId: site,
    name: `Key ${scopes.length}`,
    prefix: token.slice(0, 12),
    keyHash: hashToken(token),
    scopes: [...scopes],
  });
  return token;
}

const call = (token: string | undefined, method: string, url: string, payload?: object) =>
  t.app.inject({
    method: method as "GET",
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(payload ? { payload } : {}),
  });

const isSiteRoute = (url: string) => /:(siteId|websiteId)\b/.test(url);
const urlOf = (route: string, site: string) =>
  route
    .replace(/:(siteId|websiteId)\b/, site)
    .replace(/:([A-Za-z]+)/g, UNKNOWN_ID)
    .replace(/\*/g, "shop") + (isSiteRoute(route) ? "" : `?siteId=${site}`);
const bodyOf = (method: string) => (method === "GET" || method === "DELETE" ? undefined : {});

describe("API keys on every owner route", () => {
  it("refuses a key lacking the route's permission and lets one having it through", async () => {
    const routes = t.app.routeList.filter(
      (r) => r.url.startsWith("/api/owner/") && (isSiteRoute(r.url) || r.permission),
    );
    expect(routes.length).toBeGreaterThan(60);
    const every = await key(API_SCOPES);
    /** For each area, a key with every scope but the area's write, and one without the area at all. */
    const lacking = new Map<string, string>();
    for (const area of KEY_AREAS) {
      const legacy = area === "design" ? ["templates.read", "templates.write"] : [];
      lacking.set(
        `${area}.write`,
        await key(API_SCOPES.filter((s) => s !== `${area}.write` && s !== "templates.write")),
      );
      lacking.set(
        `${area}.read`,
        await key(API_SCOPES.filter((s) => !s.startsWith(`${area}.`) && !legacy.includes(s))),
      );
    }
    const failures: string[] = [];
    let refused = 0;
    let allowed = 0;
    for (const r of routes) {
      const permission = r.permission!;
      const url = urlOf(r.url, siteId);
      const name = `${r.method} ${r.url} (${permission})`;
      const withEvery = await call(every, r.method, url, bodyOf(r.method));
      const area = permission.split(".")[0] as (typeof KEY_AREAS)[number];
      const personOnly = r.personOnly === true;
      if (permission === ANY_MEMBER || (KEY_AREAS.includes(area) && !personOnly)) {
        allowed++;
        if (withEvery.statusCode === 403 || withEvery.statusCode === 401)
          failures.push(
            `${name} → ${withEvery.statusCode} with every scope: ${withEvery.body.slice(0, 120)}`,
          );
      } else if (withEvery.statusCode !== 403 || withEvery.json().error.code !== "forbidden") {
        failures.push(`${name} → ${withEvery.statusCode} for a key, not 403`);
      }
      const without = lacking.get(permission);
      if (!without) continue;
      const res = await call(without, r.method, url, bodyOf(r.method));
      refused++;
      if (res.statusCode !== 403) failures.push(`${name} → ${res.statusCode} without the scope, not 403`);
      else if (res.json().error.code !== "forbidden") failures.push(`${name} → ${res.body.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(60);
    expect(allowed).toBeGreaterThan(60);
  }, 240_000);

  it("answers a key of another site 404, as for a person who is not a member", async () => {
    const theirs = await key(API_SCOPES, otherSiteId);
    for (const path of ["/orders", "/products", "/webhooks"]) {
      const res = await call(theirs, "GET", `/api/owner/sites/${siteId}${path}`);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await call(theirs, "GET", `/api/owner/sites/${otherSiteId}/orders`)).statusCode).toBe(200);
  });

  it("refuses keys on the routes that are not about a site, and unknown keys everywhere", async () => {
    const every = await key(API_SCOPES);
    for (const [method, url] of [
      ["GET", "/api/owner/account"],
      ["GET", "/api/owner/sites"],
      ["GET", "/api/owner/account/sessions"],
      ["POST", "/api/owner/sites"],
    ] as const) {
      const res = await call(
        every,
        method,
        url,
        method === "POST" ? { title: "X", theme: "classic" } : undefined,
      );
      // 401 (no session), or 403 for a change without the crumb: never through.
      expect([401, 403], url).toContain(res.statusCode);
    }
    const unknown = await call("atl_unknownunknownunknown", "GET", `/api/owner/sites/${siteId}/orders`);
    expect(unknown.statusCode).toBe(401);
  });

  it("keeps the first scope names working: templates.* are the design permissions", async () => {
    const reader = await key(["templates.read"]);
    const base = `/api/owner/sites/${siteId}`;
    expect((await call(reader, "GET", `${base}/templates`)).statusCode).toBe(200);
    expect((await call(reader, "GET", `${base}/design`)).statusCode).toBe(200);
    const put = await call(reader, "PUT", `${base}/templates/site.region`, { source: "x" });
    expect(put.statusCode).toBe(403);
    expect(put.json().error.code).toBe("forbidden");
    const orders = await call(await key(["orders.read"]), "GET", `${base}/orders`);
    expect(orders.statusCode).toBe(200);
  });

  it("lets an integration manage its own webhook subscriptions with a key, no cookie nor crumb", async () => {
    const base = `/api/owner/sites/${siteId}/webhooks`;
    const readOnly = await key(["webhooks.read"]);
    const refused = await call(readOnly, "POST", base, {
      url: "https://hooks.example.com/in",
      topics: ["order.created"],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({
      code: "forbidden",
      message: "This API key does not have the webhooks.write scope.",
    });
    const integration = await key(["webhooks.write"]);
    const created = await call(integration, "POST", base, {
      url: "https://hooks.example.com/in",
      topics: ["order.created", "inventory.updated"],
      description: "Warehouse",
    });
    expect(created.statusCode).toBe(201);
    const { webhook, secret } = created.json();
    expect(secret).toMatch(/^whsec_/);
    const listed = await call(integration, "GET", base);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().webhooks.map((w: { id: string }) => w.id)).toContain(webhook.id);
    const paused = await call(integration, "PATCH", `${base}/${webhook.id}`, { active: false });
    expect(paused.statusCode).toBe(200);
    expect(paused.json().webhook.active).toBe(false);
    expect((await call(integration, "POST", `${base}/${webhook.id}/rotate-secret`, {})).statusCode).toBe(200);
    expect((await call(integration, "DELETE", `${base}/${webhook.id}`)).statusCode).toBeLessThan(300);
    expect((await call(integration, "GET", `${base}/${webhook.id}`)).statusCode).toBe(404);
  });
});
