/**
 * The cart tests' shared setup: the seeded demo on a clock the tests can move, the demo's products
 * by slug, visitors each on their own address, and the call that adds to a cart.
 */
import { afterAll, beforeAll, expect } from "vitest";
import { type Browser, type TestApp, createTestApp, visitorFrom } from "../../../test/harness.js";

const START = "2025-03-01T12:00:00Z";
let now = new Date(START);
export const clock = { now: () => now };
/** Moves the app's clock forward. */
export const advanceClock = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

export let t: TestApp;

/** Starts the file's app before its tests and closes it after them. */
export function useCartApp(): void {
  beforeAll(async () => {
    // Test files may share this module (vitest isolate: false): each starts from the same state.
    now = new Date(START);
    for (const slug of Object.keys(products)) delete products[slug];
    t = await createTestApp({ seed: true, clock });
  });
  afterAll(() => t.close());
}

interface Product {
  id: string;
  variants: { id: string; sku: string; attributes: Record<string, string>; qtyInStock: number }[];
}
const products: Record<string, Product> = {};

export async function product(slug: string): Promise<Product> {
  if (products[slug]) return products[slug];
  const res = await t.app.inject({ url: `/shop/p/${slug}?format=json`, headers: { host: "localhost" } });
  expect(res.statusCode).toBe(200);
  const item = res.json().item;
  products[slug] = { id: item.id, variants: item.structuredContent.variants };
  return products[slug];
}

export async function sku(slug: string, attrs: Record<string, string> = {}): Promise<string> {
  const p = await product(slug);
  const v = p.variants.find((v) => Object.entries(attrs).every(([k, val]) => v.attributes[k] === val));
  return v!.sku;
}

/** A visitor with the crumb (they have seen a page), each on their own address. */
let visitorCount = 0;
export function visitor(host = "localhost"): Promise<Browser> {
  const address = `10.1.${Math.floor(visitorCount / 200)}.${(visitorCount++ % 200) + 1}`;
  return visitorFrom(t, address, host);
}

export function add(b: Browser, body: Record<string, unknown>, query = "") {
  return b.request({ method: "POST", url: `/api/commerce/shopping-cart/entries${query}`, payload: body });
}
