/**
 * Delivery of published pages and their assets: Brotli/gzip negotiated by Accept-Encoding with
 * `Vary: Accept-Encoding`, warm pages answered with an ETag and 304, content-hashed assets
 * (storefront entry and chunks, theme stylesheets and the files they reference) immutable.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module script without declarations
import { buildFrontends } from "../../../scripts/build-frontends.mjs";
import { negotiate } from "../src/http/compression.js";
import { HashedAssets, IMMUTABLE } from "../src/http/hashed-assets.js";
import { STOREFRONT_DIST } from "../src/render/storefront-assets.js";
import { withHashedUrls } from "../src/render/themes.js";
import { type TestApp, createTestApp, eventually } from "./harness.js";

let t: TestApp;
beforeAll(async () => {
  // The storefront's build (and its precompressed files) must exist before the app reads it.
  (buildFrontends as () => void)();
  t = await createTestApp({ seed: true });
}, 300_000);
afterAll(() => t.close());

function decode(encoding: unknown, body: Buffer): string {
  if (encoding === "br") return zlib.brotliDecompressSync(body).toString();
  if (encoding === "gzip") return zlib.gunzipSync(body).toString();
  expect(encoding).toBeUndefined();
  return body.toString();
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });

describe("encoding negotiation", () => {
  it("prefers Brotli, falls back to gzip, honours q=0 and sends identity when nothing is accepted", () => {
    expect(negotiate("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiate("gzip")).toBe("gzip");
    expect(negotiate("br;q=0, gzip;q=0.5")).toBe("gzip");
    expect(negotiate("*")).toBe("br");
    expect(negotiate("*;q=0")).toBeUndefined();
    expect(negotiate("identity")).toBeUndefined();
    expect(negotiate(undefined)).toBeUndefined();
  });

  it("answers pages in the encoding asked for, the same page in each, with Vary", async () => {
    for (const url of ["/shop", "/blog/a-week-at-the-wheel", "/"]) {
      // Warm: on PostgreSQL the seed's change notices may still empty the cache for a moment.
      await eventually(async () => (await get(url)).headers["x-page-cache"]).toBe("hit");
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
      for (const [accept, expected] of [
        ["gzip, deflate, br", "br"],
        ["gzip", "gzip"],
        ["br;q=0, gzip", "gzip"],
      ] as const) {
        const res = await get(url, { "accept-encoding": accept });
        expect(res.headers["content-encoding"], `${url} ${accept}`).toBe(expected);
        expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
        expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
        expect(decode(res.headers["content-encoding"], res.rawPayload)).toBe(plain.body);
      }
    }
  });

  it("compresses a page rendered on a miss, JSON answers and XML feeds too", async () => {
    const miss = await get("/events", { "accept-encoding": "br" });
    expect(miss.headers["x-page-cache"]).toBe("miss");
    expect(miss.headers["content-encoding"]).toBe("br");
    expect(decode("br", miss.rawPayload)).toContain("<!doctype html>");
    const json = await get("/shop?format=json", { "accept-encoding": "gzip" });
    expect(json.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(decode("gzip", json.rawPayload)).collection).toBeDefined();
    const sitemap = await get("/sitemap.xml", { "accept-encoding": "br" });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers["content-encoding"]).toBe("br");
    expect(decode("br", sitemap.rawPayload)).toContain("<urlset");
  });
});

describe("ETag and 304", () => {
  it("answers 304 to a matching If-None-Match on warm pages, the page to any other", async () => {
    const first = await get("/shop", { "accept-encoding": "br" });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("no-cache");
    // One validator for every encoding of the page.
    expect((await get("/shop", { "accept-encoding": "gzip" })).headers.etag).toBe(etag);
    const again = await get("/shop", { "accept-encoding": "br", "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const other = await get("/shop", { "if-none-match": 'W/"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain("<!doctype html>");
  });

  it("never answers 304 for a page that is not found", async () => {
    const first = await get("/no-such-page");
    expect(first.statusCode).toBe(404);
    const again = await get("/no-such-page", { "if-none-match": String(first.headers.etag) });
    expect(again.statusCode).toBe(404);
  });
});

describe("content-hashed assets", () => {
  it("serves the storefront entry and its chunks immutable, precompressed", async () => {
    const manifest = JSON.parse(
      readFileSync(path.join(STOREFRONT_DIST, ".vite/manifest.json"), "utf8"),
    ) as Record<string, { file: string; isEntry?: boolean }>;
    const files = Object.values(manifest)
      .map((e) => e.file)
      .filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(5);
    const page = (await get("/")).body;
    const entry = /src:"(\/assets\/storefront\/storefront-[\w-]+\.js)"/.exec(page)![1]!;
    for (const url of [entry, ...files.slice(0, 5).map((f) => `/assets/storefront/${f}`)]) {
      expect(url).toMatch(/-[\w-]{8}\.js$/);
      const res = await get(url, { "accept-encoding": "gzip, br" });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["cache-control"]).toBe(IMMUTABLE);
      expect(res.headers["content-type"]).toMatch(/javascript/);
      expect(res.headers["content-encoding"]).toBe("br");
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      const onDisk = readFileSync(
        path.join(STOREFRONT_DIST, url.slice("/assets/storefront/".length)),
        "utf8",
      );
      expect(decode("br", res.rawPayload)).toBe(onDisk);
    }
  });

  it("serves the theme stylesheet immutable and compressed, with an ETag", async () => {
    const page = (await get("/")).body;
    const cssUrl = /<link rel="stylesheet" href="(\/assets\/themes\/\w+\.[a-f0-9]{12}\.css)">/.exec(
      page,
    )![1]!;
    const plain = await get(cssUrl);
    expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
    const res = await get(cssUrl, { "accept-encoding": "br" });
    expect(res.headers["content-encoding"]).toBe("br");
    expect(decode("br", res.rawPayload)).toBe(plain.body);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    const revalidated = await get(cssUrl, { "if-none-match": String(res.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    // An old hash still gets the current stylesheet, but only briefly cached.
    const stale = await get(cssUrl.replace(/\.[a-f0-9]{12}\.css$/, ".000000000000.css"));
    expect(stale.statusCode).toBe(200);
    expect(stale.headers["cache-control"]).toBe("public, max-age=60");
  });

  it("serves the files a stylesheet references (fonts) under hashed, immutable names", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-theme-"));
    try {
      const font = Buffer.from([0x77, 0x4f, 0x46, 0x32, 1, 2, 3, 4]);
      writeFileSync(path.join(dir, "serif.woff2"), font);
      const assets = new HashedAssets();
      const css = withHashedUrls(
        `@font-face{font-family:S;src:url("./serif.woff2") format("woff2")}a{background:url(data:x)}b{background:url(/x.png)}`,
        dir,
        assets,
      );
      const url = /url\("(\/assets\/h\/serif\.[a-f0-9]{12}\.woff2)"\)/.exec(css)?.[1];
      expect(url).toBeDefined();
      expect(css).toContain("url(data:x)");
      expect(css).toContain("url(/x.png)");
      const app = Fastify();
      assets.register(app);
      const res = await app.inject({ url: url!, headers: { "accept-encoding": "br" } });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("font/woff2");
      expect(res.headers["cache-control"]).toBe(IMMUTABLE);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.rawPayload.equals(font)).toBe(true);
      expect((await app.inject({ url: "/assets/h/serif.000000000000.woff2" })).statusCode).toBe(404);
      await app.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("largest paint first", () => {
  it("loads the first image of the main content eagerly, preloaded, and sizes every image", async () => {
    for (const url of ["/", "/shop", "/shop/p/linen-work-apron", "/blog"]) {
      const html = (await get(url)).body;
      const main = html.slice(html.indexOf("<main"));
      const first = /<img\b[^>]*>/.exec(main)?.[0];
      expect(first, url).toBeDefined();
      expect(first).toContain('fetchpriority="high"');
      expect(first).not.toContain('loading="lazy"');
      const src = /\ssrc="([^"]+)"/.exec(first!)![1]!;
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head).toContain(`<link rel="preload" as="image" href="${src}"`);
      expect(html.match(/fetchpriority="high"/g)!.length).toBe(2); // the preload and the image
      for (const img of html.match(/<img\b[^>]*>/g) ?? []) {
        expect(img, `${url}: ${img}`).toMatch(/\swidth="\d+"/);
        expect(img, `${url}: ${img}`).toMatch(/\sheight="\d+"/);
      }
      // Images further down stay lazy.
      const rest = main.slice(main.indexOf(first!) + first!.length);
      for (const img of rest.match(/<img\b[^>]*>/g) ?? []) expect(img).not.toContain("fetchpriority");
    }
  });
});
