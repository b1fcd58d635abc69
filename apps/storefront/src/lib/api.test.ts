import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ApiCallError,
  MSG_CRUMB_EXPIRED,
  MSG_CRUMB_NO_COOKIES,
  MSG_NETWORK,
  MSG_RATE_LIMITED,
  MSG_UNKNOWN,
  apiCall,
  failureMessage,
  jsonOf,
} from "./api.js";
import { readCookie } from "./cookies.js";

describe("failure messages (SPEC §8)", () => {
  it("crumb failures depend on whether cookies are enabled", () => {
    expect(failureMessage(403, { crumbFail: true, error: { message: "x" } }, true)).toBe(
      "Your session has expired. Please reload the page and try again.",
    );
    expect(failureMessage(403, { crumbFail: true }, false)).toBe(
      "Please enable cookies in your browser, reload the page, and try again.",
    );
    expect(MSG_CRUMB_EXPIRED).toBe("Your session has expired. Please reload the page and try again.");
    expect(MSG_CRUMB_NO_COOKIES).toBe(
      "Please enable cookies in your browser, reload the page, and try again.",
    );
  });

  it("429 reads 'Please try again in a few seconds.' whatever the body", () => {
    expect(failureMessage(429, undefined, true)).toBe("Please try again in a few seconds.");
    expect(failureMessage(429, { error: { message: "Too many" } }, true)).toBe(MSG_RATE_LIMITED);
  });

  it("other errors show the server's message, or a generic one", () => {
    expect(
      failureMessage(
        400,
        { error: { message: "Sorry, we do not have enough of that item available." } },
        true,
      ),
    ).toBe("Sorry, we do not have enough of that item available.");
    expect(failureMessage(500, undefined, true)).toBe(MSG_UNKNOWN);
    expect(failureMessage(400, { error: { message: "  " } }, true)).toBe(MSG_UNKNOWN);
  });
});

describe("apiCall", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("sends JSON with the crumb on changes and resolves with the answer", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("document", { cookie: "a=1; crumb=abc123; b=2" });
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      seen.push({ url, init });
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    });
    await expect(apiCall("/api/x", { method: "POST", body: { a: 1 } })).resolves.toEqual({ ok: true });
    const headers = seen[0]!.init.headers as Record<string, string>;
    expect(headers["x-csrf-token"]).toBe("abc123");
    expect(headers["content-type"]).toBe("application/json");
    expect(seen[0]!.init.body).toBe('{"a":1}');
    await apiCall("/api/y");
    expect((seen[1]!.init.headers as Record<string, string>)["x-csrf-token"]).toBeUndefined();
  });

  it("rejects with the visitor's message, the status and the fields", async () => {
    vi.stubGlobal("fetch", async () =>
      Response.json(
        { error: { code: "bad_request", message: "Quantity must be a number.", fields: { quantity: "x" } } },
        { status: 400 },
      ),
    );
    const err = (await apiCall("/api/x", { method: "POST" }).catch((e) => e)) as ApiCallError;
    expect(err).toBeInstanceOf(ApiCallError);
    expect(err.message).toBe("Quantity must be a number.");
    expect(err.status).toBe(400);
    expect(err.fields).toEqual({ quantity: "x" });

    vi.stubGlobal("fetch", async () => new Response("busy", { status: 429 }));
    await expect(apiCall("/api/x")).rejects.toMatchObject({ message: MSG_RATE_LIMITED, status: 429 });

    vi.stubGlobal("fetch", async () =>
      Response.json({ crumbFail: true, error: { message: "?" } }, { status: 403 }),
    );
    await expect(apiCall("/api/x", { method: "POST" })).rejects.toMatchObject({
      message: MSG_CRUMB_EXPIRED,
      crumbFail: true,
    });

    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    await expect(apiCall("/api/x")).rejects.toMatchObject({ message: MSG_NETWORK, status: 0 });
  });
});

describe("jsonOf", () => {
  it("reads an answer's JSON, and undefined when the body is empty or not JSON", async () => {
    expect(await jsonOf(Response.json({ ok: true }))).toEqual({ ok: true });
    expect(await jsonOf(new Response("<html>Bad gateway</html>", { status: 502 }))).toBeUndefined();
    expect(await jsonOf(new Response(null, { status: 204 }))).toBeUndefined();
  });
});

describe("readCookie", () => {
  it("finds a cookie by exact name and decodes it", () => {
    const jar = "crumbs=no; crumb=a%20b; atelier_has_cart=1";
    expect(readCookie("crumb", jar)).toBe("a b");
    expect(readCookie("atelier_has_cart", jar)).toBe("1");
    expect(readCookie("missing", jar)).toBeUndefined();
    expect(readCookie("bad", "bad=%E0%A4%A")).toBe("%E0%A4%A");
  });
});
