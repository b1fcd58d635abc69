/**
 * Sends bad input to every route the server has (found at start, so new routes are covered
 * without editing this file): malformed JSON, wrong types, oversized bodies, unknown ids,
 * junk query strings. Nothing may answer 5xx, and API errors are JSON in the one error shape.
 */
import net from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "../src/db/schema.js";
import { Browser, type TestApp, createTestApp, signIn, demoSite, siteUserXsrf } from "./harness.js";

let t: TestApp;
let b: Browser;
/** Ids of real rows of the demo site, by route parameter name (see realId). */
let real: Record<string, string>;
let xsrf: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  b = new Browser(t.app);
  await b.visit("/");
  // Logged in as the demo owner and as a site user, so their routes get past authentication
  // to the input itself.
  await signIn(b);
  // Site-user calls carry the session's XSRF token in a header (SPEC §6).
  xsrf = await siteUserXsrf(b, "shopper@example.com");
  const db = t.database.db;
  const site = await demoSite(db);
  const ofSite = { websiteId: site.id };
  const [shop] = await db
    .select()
    .from(s.collections)
    .where(and(eq(s.collections.websiteId, site!.id), eq(s.collections.kind, "products")));
  const [page] = await db
    .select()
    .from(s.collections)
    .where(and(eq(s.collections.websiteId, site!.id), eq(s.collections.kind, "page")));
  const [variant] = await db.select().from(s.productVariants).where(eq(s.productVariants.unlimited, true));
  const [form] = await db.select().from(s.forms).where(eq(s.forms.websiteId, ofSite.websiteId));
  const [media] = await db.select().from(s.media).where(eq(s.media.websiteId, ofSite.websiteId));
  const [coupon] = await db.select().from(s.coupons).where(eq(s.coupons.websiteId, ofSite.websiteId));
  const [shipping] = await db.select().from(s.shippingRules).where(eq(s.shippingRules.websiteId, site!.id));
  const [tax] = await db.select().from(s.taxRules).where(eq(s.taxRules.websiteId, site!.id));
  // A cart entry of this visitor, for the cart entry routes.
  const added = await b.request({
    method: "POST",
    url: "/api/commerce/shopping-cart/entries",
    payload: { itemId: variant!.itemId, sku: variant!.sku, quantity: 1 },
  });
  const entryId = (added.json() as { shoppingCart: { entries: { id: string }[] } }).shoppingCart.entries[0]!
    .id;
  real = {
    siteId: site!.id,
    websiteId: site!.id,
    collectionId: shop!.id,
    itemId: variant!.itemId,
    productId: variant!.itemId,
    variantId: variant!.id,
    pageId: page!.id,
    formId: form!.id,
    entryId,
    mediaId: media!.id,
    couponId: coupon!.id,
    shippingId: shipping!.id,
    taxId: tax!.id,
  };
});
afterAll(() => t.close());

/** The id of a real row for a route parameter, so handlers get past "not found" to the input. */
function realId(url: string, param: string): string | undefined {
  if (param !== "id") return real[param];
  if (url.includes("/media")) return real.mediaId;
  if (url.includes("/coupons/")) return real.couponId;
  if (url.includes("/shipping-rules/")) return real.shippingId;
  if (url.includes("/tax-rules/")) return real.taxId;
  return undefined;
}

/** The route's URL with each parameter a real id where the demo has one, else `fallback`. */
function fillReal(url: string, fallback: string): string {
  return url
    .replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(realId(url, name) ?? fallback))
    .replace(/\*/g, "shop");
}

/** Signing out is tried last: before, it would leave every later route to answer only 401. */
const signOuts = new Set(["DELETE /api/owner/session", "DELETE /api/site-users/account/session"]);
/**
 * One-click unsubscribe links (RFC 8058): a mail client POSTs them with no cookie or crumb (the
 * token in the path is the secret), and a person who opens them gets a page, not JSON.
 */
const oneClickPages = new Set(["POST /cart/unsubscribe/:token", "POST /email/unsubscribe/:token"]);

async function expectStillSignedIn() {
  expect((await b.request({ url: "/api/owner/account" })).statusCode).toBe(200);
  expect((await b.request({ url: "/api/site-users/account", headers: xsrf })).statusCode).toBe(200);
}

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
  pattern?: string;
};

