/**
 * Clients that put a JSON content type on every call: each route that takes no body (found at
 * start, so new routes are covered without editing this file) must answer an empty body the same
 * whatever its content type, and a present but malformed JSON body still gets the clear 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Browser, createTestApp, signedInOwner, type TestApp } from "./harness.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true });
});
afterAll(() => t.close());

async function signedInBrowser(): Promise<{ b: Browser; xsrf: Record<string, string> }> {
  const b = await signedInOwner(t);
  const siteUser = await b.request({
    method: "POST",
    url: "/api/site-users/account",
    payload: {
      email: `u${Math.random().toString(36).slice(2)}@example.com`,
      password: "a long password",
      firstName: "Ada",
      lastName: "Bell",
    },
  });
  return { b, xsrf: { "x-xsrf-token": (siteUser.json() as { xsrfToken: string }).xsrfToken } };
}

/** Asks for a form submission key with the given content type and raw body. */
const askFormKey = (b: Browser, contentType: string, payload?: string) =>
  b.request({
    method: "POST",
    url: "/api/form/FormSubmissionKey",
    headers: { "content-type": contentType },
    payload,
  });

const junkId = "000000000000000000000000";
const contentTypes = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/octet-stream",
];

describe("routes that take no body", () => {
  it("accept an empty body whatever its content type", async () => {
    const bodiless = t.app.routeList.filter((r) => r.method !== "GET" && !r.bodySchema);
    expect(bodiless.length).toBeGreaterThan(15);
    // Signing out runs last in each round: before, it would leave later routes to answer 401.
    const signOut = (url: string) => url.endsWith("/session");
    const ordered = [...bodiless.filter((r) => !signOut(r.url)), ...bodiless.filter((r) => signOut(r.url))];
    const failures: string[] = [];
    for (const type of contentTypes) {
      const { b, xsrf } = await signedInBrowser();
      for (const route of ordered) {
        const res = await b.request({
          method: route.method as "POST",
          url: route.url.replace(/:[A-Za-z]+/g, junkId).replace(/\*/g, "shop"),
          headers: { ...xsrf, "content-type": type },
        });
        const code = res.statusCode >= 400 ? (res.json() as { error?: { code?: string } }).error?.code : "";
        if (code === "invalid_json" || code === "unsupported_media_type" || res.statusCode >= 500)
          failures.push(
            `${route.method} ${route.url} [${type}] → ${res.statusCode} ${res.body.slice(0, 120)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("signs a site user out and hands out a form key when the call says application/json", async () => {
    const { b, xsrf } = await signedInBrowser();
    const out = await b.request({
      method: "DELETE",
      url: "/api/site-users/account/session",
      headers: { ...xsrf, "content-type": "application/json" },
    });
    expect(out.statusCode).toBe(200);
    expect((await b.request({ url: "/api/site-users/account", headers: xsrf })).statusCode).toBe(401);

    const key = await askFormKey(b, "application/json");
    expect(key.statusCode).toBe(200);
    expect(typeof key.json().key).toBe("string");
  });

  it("still refuses a malformed JSON body with the clear 400", async () => {
    const { b } = await signedInBrowser();
    const res = await askFormKey(b, "application/json", "{not json");
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: "invalid_json",
      message: "The request body is not valid JSON.",
    });
    const unknownType = await askFormKey(b, "application/x-nonsense", "\u0000binary");
    expect(unknownType.statusCode).toBe(415);
    expect(unknownType.json().error.code).toBe("unsupported_media_type");
  });
});
