/**
 * Sends bad input to every route the server has (found at start, so new routes are covered
 * without editing this file): malformed JSON, wrong types, oversized bodies, unknown ids,
 * junk query strings. Nothing may answer 5xx, and API errors are JSON in the one error shape.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp } from "./harness.js";

let t: TestApp;
let b: Browser;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
  b = new Browser(t.app);
  await b.visit("/");
  // Logged in as the demo owner, so owner routes get past authentication to their validation.
  await b.request({
    method: "POST",
    url: "/api/owner/session",
    payload: { email: "owner@atelier.test", password: "atelier-demo" },
  });
});
afterAll(() => t.close());

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
  { name: "form-encoded junk", payload: "a=%ZZ&&=&b[]=1", contentType: "application/x-www-form-urlencoded" },
  { name: "unknown content type", payload: "\u0000\u0001binary", contentType: "application/x-nonsense" },
];

describe("bad input to every route", () => {
  it("covers the routes the server has", () => {
    const urls = t.app.routeList.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain("POST /api/owner/session");
    expect(urls).toContain("GET /healthz");
  });

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
        headers: extra.contentType ? { "content-type": extra.contentType } : {},
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
    };
    for (const route of t.app.routeList) {
      if (route.url === "/healthz") continue;
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
  }, 300_000);

  it("answers an unknown API route with 404 JSON", async () => {
    const res = await t.app.inject({ url: "/api/does/not/exist", method: "POST" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("not_found");
  });
});