/**
 * A value the schema accepts, at its edge: "min" has only the required properties, empty or
 * shortest strings, the smallest numbers (negative when the schema allows them) and empty
 * arrays; "max" has every property, the longest strings and the largest numbers.
 */
function edgeValue(schema: Schema | undefined, mode: "min" | "max", depth = 0): unknown {
  if (!schema || depth > 8) return mode === "min" ? "" : "x".repeat(300);
  if ("const" in schema) return schema.const;
  if (schema.enum?.length) return mode === "min" ? schema.enum[0] : schema.enum.at(-1);
  const union = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (union?.length) {
    const branches = union.filter((u) => u.type !== "null");
    const pick = branches.length ? branches : union;
    return edgeValue(mode === "min" ? pick[0] : pick.at(-1), mode, depth + 1);
  }
  const types = [schema.type ?? (schema.properties ? "object" : undefined)]
    .flat()
    .filter((x) => x !== "null");
  const type = mode === "min" ? types[0] : types.at(-1);
  switch (type) {
    case "string": {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 5000, 20000);
      if (schema.format === "email")
        return mode === "min" ? "a@b.co" : `${"a".repeat(Math.max(1, Math.min(64, max - 12)))}@example.com`;
      if (schema.format === "date-time")
        return mode === "min" ? "1970-01-01T00:00:00.000Z" : "9999-12-31T23:59:59.999Z";
      if (schema.format === "date") return mode === "min" ? "1970-01-01" : "9999-12-31";
      if (schema.format === "uri")
        return mode === "min" ? "http://a.b" : `https://example.com/${"x".repeat(Math.max(0, max - 30))}`;
      // Ids: the routes' usual pattern, answered with an id no row has.
      if (schema.pattern?.includes("{24}")) return "0".repeat(24);
      return "x".repeat(mode === "min" ? min : Math.max(min, max));
    }
    case "integer":
    case "number": {
      const int = type === "integer";
      if (mode === "min") {
        if (schema.minimum !== undefined) return schema.minimum;
        if (schema.exclusiveMinimum !== undefined) return schema.exclusiveMinimum + (int ? 1 : 0.5);
        return int ? -1 : -0.5;
      }
      if (schema.maximum !== undefined) return schema.maximum;
      if (schema.exclusiveMaximum !== undefined) return schema.exclusiveMaximum - (int ? 1 : 0.5);
      return int ? Number.MAX_SAFE_INTEGER : 1e300;
    }
    case "boolean":
      return mode === "max";
    case "array": {
      const n = mode === "min" ? (schema.minItems ?? 0) : Math.min(schema.maxItems ?? 3, 60);
      return Array.from({ length: n }, () => edgeValue(schema.items, mode, depth + 1));
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (mode === "max" || schema.required?.includes(key)) out[key] = edgeValue(sub, mode, depth + 1);
      }
      const extra = schema.patternProperties
        ? Object.values(schema.patternProperties)[0]
        : schema.additionalProperties;
      if (mode === "max" && !schema.properties && extra && typeof extra === "object") {
        out.key = edgeValue(extra, mode, depth + 1);
      }
      return out;
    }
    default:
      return mode === "min" ? "" : { nested: ["x".repeat(300)] };
  }
}

/** The schema validator's own words, which must never reach a person (http/validation-messages.ts). */
const JARGON =
  /must be equal to|must match|must NOT|must be (?:string|number|integer|boolean|object|array|null)\b|must have required property|must have (?:more|fewer)|must be [<>]=?|must pass|allowed values|Invalid (?:body|querystring|params|headers)\b|instancePath|anyOf|oneOf|Expected (?:string|number|integer|boolean|object|array)/;

/** A value of the wrong JSON type for the schema: text where a number goes, a number where text goes… */
function wrongType(schema: Schema): unknown {
  const type = [schema.type ?? (schema.properties ? "object" : "string")].flat()[0];
  if (type === "string") return { not: "text" };
  if (type === "object" || type === "array") return "not a list or object";
  return { not: "a number or a yes/no" };
}

/** The schemas of a property that is a choice among fixed values (a union of literals, or an enum). */
const isChoice = (schema: Schema) =>
  Boolean(schema.enum) || Boolean(schema.anyOf?.length && schema.anyOf.every((b) => "const" in b));

