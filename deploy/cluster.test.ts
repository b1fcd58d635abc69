/**
 * The several-machines layout, for real: 3 server processes on the machine's PostgreSQL, the
 * media in s3rver, nginx in front (`npm run cluster`'s layout, deploy/nginx.conf). An image
 * uploaded through one process is served by all; a product change through one is on every
 * process's warm page within 1 s; buyers racing through different processes never oversell; one
 * process is killed with SIGKILL during a stream of page loads and checkouts, and nginx fails
 * over: no paid order is lost, no stock leaks, and the only failures are requests that were in
 * flight on the killed process (counted and printed).
 *
 * Needs nginx (`apt-get install nginx-light`) and PostgreSQL (TEST_DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/postgres). Run: npm run test:cluster
 */
import http from "node:http";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchClient, firstSiteId, signInDemoOwner } from "../apps/server/test/fetch-client.js";
import { systemClock } from "../apps/server/src/lib/clock.js";
import { TestPaymentProvider } from "../apps/server/src/modules/payments/test-provider.js";
import { orderBody } from "../apps/server/test/fixtures.js";
import { type Cluster, startCluster } from "../scripts/cluster.js";

let cluster: Cluster;
let db: pg.Client;
let siteId = "";
let owner: FetchClient;
const direct = (i: number) => `http://127.0.0.1:${cluster.processes[i]!.port}`;

interface Product {
  itemId: string;
  sku: string;
  variantId: string;
}

async function product(slug: string): Promise<Product> {
  const page = (await (await fetch(`${cluster.url}/shop/p/${slug}?format=json`)).json()) as {
    item: { id: string; structuredContent: { variants: { id: string; sku: string }[] } };
  };
  const v = page.item.structuredContent.variants[0]!;
  return { itemId: page.item.id, sku: v.sku, variantId: v.id };
}

