/**
 * Islands on demand: each page type's HTML names only the islands it uses and starts them through
 * one small entry, whose own code holds no island and no React; the compressed script a page loads
 * (the entry plus the chunks of its islands, React only for React islands) stays within budget:
 * 15 KB for a blog post, 80 KB for a product page, measured on the built bundle's Brotli files.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain ES module script without declarations
import { buildFrontends } from "../../../scripts/build-frontends.mjs";
import { STOREFRONT_DIST } from "../src/render/storefront-assets.js";
import { type TestApp, createTestApp } from "./harness.js";

interface Chunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

let t: TestApp;
let manifest: Record<string, Chunk>;
/** Island name → its module's key in the manifest (from the storefront's island list). */
const islandSources = new Map<string, string>();

beforeAll(async () => {
  (buildFrontends as () => void)();
  manifest = JSON.parse(readFileSync(path.join(STOREFRONT_DIST, ".vite/manifest.json"), "utf8"));
  const list = readFileSync(path.join(STOREFRONT_DIST, "../src/islands/index.ts"), "utf8");
  for (const m of list.matchAll(/"?([\w-]+)"?: \(\) => import\("\.\/([\w-]+)\/index\.js"\)/g)) {
    const key = Object.keys(manifest).find((k) => k.startsWith(`src/islands/${m[2]}/index.`));
    if (key) islandSources.set(m[1]!, key);
  }
  t = await createTestApp({ seed: true });
}, 300_000);
afterAll(() => t.close());

/** Brotli size of a built file, as the server sends it. */
function brBytes(file: string): number {
  const full = path.join(STOREFRONT_DIST, file);
  return statSync(existsSync(`${full}.br`) ? `${full}.br` : full).size;
}

/** The script files a page with these islands loads: the entry and every chunk they import. */
function scriptsFor(islands: string[]): Set<string> {
  const keys = ["src/main.ts"];
  for (const name of islands) {
    const key = islandSources.get(name);
    expect(key, `island ${name} is built`).toBeDefined();
    keys.push(key!);
    if (key!.endsWith(".tsx")) keys.push("src/lib/react-root.ts");
  }
  const files = new Set<string>();
  const seen = new Set<string>();
  const walk = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    expect(chunk, key).toBeDefined();
    files.add(chunk!.file);
    for (const i of chunk!.imports ?? []) walk(i);
  };
  for (const k of keys) walk(k);
  return files;
}

const kb = (files: Set<string>) => [...files].reduce((n, f) => n + brBytes(f), 0) / 1024;

async function islandsOf(url: string): Promise<string[]> {
  const res = await t.app.inject({ url });
  expect(res.statusCode, url).toBe(200);
  // Only the entry is named; no island chunk is referenced by the page itself.
  expect(res.body).not.toMatch(/\/assets\/storefront\/chunks\//);
  expect(
    res.body.match(/<script>[^<]*src:"\/assets\/storefront\/storefront-[\w-]+\.js"[^<]*<\/script>/g),
  ).toHaveLength(1);
  return [...new Set([...res.body.matchAll(/data-island="([\w-]+)"/g)].map((m) => m[1]!))].sort();
}

async function firstItem(collection: string): Promise<string> {
  const ctx = JSON.parse((await t.app.inject({ url: `${collection}?format=json` })).body) as {
    items: { fullUrl: string }[];
  };
  return ctx.items[0]!.fullUrl;
}

describe("islands on demand", () => {
  it("keeps islands and React out of the entry's own code", () => {
    const entryOnly = scriptsFor([]);
    const names = [...entryOnly].join(" ");
    expect(names).not.toMatch(/react|product-form|checkout|census|cart-pill|lightbox/);
    expect(kb(entryOnly)).toBeLessThan(5);
  });

  it("names in each page type's HTML only the islands that page uses", async () => {
    const pages: Record<string, string> = {
      home: "/",
      shop: "/shop",
      product: "/shop/p/linen-work-apron",
      post: await firstItem("/blog"),
      event: await firstItem("/events"),
      cart: "/cart",
      checkout: "/checkout",
    };
    const found: Record<string, string[]> = {};
    for (const [type, url] of Object.entries(pages)) found[type] = await islandsOf(url);
    expect(found.post).toEqual(["cart-pill", "census", "like-button"]);
    expect(found.event).toEqual(["cart-pill", "census"]);
    expect(found.shop).toEqual(["cart-pill", "census"]);
    expect(found.product).toEqual(["cart-pill", "census", "lightbox", "product-form"]);
    expect(found.cart).toEqual(["cart-page", "census"]);
    expect(found.checkout).toContain("checkout");
    expect(found.checkout).not.toContain("product-form");
    for (const type of ["home", "shop", "post", "event"]) {
      expect(found[type]).not.toContain("product-form");
      expect(found[type]).not.toContain("checkout");
      expect(found[type]).not.toContain("cart-page");
    }
  });

  it("loads at most 15 KB of compressed script on a blog post, 80 KB on a product page", async () => {
    const post = scriptsFor(await islandsOf(await firstItem("/blog")));
    const product = scriptsFor(await islandsOf("/shop/p/linen-work-apron"));
    console.log(
      `script per page (Brotli): blog post ${kb(post).toFixed(1)} KB, product ${kb(product).toFixed(1)} KB`,
    );
    expect([...post].some((f) => f.includes("react-root"))).toBe(false);
    expect(kb(post)).toBeLessThanOrEqual(15);
    expect([...product].some((f) => f.includes("react-root"))).toBe(true);
    expect(kb(product)).toBeLessThanOrEqual(80);
  });
});