/**
 * Bad bodies for one route, built from its schema: nothing at all (missing fields), an unknown
 * extra field, and for each property a wrong type, an unknown choice or text one character too long.
 */
function badBodies(schema: Schema): { name: string; body: unknown }[] {
  const base = edgeValue(schema, "min") as Record<string, unknown>;
  const out: { name: string; body: unknown }[] = [
    { name: "missing fields", body: {} },
    { name: "extra field", body: { ...base, zzNotAField: 1 } },
  ];
  if (typeof base !== "object" || base === null || Array.isArray(base)) return out;
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    const plain = sub.anyOf?.find((b) => b.type !== "null") ?? sub;
    out.push({ name: `${key}: wrong type`, body: { ...base, [key]: wrongType(plain) } });
    if (isChoice(sub))
      out.push({ name: `${key}: unknown choice`, body: { ...base, [key]: "zz-no-such-choice" } });
    if (plain.type === "string" && plain.maxLength !== undefined && plain.maxLength < 200_000) {
      out.push({ name: `${key}: too long`, body: { ...base, [key]: "x".repeat(plain.maxLength + 1) } });
    }
  }
  return out;
}

const junkIds = ["000000000000000000000000", "not-an-id", "%00", "..%2F..%2Fetc%2Fpasswd", "9".repeat(400)];

function fill(url: string, id: string): string {
  return url.replace(/:[A-Za-z]+/g, encodeURIComponent(id)).replace(/\*/g, `x/${encodeURIComponent(id)}`);
}

const bodies: { name: string; payload: string; contentType: string }[] = [
  { name: "malformed JSON", payload: '{"email": "a@b.c", ', contentType: "application/json" },
  { name: "JSON array", payload: "[1,2,3]", contentType: "application/json" },
  { name: "JSON null", payload: "null", contentType: "application/json" },
  {
    name: "wrong types",
    payload: JSON.stringify({
      email: 5,
      password: [],
      quantity: "many",
      itemId: {},
      sku: null,
      key: 1,
      form: 7,
    }),
    contentType: "application/json",
  },
  {
    name: "huge strings",
    payload: JSON.stringify({
      email: "x".repeat(5000),
      password: "y".repeat(5000),
      name: "z".repeat(100000),
    }),
    contentType: "application/json",
  },
  {
    name: "oversized body",
    payload: JSON.stringify({ blob: "x".repeat(3 * 1024 * 1024) }),
    contentType: "application/json",
  },
  {
    name: "wrong types for common fields",
    payload: JSON.stringify({
      title: 5,
      name: [],
      rows: "x",
      pages: {},
      ids: "x",
      variants: "many",
      price: "abc",
      priceCents: 1.5,
      qtyInStock: "lots",
      code: {},
      host: 7,
      kind: 9,
      outcome: [],
      event: {},
      productId: 5,
      variantId: [],
      formId: {},
      collectionId: 1,
      sendRequests: "x",
      token: 5,
      fields: "x",
      layout: 3,
      additionalFields: 4,
    }),
    contentType: "application/json",
  },
  {
    name: "well-typed but out-of-range values",
    payload: JSON.stringify({
      title: "",
      name: "",
      email: "not-an-email",
      password: "",
      quantity: -3,
      qty: 0,
      qtyInStock: -5,
      priceCents: -100,
      itemId: "",
      productId: "",
      variantId: "",
      sku: "",
      key: "",
      form: "{not json",
      additionalFields: "{not json",
      code: "",
      host: "",
      kind: "nonsense",
      rows: [],
      pages: [],
      ids: [],
      variants: [],
      fields: [],
      sendRequests: [],
      outcome: "nonsense",
      event: "",
      token: "",
      collectionId: "",
    }),
    contentType: "application/json",
  },
  { name: "form-encoded junk", payload: "a=%ZZ&&=&b[]=1", contentType: "application/x-www-form-urlencoded" },
  { name: "unknown content type", payload: "\u0000\u0001binary", contentType: "application/x-nonsense" },
];

