/**
 * Checkout under load: concurrent buyers placing orders (POST /api/commerce/orders with the
 * test card) against a real server process, on embedded PGlite and on PostgreSQL, in one run:
 *
 *   npm run bench:checkout      (BENCH_ORDERS=N per scenario, default 300;
 *                                BENCH_CONCURRENCY=C buyers at once, default 16;
 *                                BENCH_DATABASE_URL=postgres://… a server the bench may create
 *                                databases on, default postgres://postgres@127.0.0.1:5432/postgres;
 *                                skipped with a note when it cannot be reached)
 *
 * Each buyer has their own cookies and address (X-Forwarded-For), visits a page for the crumb and
 * fills a cart before the clock starts; then the orders are sent, C at a time, and timed one by
 * one, after a warm-up of 40 uncounted orders. Two scenarios: "hot" (every buyer takes the same variant, so every order waits for the
 * previous one's stock update) and "spread" (buyers take one of eight products). Printed: orders
 * per second, p50 and p99 latency of the order call, and how many were refused.
 */
import path from "node:path";
import { FetchClient, firstSiteId, signInDemoOwner } from "../apps/server/test/fetch-client.js";
import { orderBody } from "../apps/server/test/fixtures.js";
import { type ScratchDatabase, createScratchDatabase } from "../apps/server/test/scratch-database.js";
import { type BenchServer, root, startServer } from "./server.js";
import { DEMO_PRODUCTS } from "./demo-products.js";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const SPREAD = DEMO_PRODUCTS;

type Server = BenchServer;

const startCheckoutServer = (databaseUrl: string) =>
  startServer({
    args: ["--import", "tsx", path.join(root, "apps/server/src/main.ts")],
    env: { DATABASE_URL: databaseUrl, STRIPE_SECRET_KEY: "", ATELIER_TEST_PAYMENT_LATENCY_MS: "0" },
  });

interface ProductRef {
  itemId: string;
  sku: string;
  variantIds: string[];
}

async function productRef(base: string, slug: string): Promise<ProductRef> {
  const page = (await (await fetch(`${base}/shop/p/${slug}?format=json`)).json()) as {
    item: { id: string; structuredContent?: { variants?: { id: string; sku: string }[] } };
  };
  const variants = page.item.structuredContent?.variants ?? [];
  const sku = variants[0]?.sku;
  if (!sku) throw new Error(`no variant for ${slug}`);
  return { itemId: page.item.id, sku, variantIds: variants.map((v) => v.id) };
}

/** Plenty of stock for the products bought, through the owner's inventory call. */
async function stockUp(base: string, products: ProductRef[]) {
  const owner = new FetchClient(base);
  const login = await signInDemoOwner(owner);
  if (login.status !== 200) throw new Error(`owner login: ${login.status}`);
  const siteId = await firstSiteId(owner);
  for (const p of products) {
    for (const id of p.variantIds) {
      const res = await owner.call(`/api/owner/sites/${siteId}/variants/${id}/stock`, "PATCH", {
        qtyInStock: 1_000_000,
      });
      if (res.status !== 200) throw new Error(`stock: ${res.status} ${await res.text()}`);
    }
  }
}

async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function scenario(server: Server, name: string, products: ProductRef[], orders = ORDERS) {
  const buyers = Array.from({ length: orders }, (_, i) => ({
    buyer: new FetchClient(server.base),
    product: products[i % products.length]!,
  }));
  await pool(buyers, CONCURRENCY, async ({ buyer, product }) => {
    await buyer.call("/");
    const res = await buyer.call("/api/commerce/shopping-cart/entries", "POST", {
      itemId: product.itemId,
      sku: product.sku,
      quantity: 1,
    });
    if (res.status !== 200) throw new Error(`add to cart: ${res.status} ${await res.text()}`);
  });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let n = 0;
  const started = performance.now();
  await pool(buyers, CONCURRENCY, async ({ buyer }) => {
    const t0 = performance.now();
    const res = await buyer.call(
      "/api/commerce/orders",
      "POST",
      orderBody({ email: `buyer${++n}@example.com`, idempotencyKey: `bench-${buyer.ip}-${Date.now()}` }),
    );
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const ok = statuses.get(201) ?? 0;
  return {
    name,
    ordersPerSecond: ok / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    ok,
    refused: orders - ok,
    statuses: [...statuses].map(([s, c]) => `${s}×${c}`).join(" "),
  };
}

async function runOn(label: string, databaseUrl: string) {
  const server = await startCheckoutServer(databaseUrl);
  try {
    const products = await Promise.all(SPREAD.map((slug) => productRef(server.base, slug)));
    await stockUp(server.base, products);
    // Warm-up (not counted): the first requests compile code paths and fill caches.
    await scenario(server, "warm-up", products, Math.min(40, ORDERS));
    const rows = [];
    rows.push(await scenario(server, "hot (one variant)", [products[0]!]));
    rows.push(await scenario(server, "spread (8 products)", products));
    for (const r of rows) {
      console.log(
        `${label.padEnd(10)} ${r.name.padEnd(20)} ${r.ordersPerSecond.toFixed(1).padStart(7)} orders/s   p50 ${r.p50.toFixed(0).padStart(5)} ms   p99 ${r.p99.toFixed(0).padStart(5)} ms   (${r.statuses})`,
      );
    }
    return rows;
  } finally {
    await server.stop();
  }
}

async function freshPgDatabase(): Promise<ScratchDatabase | undefined> {
  try {
    return await createScratchDatabase(PG_ADMIN, "atelier_bench", { connectionTimeoutMillis: 3000 });
  } catch (err) {
    console.log(`PostgreSQL   skipped: ${PG_ADMIN} cannot be reached (${(err as Error).message})`);
    return undefined;
  }
}

console.log(
  `checkout: ${ORDERS} orders per scenario, ${CONCURRENCY} buyers at once, test card, real server process\n`,
);
await runOn("PGlite", "");
const pgdb = await freshPgDatabase();
if (pgdb) {
  try {
    await runOn("PostgreSQL", pgdb.url);
  } finally {
    await pgdb.drop();
  }
}
