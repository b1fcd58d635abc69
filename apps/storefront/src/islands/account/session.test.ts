import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { keepXsrfToken, signOut, xsrfToken } from "./session.js";

type Call = { url: string; method: string; headers: Record<string, string> };

/** A browser with a crumb cookie and localStorage, and a server answering in turn. */
function fakeBrowser(answers: { status: number; body: unknown; newCrumb?: string }[]) {
  const doc = { cookie: "crumb=old-crumb" };
  const store = new Map<string, string>();
  const calls: Call[] = [];
  vi.stubGlobal("document", doc);
  vi.stubGlobal("localStorage", {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  });
  vi.stubGlobal("fetch", async (url: string, init: { method: string; headers: Record<string, string> }) => {
    calls.push({ url, method: init.method, headers: init.headers });
    const answer = answers[calls.length - 1] ?? { status: 500, body: {} };
    if (answer.newCrumb) doc.cookie = `crumb=${answer.newCrumb}`;
    return { status: answer.status, json: async () => answer.body };
  });
  return calls;
}

const crumbFail = { status: 403, body: { crumbFail: true, error: { message: "expired" } } };

describe("signing out (SPEC §7)", () => {
  beforeEach(() => vi.unstubAllGlobals());
  afterEach(() => vi.unstubAllGlobals());

  it("retries once with the fresh crumb when the answer has crumbFail", async () => {
    const calls = fakeBrowser([
      { ...crumbFail, newCrumb: "fresh-crumb" },
      { status: 200, body: { ok: true } },
    ]);
    keepXsrfToken("xsrf-1");
    const answer = await signOut(true);
    expect(answer.status).toBe(200);
    expect(calls.map((c) => [c.method, c.url, c.headers["x-csrf-token"]])).toEqual([
      ["DELETE", "/api/site-users/account/session?cloneCart=true", "old-crumb"],
      ["DELETE", "/api/site-users/account/session?cloneCart=true", "fresh-crumb"],
    ]);
    // Signed out: the xsrfToken is forgotten.
    expect(xsrfToken()).toBeNull();
  });

  it("retries only once, and never for other failures", async () => {
    const twice = fakeBrowser([crumbFail, crumbFail, { status: 200, body: {} }]);
    keepXsrfToken("xsrf-2");
    expect((await signOut(false)).status).toBe(403);
    expect(twice).toHaveLength(2);
    expect(twice[0]!.url).toBe("/api/site-users/account/session?cloneCart=false");
    expect(xsrfToken()).toBe("xsrf-2");

    const other = fakeBrowser([
      { status: 500, body: { error: { message: "down" } } },
      { status: 200, body: {} },
    ]);
    expect((await signOut()).status).toBe(500);
    expect(other).toHaveLength(1);
  });
});