describe("bad input to every route", () => {
  it("covers the routes the server has", () => {
    const urls = t.app.routeList.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain("POST /api/owner/session");
    expect(urls).toContain("GET /healthz");
  });

  it("refuses every state-changing call without the crumb: 403 with crumbFail", async () => {
    // Validating a form stores nothing: the SPEC's page calls it without a crumb.
    const noStateChange = new Set(["POST /api/rest/forms/validate/:formId"]);
    // Census hits are anonymous beacons the SPEC sends without a crumb (§7); they only count.
    const beacon = (url: string) => url.startsWith("/api/census/");
    // The public commerce API is opened by an API key header, never by cookies: nothing to forge.
    const bearer = (url: string) => url.startsWith("/api/1/");
    const failures: string[] = [];
    let refused = 0;
    for (const route of t.app.routeList) {
      const name = `${route.method} ${route.url}`;
      if (
        route.method === "GET" ||
        noStateChange.has(name) ||
        oneClickPages.has(name) ||
        beacon(route.url) ||
        bearer(route.url)
      )
        continue;
      // A body the route's schema accepts, so the answer is the crumb check's, not validation's.
      const payload = route.bodySchema
        ? JSON.stringify(edgeValue(route.bodySchema as Schema, "min"))
        : undefined;
      const res = await b.request({
        method: route.method as "POST",
        url: fillReal(route.url, junkIds[0]!),
        payload,
        withCrumb: false,
        headers: payload ? { ...xsrf, "content-type": "application/json" } : xsrf,
      });
      const body = res.json() as { crumbFail?: boolean; error?: { code?: string; message?: string } };
      if (res.statusCode === 403 && body.crumbFail === true) {
        expect(body.error?.message).toBe("Your session has expired. Please reload the page and try again.");
        refused += 1;
      } else if (
        !(res.statusCode === 400 && body.error?.code === "invalid_request") &&
        res.statusCode !== 429
      ) {
        // Only a body the generator could not fit to the schema, or a rate limit, may stop the
        // call before its crumb check.
        failures.push(`${name} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(60);
  });

  // Before the test below, which ends by signing out.
  it("answers bad bodies in plain words: the field named, what it allows, never the validator's words", async () => {
    const failures: string[] = [];
    let refused = 0;
    for (const route of t.app.routeList) {
      if (route.method === "GET" || !route.bodySchema) continue;
      if (signOuts.has(`${route.method} ${route.url}`)) continue;
      if (oneClickPages.has(`${route.method} ${route.url}`)) continue;
      const url = fillReal(route.url, junkIds[0]!);
      for (const { name, body } of badBodies(route.bodySchema as Schema)) {
        const signedIn = new Map(b.cookies);
        const headers = xsrf;
        const res = await b.request({
          method: route.method as "POST",
          url,
          payload: JSON.stringify(body),
          headers: { ...xsrf, "content-type": "application/json" },
        });
        b.cookies.clear();
        for (const [k, v] of signedIn) b.cookies.set(k, v);
        xsrf = headers;
        const what = `${route.method} ${route.url} (${name})`;

        if (res.statusCode >= 500) failures.push(`${what} → ${res.statusCode}`);
        if (res.statusCode < 400) continue;
        refused += 1;
        if (JARGON.test(res.body)) failures.push(`${what} → ${res.body.slice(0, 240)}`);
        const error = (res.json() as { error?: { code?: string; message?: string } }).error;
        if (error?.code === "invalid_request" && !/\.$/.test(error.message ?? ""))
          failures.push(`${what} → not a sentence: ${error.message}`);
      }
    }
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(200);
    await expectStillSignedIn();
  }, 300_000);

  it("never answers 5xx, and answers API errors as JSON", async () => {
    const failures: string[] = [];
    const check = async (
      method: string,
      url: string,
      extra: { payload?: string; contentType?: string },
      what: string,
    ) => {
      const res = await b.request({
        method: method as "GET",
        url,
        payload: extra.payload,
        headers: extra.contentType ? { ...xsrf, "content-type": extra.contentType } : xsrf,
      });
      if (res.statusCode >= 500)
        failures.push(`${method} ${url} (${what}) → ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (url.startsWith("/api/") && res.statusCode >= 400) {
        const body = res.json() as { error?: { code?: string; message?: string } };
        if (typeof body.error?.message !== "string" || typeof body.error?.code !== "string") {
          failures.push(
            `${method} ${url} (${what}) → error without the error shape: ${res.body.slice(0, 200)}`,
          );
        }
      }
      if (res.body.includes("    at "))
        failures.push(`${method} ${url} (${what}) → a stack trace reached the client`);
      if (res.statusCode >= 400 && JARGON.test(res.body))
        failures.push(`${method} ${url} (${what}) → the validator's words: ${res.body.slice(0, 200)}`);
    };
    for (const route of t.app.routeList) {
      if (route.url === "/healthz" || signOuts.has(`${route.method} ${route.url}`)) continue;
      for (const id of junkIds) {
        const url = fill(route.url, id);
        if (route.method === "GET" || route.method === "DELETE") {
          await check(route.method, url, {}, `id ${id.slice(0, 20)}`);
          await check(
            route.method,
            `${url}?format=nonsense&page=-1&q=%ZZ&cursor=${"x".repeat(3000)}`,
            {},
            "junk query",
          );
        } else {
          for (const body of bodies) await check(route.method, url, body, body.name);
        }
      }
    }
    expect(failures).toEqual([]);
    await expectStillSignedIn();

    // Again with the ids of real rows, so handlers get past "not found" to the input itself.
    // DELETE is left out: it takes no input and would remove the rows the other routes need.
    failures.length = 0;
    let reached = 0;
    let edgeBodies = 0;
    for (const route of t.app.routeList) {
      if (route.url === "/healthz" || route.method === "DELETE") continue;
      if (signOuts.has(`${route.method} ${route.url}`)) continue;
      const url = fillReal(route.url, junkIds[0]!);
      // Bodies that pass the route's schema but sit at its edges: they reach the handler.
      if (route.method !== "GET" && route.bodySchema) {
        for (const mode of ["min", "max"] as const) {
          edgeBodies += 1;
          const signedIn = new Map(b.cookies);
          const headers = xsrf;
          const payload = JSON.stringify(edgeValue(route.bodySchema as Schema, mode));
          await check(
            route.method,
            url,
            { payload, contentType: "application/json" },
            `${mode} body, real ids`,
          );
          // Signing up or in as someone else must not end the owner's session for later routes.
          b.cookies.clear();
          for (const [k, v] of signedIn) b.cookies.set(k, v);
          xsrf = headers;
        }
      }
      if (!route.url.includes(":")) continue;
      const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
      if (params.every((name) => realId(route.url, name))) reached += 1;
      if (route.method === "GET") {
        await check(
          route.method,
          `${url}?format=nonsense&page=-1&q=%ZZ&limit=abc&cursor=%ZZ&itemId=a&itemId=b&productId[]=x&type=&id=${"9".repeat(400)}`,
          {},
          "junk query, real ids",
        );
      } else {
        for (const body of bodies) await check(route.method, url, body, `${body.name}, real ids`);
      }
    }
    expect(reached).toBeGreaterThan(40);
    expect(edgeBodies).toBeGreaterThan(60);
    expect(failures).toEqual([]);
    await expectStillSignedIn();

    for (const route of signOuts) {
      const [method, url] = route.split(" ") as [string, string];
      await check(method, `${url}?cloneCart=maybe&crumb=${"x".repeat(3000)}`, {}, "junk query");
      await check(method, url, {}, "signing out");
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("answers an unknown API route with 404 JSON", async () => {
    const res = await t.app.inject({ url: "/api/does/not/exist", method: "POST" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("not_found");
  });

  it("answers an address that does not decode with 400 JSON", async () => {
    for (const url of ["/api/%E0%A4%A", "/shop/%E0%A4%A"]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json(), url).toEqual({
        error: { code: "bad_url", message: "The address is not a valid URL." },
      });
    }
  });

  it("answers requests the HTTP parser refuses in the one error shape", async () => {
    // The app closes in afterAll; listening changes nothing for the other tests' inject calls.
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as net.AddressInfo).port;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
        let answer = "";
        socket.on("data", (chunk) => {
          answer += chunk.toString();
        });
        socket.on("close", () => resolve(answer));
        socket.on("error", reject);
      });
    const tooLarge = await raw(
      `GET /api/owner/account HTTP/1.1\r\nHost: localhost\r\nX-Junk: ${"x".repeat(20_000)}\r\n\r\n`,
    );
    expect(tooLarge).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(tooLarge.slice(tooLarge.indexOf("\r\n\r\n") + 4))).toEqual({
      error: { code: "headers_too_large", message: "The request's address or headers are too large." },
    });
    const garbage = await raw("\u0000\u0001 not http at all\r\n\r\n");
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4)).error.code).toBe("bad_request");
  });
});
