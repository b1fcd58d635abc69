/**
 * Warm pages answered in front of Fastify (render/warm-pages.ts) over real HTTP: the same status,
 * headers and bytes as Fastify's own cache-hit answer (app.inject goes through Fastify), 304 on a
 * matching ETag, every other request left to Fastify, a change seen at once, and the request
 * counted in the metrics.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, demoOwner } from "./harness.js";

const TOKEN = "warm-pages-metrics-token";
const CRUMB = "warmpagescrumb0000000001";
let t: TestApp;
let port: number;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One answer as it comes over the wire, body still encoded. */
function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .request(
        { host: "127.0.0.1", port, path: url, method, headers: { host: "localhost", ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      )
      .on("error", reject)
      .end();
  });
}

/** The headers that must agree (the date, the connection's and the fresh request id may not). */
function comparable(headers: Record<string, unknown>): Record<string, string> {
  const skip = new Set(["date", "connection", "keep-alive", "x-request-id", "transfer-encoding"]);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => !skip.has(k.toLowerCase()))
      .map(([k, v]) => [k.toLowerCase(), String(v)])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

const visitor = (extra: Record<string, string> = {}) => ({ cookie: `crumb=${CRUMB}`, ...extra });

/** Asks the front door (which must answer itself) and Fastify for /shop: both answer `status`, same headers. */
async function frontDoorAndFastify(headers: Record<string, string>, status: number) {
  const before = t.app.frontDoor.served;
  const fast = await get("/shop", headers);
  expect(t.app.frontDoor.served).toBe(before + 1);
  const viaFastify = await t.app.inject({ url: "/shop", headers: { host: "localhost", ...headers } });
  expect(fast.status).toBe(status);
  expect(viaFastify.statusCode).toBe(status);
  expect(comparable(fast.headers)).toEqual(comparable(viaFastify.headers));
  return { fast, viaFastify };
}

/** Answers `url` through Fastify until it is a page-cache hit (the page is warm and kept compressed). */
async function warm(url: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const res = await t.app.inject({ url, headers: { host: "localhost", ...visitor() } });
    if (res.headers["x-page-cache"] === "hit") return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${url} never became warm`);
}

beforeAll(async () => {
  t = await createTestApp({ seed: true, env: { METRICS_TOKEN: TOKEN } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  await warm("/shop");
}, 120_000);
afterAll(() => t?.close());

describe("warm pages in front of Fastify", () => {
  it.each([
    ["br", "br"],
    ["gzip", "gzip"],
    ["", undefined],
  ])("answers Accept-Encoding %j as Fastify's cache hit does", async (accept, encoding) => {
    const headers = visitor(accept ? { "accept-encoding": accept } : {});
    const { fast, viaFastify } = await frontDoorAndFastify(headers, 200);
    expect(fast.headers["content-encoding"]).toBe(encoding);
    expect(fast.headers["x-page-cache"]).toBe("hit");
    expect(fast.body.equals(viaFastify.rawPayload)).toBe(true);
    const html =
      encoding === "br"
        ? zlib.brotliDecompressSync(fast.body)
        : encoding === "gzip"
          ? zlib.gunzipSync(fast.body)
          : fast.body;
    expect(html.toString()).toContain("<html");
    expect(fast.headers["x-request-id"]).toMatch(/^[\w-]{36}$/);
  });

  it("answers 304 to a matching If-None-Match, as Fastify does", async () => {
    const first = await get("/shop", visitor({ "accept-encoding": "br" }));
    const etag = String(first.headers.etag);
    const headers = visitor({ "accept-encoding": "br", "if-none-match": etag });
    const { fast } = await frontDoorAndFastify(headers, 304);
    expect(fast.body.length).toBe(0);
  });

  it("keeps the caller's request id", async () => {
    const res = await get("/shop", visitor({ "x-request-id": "lb-1234.abc" }));
    expect(res.headers["x-request-id"]).toBe("lb-1234.abc");
  });

  it.each([
    ["a first visit (no crumb yet)", "/shop", {}, "GET"],
    ["a query string", "/shop?page=1", visitor(), "GET"],
    ["a visitor with a cart", "/shop", visitor({ cookie: `crumb=${CRUMB}; atelier_cart=abc` }), "GET"],
    ["the editing cookies", "/shop", visitor({ cookie: `crumb=${CRUMB}; atelier_preview=1` }), "GET"],
    ["an unknown host", "/shop", visitor({ host: "nowhere.example" }), "GET"],
    ["a page not in the cache", "/no-such-page-here", visitor(), "GET"],
    ["a HEAD request", "/shop", visitor(), "HEAD"],
  ])("leaves %s to Fastify", async (_what, url, headers, method) => {
    const before = t.app.frontDoor.served;
    const res = await get(url, headers as Record<string, string>, method);
    expect(t.app.frontDoor.served).toBe(before);
    expect(res.status).toBeGreaterThanOrEqual(200);
  });

  it("never answers a page older than the site's content", async () => {
    const { owner, siteId } = await demoOwner(t);
    const renamed = await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}`,
      payload: { title: "Atelier Warm Test" },
    });
    expect(renamed.statusCode).toBe(200);
    // The version announcement invalidates the warm page: the next answers render afresh.
    let html = "";
    for (let i = 0; i < 100 && !html.includes("Atelier Warm Test"); i++) {
      html = (await get("/shop", visitor())).body.toString();
      if (!html.includes("Atelier Warm Test")) await new Promise((r) => setTimeout(r, 20));
    }
    expect(html).toContain("Atelier Warm Test");
    await warm("/shop");
    const fast = await get("/shop", visitor());
    expect(fast.headers["x-page-cache"]).toBe("hit");
    expect(fast.body.toString()).toContain("Atelier Warm Test");
  });

  it("counts its answers in the metrics", async () => {
    const metrics = async () =>
      (await t.app.inject({ url: "/metrics", headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const countOf = (text: string) =>
      Number(
        /atelier_http_requests_total\{method="GET",route="\/\*",status="200"\} (\d+)/.exec(text)?.[1] ?? 0,
      );
    const before = countOf(await metrics());
    const served = t.app.frontDoor.served;
    await get("/shop", visitor());
    expect(t.app.frontDoor.served).toBe(served + 1);
    expect(countOf(await metrics())).toBe(before + 1);
  });
});