async function setStock(p: Product, qtyInStock: number) {
  const res = await owner.call(`/api/owner/sites/${siteId}/variants/${p.variantId}/stock`, "PATCH", {
    qtyInStock,
    unlimited: false,
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

const stockOf = async (p: Product) =>
  Number(
    (await db.query("select qty_in_stock from product_variants where id = $1", [p.variantId])).rows[0]
      .qty_in_stock,
  );
const paidUnits = async (p: Product) =>
  Number(
    (
      await db.query(
        `select coalesce(sum(l.quantity), 0) as n from order_lines l join orders o on o.id = l.order_id
         where l.variant_id = $1 and o.status = 'paid'`,
        [p.variantId],
      )
    ).rows[0].n,
  );

const keyedOrder = (key: string) => orderBody({ email: `${key}@example.com`, idempotencyKey: key });

/** A buyer with one unit of `p` in the cart, the cart filled through `base`. */
async function buyerWithCart(base: string, p: Product): Promise<FetchClient> {
  const b = new FetchClient(base);
  await b.call("/");
  const res = await b.call("/api/commerce/shopping-cart/entries", "POST", {
    itemId: p.itemId,
    sku: p.sku,
    quantity: 1,
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return b;
}

beforeAll(async () => {
  cluster = await startCluster({
    processes: 3,
    // A slow card answer keeps checkouts in flight long enough to be caught by the SIGKILL.
    extraEnv: { ATELIER_TEST_PAYMENT_LATENCY_MS: "150", STRIPE_SECRET_KEY: "" },
  });
  db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  owner = new FetchClient(cluster.url);
  const login = await signInDemoOwner(owner);
  expect(login.status).toBe(200);
  siteId = await firstSiteId(owner);
}, 180_000);

afterAll(async () => {
  await db?.end();
  await cluster?.stop();
}, 60_000);

describe("three processes behind nginx", () => {
  it("serves an image uploaded through one process from every process", async () => {
    // Log in and upload on process 1 itself; the session is in the database.
    const up = new FetchClient(direct(0));
    await signInDemoOwner(up);
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: "#aa3366" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([png], { type: "image/png" }), "cluster.png");
    const res = await up.call(`/api/owner/websites/${siteId}/media`, "POST", form);
    expect(res.status, await res.clone().text()).toBe(201);
    const { media } = (await res.json()) as { media: { assetUrl: string } };
    for (const base of [direct(0), direct(1), direct(2), cluster.url]) {
      const original = await fetch(`${base}${media.assetUrl}`);
      expect(original.status, base).toBe(200);
      expect(Buffer.compare(Buffer.from(await original.arrayBuffer()), png), base).toBe(0);
      const variant = await fetch(`${base}${media.assetUrl}?format=300w`);
      expect(variant.headers.get("content-type")).toBe("image/webp");
      expect(variant.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await sharp(Buffer.from(await variant.arrayBuffer())).metadata()).width).toBe(300);
    }
  });

  it("sees each client's own address through nginx (TRUST_PROXY), not nginx's", async () => {
    const res = await owner.call("/api/owner/account/sessions");
    const { sessions } = (await res.json()) as { sessions: { ip: string; current: boolean }[] };
    expect(sessions.find((s) => s.current)?.ip).toBe(owner.ip);
  });

  it("passes the Host on and compresses text answers once", async () => {
    const page = await fetch(`${cluster.url}/shop`, { headers: { "accept-encoding": "gzip" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-encoding")).toMatch(/^(gzip|br)$/);
    expect(await page.text()).toContain('data-page-type="');
    const image = await fetch(`${cluster.url}/shop/p/linen-work-apron?format=json`);
    const { item } = (await image.json()) as { item: { mainImage: { assetUrl: string } } };
    const svg = await fetch(`${cluster.url}${item.mainImage.assetUrl}?format=100w`, {
      headers: { "accept-encoding": "gzip" },
    });
    expect(svg.headers.get("content-type")).toBe("image/webp");
    expect(svg.headers.get("content-encoding")).toBeNull();
    // An unknown site's host is not the demo: nginx passed the Host header on unchanged.
    // (fetch does not let a caller set Host, node:http does.)
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          { host: "127.0.0.1", port: cluster.nginxPort, path: "/", headers: { host } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
      });
    expect(await statusFor("nosuchsite.localhost")).toBe(404);
    expect(await statusFor("localhost")).toBe(200);
  });

  it("shows a product change made through one process on every process's warm page within 1 s", async () => {
    const p = await product("field-notes-journal");
    const qtyOn = async (i: number) => {
      const page = (await (await fetch(`${direct(i)}/shop/p/field-notes-journal?format=json`)).json()) as {
        item: { structuredContent: { variants: { qtyInStock: number }[] } };
      };
      return page.item.structuredContent.variants[0]!.qtyInStock;
    };
    // Warm every process's page.
    for (let i = 0; i < 3; i++) for (let n = 0; n < 3; n++) await qtyOn(i);
    const target = 4321;
    const changer = new FetchClient(direct(0));
    changer.cookies = owner.cookies;
    const res = await changer.call(`/api/owner/sites/${siteId}/variants/${p.variantId}/stock`, "PATCH", {
      qtyInStock: target,
    });
    expect(res.status).toBe(200);
    const changedAt = performance.now();
    const seenAfter: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async (i) => {
        while ((await qtyOn(i)) !== target) {
          if (performance.now() - changedAt > 1000)
            throw new Error(`process ${i + 1} still shows the old page after 1 s`);
          await new Promise((r) => setTimeout(r, 20));
        }
        seenAfter[i] = performance.now() - changedAt;
      }),
    );
    console.log(
      `cluster: the change was on every process's page after ${seenAfter.map((ms) => `${ms.toFixed(0)} ms`).join(", ")}`,
    );
  });

  it("never oversells when buyers race through different processes", async () => {
    const p = await product("beeswax-candle");
    await setStock(p, 5);
    const before = await paidUnits(p);
    // Carts filled through one process, orders placed through another.
    const buyers = await Promise.all(Array.from({ length: 18 }, (_, i) => buyerWithCart(direct(i % 3), p)));
    const statuses = await Promise.all(
      buyers.map(async (b, i) => {
        b.base = direct((i + 1) % 3);
        const res = await b.call("/api/commerce/orders", "POST", keyedOrder(`race-buyer-${i}`));
        return { status: res.status, body: await res.text() };
      }),
    );
    const report = JSON.stringify(statuses.map((s) => `${s.status} ${s.body.slice(0, 120)}`));
    expect(
      statuses.filter((s) => s.status === 201),
      report,
    ).toHaveLength(5);
    expect(
      statuses.every((s) => s.status === 201 || (s.status >= 400 && s.status < 500)),
      report,
    ).toBe(true);
    expect(await stockOf(p)).toBe(0);
    expect((await paidUnits(p)) - before).toBe(5);
  });

  it("fails over when a process is killed mid-stream: no paid order lost, no stock leaked", async () => {
    const p = await product("everyday-tote");
    const START = 100_000;
    await setStock(p, START);
    const victim = cluster.processes[1]!;
    const victimAddr = `127.0.0.1:${victim.port}`;
    const pages = ["/", "/shop", "/shop/p/everyday-tote", "/blog", "/gallery"];
    const stopAt = performance.now() + 6000;
    const killAt = performance.now() + 2000;
    // The process is dying from the SIGKILL until the OS reports it gone (its sockets closed):
    // requests that started before that moment may have been sent to it.
    let goneAt = Number.POSITIVE_INFINITY;
    let inFlightAtKill = 0;
    let startedWhileDying = 0;
    let dying = false;
    let inFlight = 0;
    const failures: {
      what: string;
      status: number | string;
      upstream: string;
      startedBeforeGone: boolean;
    }[] = [];
    const retry: { key: string; cart: FetchClient }[] = [];
    const counts = { pages: 0, orders: 0 };

    const track = async (what: string, run: () => Promise<Response>) => {
      const started = performance.now();
      if (dying) startedWhileDying++;
      inFlight++;
      try {
        const res = await run();
        await res.arrayBuffer();
        if (res.status >= 500)
          failures.push({
            what,
            status: res.status,
            upstream: res.headers.get("x-upstream") ?? "",
            startedBeforeGone: started < goneAt,
          });
        return res.status;
      } catch (err) {
        failures.push({ what, status: String(err), upstream: "", startedBeforeGone: started < goneAt });
        return 0;
      } finally {
        inFlight--;
      }
    };
    const pageWorker = async (w: number) => {
      for (let n = 0; performance.now() < stopAt; n++) {
        await track("page", () => fetch(`${cluster.url}${pages[(w + n) % pages.length]}`));
        counts.pages++;
      }
    };
    const buyerWorker = async (w: number) => {
      for (let n = 0; performance.now() < stopAt; n++) {
        const b = new FetchClient(cluster.url);
        await track("page", () => b.call("/"));
        const added = await track("add to cart", () =>
          b.call("/api/commerce/shopping-cart/entries", "POST", {
            itemId: p.itemId,
            sku: p.sku,
            quantity: 1,
          }),
        );
        if (added !== 200) continue;
        const key = `stream-${w}-${n}`;
        const status = await track("checkout", () => b.call("/api/commerce/orders", "POST", keyedOrder(key)));
        counts.orders++;
        if (status !== 201) retry.push({ key, cart: b });
      }
    };
    const killer = (async () => {
      await new Promise((r) => setTimeout(r, killAt - performance.now()));
      const gone = new Promise((r) => victim.child.once("exit", r));
      inFlightAtKill = inFlight;
      dying = true;
      victim.child.kill("SIGKILL");
      await gone;
      goneAt = performance.now();
      dying = false;
    })();
    await Promise.all([killer, ...[0, 1, 2, 3].map(pageWorker), ...[0, 1, 2, 3].map(buyerWorker)]);

    console.log(
      `cluster: ${counts.pages} page loads and ${counts.orders} checkouts through nginx; process 2 killed with ${inFlightAtKill} requests in flight (${startedWhileDying} more started while it was dying); ${failures.length} failed: ${JSON.stringify(failures)}`,
    );
    // Only requests that had reached the killed process when it died failed.
    expect(failures.length).toBeLessThanOrEqual(inFlightAtKill + startedWhileDying);
    for (const f of failures) {
      expect(f.startedBeforeGone, JSON.stringify(f)).toBe(true);
      expect(f.status, JSON.stringify(f)).toBe(502);
      expect(f.upstream.split(/,\s*/).at(-1), JSON.stringify(f)).toBe(victimAddr);
    }

    // A buyer whose checkout was cut off sends it again (same idempotency key): a charge the dead
    // process made is found and settled once the reconciler's grace period has passed.
    for (const r of retry) {
      const deadline = Date.now() + 40_000;
      for (;;) {
        const res = await r.cart.call("/api/commerce/orders", "POST", keyedOrder(r.key));
        await res.arrayBuffer();
        if (res.status === 201 || Date.now() > deadline) {
          expect(res.status, r.key).toBe(201);
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
    // Every charge the payment service holds is a paid order, once; stock fell by exactly what was paid.
    const ledger = new TestPaymentProvider({
      dir: path.join(cluster.dir, "test-payments"),
      clock: systemClock,
    });
    const charges = (await ledger.charges()).filter((c) => c.status === "succeeded" && c.refundedCents === 0);
    const paidOrders = Number(
      (await db.query("select count(*) as n from orders where status = 'paid'")).rows[0].n,
    );
    expect(charges.length).toBe(paidOrders);
    expect(START - (await stockOf(p))).toBe(await paidUnits(p));
    expect(await paidUnits(p)).toBe(counts.orders);
  }, 120_000);
});
