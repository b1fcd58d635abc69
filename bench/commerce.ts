/**
 * Cart and checkout against the database's own limit, in one run:
 *
 *   npm run bench:commerce     (BENCH_ROUNDS="200x16,1000x64" shoppers × at a time;
 *                               BENCH_DATABASE_URL=postgres://… a server the bench may create a
 *                               scratch database on, default postgres://postgres@127.0.0.1:5432/postgres;
 *                               BENCH_PGBENCH_SECONDS=S per pgbench script, default 10;
 *                               BENCH_LOG_LEVEL, default info, as `npm start` logs;
 *                               BENCH_CPU_PROF=<folder> writes the server's `node --cpu-prof` there)
 *
 * One server process (the compiled build, as `npm start` runs it) on a scratch PostgreSQL
 * database with the demo site, dropped afterwards. Each shopper has an address of their own
 * (X-Forwarded-For) and the crumb cookie of a page view, and goes through: GET a product page,
 * add to a new cart, add a second item, read the cart, check out with the test card. The
 * shoppers take each step together, C at a time (autocannon, `amount` = shoppers), so that each
 * step is timed and its CPU counted on its own: Node CPU is the server's utime+stime from /proc,
 * PostgreSQL CPU that of the scratch database's backends (found in pg_stat_activity, read from
 * /proc). Beside it, pgbench runs the same writes as SQL scripts (bench/sql/add-to-cart.sql,
 * bench/sql/checkout.sql) on the same database's tables, and the ratio Atelier ÷ pgbench is
 * printed. Last, a flash sale: 1,000 shoppers race for 50 units; exactly 50 orders, every other
 * shopper the SPEC's "not enough" message, no 5xx.
 */
import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error autocannon ships no type declarations
import autocannon from "autocannon";
import pg from "pg";
import { MSG_NOT_ENOUGH_STOCK } from "@atelier/commerce";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";
import { FetchClient, firstSiteId, signInDemoOwner } from "../apps/server/test/fetch-client.js";
import { orderBody } from "../apps/server/test/fixtures.js";
import { createScratchDatabase } from "../apps/server/test/scratch-database.js";
import { type BenchServer, root, startServer, waitIdle } from "./server.js";
import { DEMO_PRODUCTS } from "./demo-products.js";

const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROUNDS = (process.env.BENCH_ROUNDS ?? "200x16,1000x64").split(",").map((r) => {
  const [shoppers, concurrency] = r.split("x").map(Number);
  return { shoppers: shoppers!, concurrency: concurrency! };
});
const PGBENCH_SECONDS = Number(process.env.BENCH_PGBENCH_SECONDS ?? 10);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const CRUMB = "benchcrumbbenchcrumb00";
const FLASH_SHOPPERS = 1000;
const FLASH_UNITS = 50;
const TICK_MS = 1000 / 100; // /proc counts CPU in clock ticks of 10 ms

const PRODUCTS = DEMO_PRODUCTS;

interface Product {
  slug: string;
  itemId: string;
  sku: string;
  variantId: string;
}

interface Shopper {
  ip: string;
  first: Product;
  second: Product;
  cart?: string;
}

interface Step {
  name: string;
  ops: number;
  opsPerSecond: number;
  p50: number;
  p99: number;
  nodeMsPerOp: number;
  pgMsPerOp: number;
  statuses: Map<number, number>;
  bodies: string[];
}

const loadavg = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");

// ─── CPU from /proc ──────────────────────────────────────────────────────────────────────────

function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU used by a changing set of processes (the database's backends come and go with the pool):
 * sampled every 200 ms, each process counted from its first sample (or from 0 when it started
 * during the measurement) to its last.
 */
class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> = Promise.resolve();

  constructor(private readonly pids: () => Promise<number[]>) {}

  private async sample(fresh: boolean) {
    for (const pid of await this.pids()) {
      const t = cpuTicks(pid);
      if (Number.isNaN(t)) continue;
      if (!this.first.has(pid)) this.first.set(pid, fresh ? t : 0);
      this.last.set(pid, t);
    }
  }

  async start() {
    await this.sample(true);
    this.timer = setInterval(() => {
      this.sampling = this.sampling.then(() => this.sample(false)).catch(() => {});
    }, 200);
  }

  /** Milliseconds of CPU used since start. */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    await this.sampling;
    await this.sample(false);
    let ticks = 0;
    for (const [pid, t] of this.last) ticks += t - this.first.get(pid)!;
    return ticks * TICK_MS;
  }
}

// ─── The shoppers' steps ─────────────────────────────────────────────────────────────────────

let addresses = 0;
const newAddress = () => {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

interface StepRequest {
  method: string;
  path: string;
  body?: string;
  /** The cookie header besides the crumb. */
  cookie?: string;
}

/**
 * One step taken by every shopper, `concurrency` at a time: autocannon sends exactly one request
 * per shopper; `onAnswer` sees each answer.
 */
async function step(
  ctx: { server: BenchServer; pgPids: () => Promise<number[]> },
  name: string,
  shoppers: Shopper[],
  concurrency: number,
  request: (s: Shopper) => StepRequest,
  onAnswer: (s: Shopper, status: number, body: string, headers: Record<string, unknown>) => void = () => {},
): Promise<Step> {
  let next = 0;
  const statuses = new Map<number, number>();
  const bodies: string[] = [];
  const pid = ctx.server.proc.pid!;
  const node = new CpuMeter(async () => [pid]);
  const pgCpu = new CpuMeter(ctx.pgPids);
  await Promise.all([node.start(), pgCpu.start()]);
  const started = performance.now();
  // autocannon notices that the last answer came only at its next one-second tick: the step's
  // time is measured from the start to the last answer instead.
  let lastAnswer = started;
  const result = await autocannon({
    url: ctx.server.base,
    connections: Math.min(concurrency, shoppers.length),
    amount: shoppers.length,
    timeout: 30,
    requests: [
      {
        setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
          const shopper = shoppers[next++ % shoppers.length]!;
          context.shopper = shopper;
          const r = request(shopper);
          const headers: Record<string, string> = {
            "x-forwarded-for": shopper.ip,
            "x-csrf-token": CRUMB,
            cookie: [`crumb=${CRUMB}`, r.cookie].filter(Boolean).join("; "),
          };
          if (r.body) headers["content-type"] = "application/json";
          return { ...req, method: r.method, path: r.path, body: r.body, headers };
        },
        onResponse: (
          status: number,
          body: string,
          context: Record<string, unknown>,
          headers: Record<string, unknown>,
        ) => {
          lastAnswer = performance.now();
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status >= 300 && bodies.length < 2000) bodies.push(body);
          onAnswer(context.shopper as Shopper, status, body, headers);
        },
      },
    ],
  });
  const seconds = (lastAnswer - started) / 1000;
  const [nodeMs, pgMs] = await Promise.all([node.stop(), pgCpu.stop()]);
  const ops = shoppers.length;
  return {
    name,
    ops,
    opsPerSecond: ops / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    nodeMsPerOp: nodeMs / ops,
    pgMsPerOp: pgMs / ops,
    statuses,
    bodies,
  };
}

const json = (body: unknown) => JSON.stringify(body);
const addBody = (p: Product) => json({ itemId: p.itemId, sku: p.sku, quantity: 1 });
const cartCookie = (s: Shopper) => (s.cart ? `atelier_cart=${s.cart}` : undefined);

function keepCart(s: Shopper, _status: number, _body: string, headers: Record<string, unknown>) {
  const cookies = [headers["set-cookie"] ?? []].flat() as string[];
  const cart = cookies.find((c) => c.startsWith("atelier_cart="));
  if (cart) s.cart = cart.split(";")[0]!.slice("atelier_cart=".length);
}

let orders = 0;
/** The order of a shopper's cart, by the test card, from `<who><n>@example.com`. */
const checkoutBy =
  (who: string) =>
  (s: Shopper): StepRequest => ({
    method: "POST",
    path: "/api/commerce/orders",
    body: json(
      orderBody({ email: `${who}${++orders}@example.com`, idempotencyKey: `bench-${s.ip}-${orders}` }),
    ),
    cookie: cartCookie(s),
  });

type Ctx = { server: BenchServer; pgPids: () => Promise<number[]> };

async function shop(ctx: Ctx, products: Product[], shoppers: number, concurrency: number): Promise<Step[]> {
  const list: Shopper[] = Array.from({ length: shoppers }, (_, i) => ({
    ip: newAddress(),
    first: products[i % products.length]!,
    second: products[(i + 1) % products.length]!,
  }));
  const steps: Step[] = [];
  steps.push(
    await step(ctx, "product page", list, concurrency, (s) => ({
      method: "GET",
      path: `/shop/p/${s.first.slug}`,
    })),
  );
  steps.push(
    await step(
      ctx,
      "add to a new cart",
      list,
      concurrency,
      (s) => ({ method: "POST", path: "/api/commerce/shopping-cart/entries", body: addBody(s.first) }),
      keepCart,
    ),
  );
  steps.push(
    await step(ctx, "add a second item", list, concurrency, (s) => ({
      method: "POST",
      path: "/api/commerce/shopping-cart/entries",
      body: addBody(s.second),
      cookie: cartCookie(s),
    })),
  );
  steps.push(
    await step(ctx, "read the cart", list, concurrency, (s) => ({
      method: "GET",
      path: "/api/commerce/shopping-cart",
      cookie: cartCookie(s),
    })),
  );
  steps.push(await step(ctx, "check out (test card)", list, concurrency, checkoutBy("shopper")));
  return steps;
}

// ─── The store: products and stock through the owner's API ─────────────────────────────────

async function productOf(base: string, slug: string): Promise<Product> {
  const page = (await (await fetch(`${base}/shop/p/${slug}?format=json`)).json()) as {
    item: { id: string; structuredContent?: { variants?: { id: string; sku: string }[] } };
  };
  const v = page.item.structuredContent?.variants?.[0];
  if (!v) throw new Error(`no variant for ${slug}`);
  return { slug, itemId: page.item.id, sku: v.sku, variantId: v.id };
}

async function ownerClient(base: string) {
  const owner = new FetchClient(base);
  const login = await signInDemoOwner(owner);
  if (login.status !== 200) throw new Error(`owner login: ${login.status}`);
  const siteId = await firstSiteId(owner);
  return {
    siteId,
    async setStock(variantId: string, qtyInStock: number) {
      const res = await owner.call(`/api/owner/sites/${siteId}/variants/${variantId}/stock`, "PATCH", {
        qtyInStock,
      });
      if (res.status !== 200) throw new Error(`stock: ${res.status} ${await res.text()}`);
    },
  };
}

// ─── pgbench ─────────────────────────────────────────────────────────────────────────────────

interface PgbenchRun {
  tps: number;
  latencyMs: number;
  pgMsPerTx: number;
  /** pgbench's own CPU per transaction (the client, as Node is Atelier's). */
  clientMsPerTx: number;
}

async function pgbench(
  url: string,
  script: string,
  clients: number,
  vars: Record<string, string>,
  pgPids: (app: string) => Promise<number[]>,
): Promise<PgbenchRun> {
  const u = new URL(url);
  const meter = new CpuMeter(() => pgPids("pgbench"));
  const args = [
    "-n",
    `-c${clients}`,
    `-j${Math.min(clients, os.cpus().length)}`,
    `-T${PGBENCH_SECONDS}`,
    "-f",
    path.join(root, "bench/sql", script),
    ...Object.entries(vars).flatMap(([k, v]) => ["-D", `${k}='${v}'`]),
    "-h",
    // A Unix socket's folder when the URL names one (?host=/var/run/postgresql), as the server's connection does.
    u.searchParams.get("host") ?? u.hostname,
    "-p",
    u.port || "5432",
    "-U",
    decodeURIComponent(u.username || "postgres"),
    u.pathname.slice(1),
  ];
  // Run asynchronously, so that the CPU meter samples while pgbench works.
  let child: ReturnType<typeof execFile> | undefined;
  const run = new Promise<{ stdout: string; status: number; stderr: string }>((resolve) => {
    child = execFile(
      "pgbench",
      args,
      { env: { ...process.env, PGPASSWORD: u.password } },
      (err, stdout, stderr) => resolve({ stdout, stderr, status: err ? 1 : 0 }),
    );
  });
  await new Promise((r) => setTimeout(r, 300));
  const client = new CpuMeter(async () => (child?.pid ? [child.pid] : []));
  await Promise.all([meter.start(), client.start()]);
  const out = await run;
  const [pgMs, clientMs] = await Promise.all([meter.stop(), client.stop()]);
  if (out.status !== 0) throw new Error(`pgbench ${script} failed:\n${out.stderr}`);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out.stdout)?.[1]);
  const latencyMs = Number(/latency average = ([\d.]+) ms/.exec(out.stdout)?.[1]);
  const transactions = Number(/number of transactions actually processed: (\d+)/.exec(out.stdout)?.[1]);
  return { tps, latencyMs, pgMsPerTx: pgMs / transactions, clientMsPerTx: clientMs / transactions };
}

/** What the database says the flash sale sold: order lines of the flash shoppers' orders, stock left. */
async function flashSaleInDatabase(url: string, variantId: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const stock = await c.query<{ qty: number }>(
      "select qty_in_stock as qty from product_variants where id = $1",
      [variantId],
    );
    const sold = await c.query<{ n: string }>(
      "select coalesce(sum(l.quantity), 0) as n from order_lines l join orders o on o.id = l.order_id where l.variant_id = $1 and o.email like 'flash%'",
      [variantId],
    );
    return { stock: stock.rows[0]!.qty, sold: Number(sold.rows[0]!.n) };
  } finally {
    await c.end();
  }
}

// ─── The run ─────────────────────────────────────────────────────────────────────────────────

const f0 = (n: number) => n.toFixed(0);
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const statusText = (m: Map<number, number>) => [...m].map(([s, c]) => `${s}×${c}`).join(" ");

function printSteps(title: string, steps: Step[]) {
  console.log(`\n${title}`);
  console.log("| step | ops/s | p50 ms | p99 ms | Node CPU ms/op | PostgreSQL CPU ms/op | answers |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const s of steps) {
    console.log(
      `| ${s.name} | ${f0(s.opsPerSecond)} | ${s.p50} | ${s.p99} | ${f2(s.nodeMsPerOp)} | ${f2(s.pgMsPerOp)} | ${statusText(s.statuses)} |`,
    );
  }
}

async function main() {
  if (spawnSync("pgbench", ["--version"]).status !== 0) throw new Error("pgbench is not installed");
  await buildServer();
  console.log(
    `bench:commerce — ${os.cpus().length} CPUs, load average ${loadavg()} at the start; rounds ${ROUNDS.map((r) => `${r.shoppers} shoppers ${r.concurrency} at a time`).join(", ")}`,
  );
  const scratch = await createScratchDatabase(PG_ADMIN, "atelier_commerce", {
    connectionTimeoutMillis: 3000,
  });
  const dbName = new URL(scratch.url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  const backends = async (app?: string) =>
    (
      await admin.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = $1 and ($2::text is null or application_name = $2)",
        [dbName, app ?? null],
      )
    ).rows.map((r) => r.pid);
  const server = await startServer({
    args: [...(CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : []), SERVER_BUILD as string],
    env: {
      DATABASE_URL: scratch.url,
      STRIPE_SECRET_KEY: "",
      ATELIER_TEST_PAYMENT_LATENCY_MS: "0",
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    },
    name: "commerce",
  });
  const ctx: Ctx = { server, pgPids: () => backends() };
  try {
    const products = await Promise.all(PRODUCTS.map((slug) => productOf(server.base, slug)));
    const owner = await ownerClient(server.base);
    for (const p of products) await owner.setStock(p.variantId, 1_000_000);
    await waitIdle([server.proc.pid!]);

    // Warm-up, not counted: the first requests compile the code paths.
    await shop(ctx, products, 200, 16);

    const rounds: { shoppers: number; concurrency: number; steps: Step[]; load: string }[] = [];
    for (const r of ROUNDS) {
      const steps = await shop(ctx, products, r.shoppers, r.concurrency);
      rounds.push({ ...r, steps, load: loadavg() });
    }

    // pgbench, on the same database, with as many clients as shoppers at a time (at most 32).
    // A variant with counted stock, so that the decrement is a real one.
    const p = products.find((x) => x.slug === "wool-beanie")!;
    const vars = { website: owner.siteId, item: p.itemId, variant: p.variantId, sku: p.sku };
    const baselines = new Map<number, { add: PgbenchRun; checkout: PgbenchRun; load: string }>();
    for (const r of ROUNDS) {
      const clients = Math.min(r.concurrency, 32);
      if (baselines.has(clients)) continue;
      const add = await pgbench(scratch.url, "add-to-cart.sql", clients, vars, backends);
      const checkout = await pgbench(scratch.url, "checkout.sql", clients, vars, backends);
      baselines.set(clients, { add, checkout, load: loadavg() });
    }

    // The flash sale: 1,000 shoppers, 50 units.
    const hot = products.find((x) => x.slug === "stoneware-mug")!;
    await owner.setStock(hot.variantId, FLASH_UNITS);
    const flashShoppers: Shopper[] = Array.from({ length: FLASH_SHOPPERS }, () => ({
      ip: newAddress(),
      first: hot,
      second: hot,
    }));
    const flashAdd = await step(
      ctx,
      "flash sale: add",
      flashShoppers,
      64,
      (s) => ({ method: "POST", path: "/api/commerce/shopping-cart/entries", body: addBody(s.first) }),
      keepCart,
    );
    const flashOrder = await step(ctx, "flash sale: check out", flashShoppers, 64, checkoutBy("flash"));
    const flashLoad = loadavg();
    const left = await flashSaleInDatabase(scratch.url, hot.variantId);

    // ─── Report ───
    for (const r of rounds) {
      const base = baselines.get(Math.min(r.concurrency, 32))!;
      const add = r.steps.find((s) => s.name === "add to a new cart")!;
      const checkout = r.steps.find((s) => s.name.startsWith("check out"))!;
      console.log(
        `\n## ${r.shoppers} shoppers, ${r.concurrency} at a time (load average ${r.load}; pgbench ${Math.min(r.concurrency, 32)} clients, load ${base.load})`,
      );
      console.log(
        `ratio add to cart: ${f2(add.opsPerSecond / base.add.tps)}  (${f0(add.opsPerSecond)} adds/s ÷ pgbench ${f0(base.add.tps)} tps)`,
      );
      console.log(
        `ratio checkout:    ${f2(checkout.opsPerSecond / base.checkout.tps)}  (${f0(checkout.opsPerSecond)} orders/s ÷ pgbench ${f0(base.checkout.tps)} tps)`,
      );
      // On a machine busy with other work the rates follow the load; CPU per operation does not.
      const cpuRatio = (s: Step, b: PgbenchRun) =>
        (b.pgMsPerTx + b.clientMsPerTx) / (s.nodeMsPerOp + s.pgMsPerOp);
      console.log(
        `CPU ratio (pgbench CPU per transaction ÷ Atelier Node+PostgreSQL CPU per operation): add ${f2(cpuRatio(add, base.add))}, checkout ${f2(cpuRatio(checkout, base.checkout))}`,
      );
      printSteps("Atelier, one process:", r.steps);
      console.log("\npgbench, same database and tables:");
      console.log("| script | tps | latency ms | PostgreSQL CPU ms/tx | pgbench CPU ms/tx |");
      console.log("| --- | ---: | ---: | ---: | ---: |");
      for (const [name, b] of [
        ["bench/sql/add-to-cart.sql", base.add],
        ["bench/sql/checkout.sql", base.checkout],
      ] as const) {
        console.log(
          `| ${name} | ${f0(b.tps)} | ${f1(b.latencyMs)} | ${f2(b.pgMsPerTx)} | ${f2(b.clientMsPerTx)} |`,
        );
      }
    }
    const refused = flashOrder.bodies.filter((b) => b.includes(MSG_NOT_ENOUGH_STOCK)).length;
    const fiveHundreds = [...flashOrder.statuses, ...flashAdd.statuses]
      .filter(([s]) => s >= 500)
      .reduce((n, [, c]) => n + c, 0);
    const sold = flashOrder.statuses.get(201) ?? 0;
    const exact =
      sold === FLASH_UNITS &&
      left.sold === FLASH_UNITS &&
      left.stock === 0 &&
      refused === FLASH_SHOPPERS - FLASH_UNITS &&
      fiveHundreds === 0;
    console.log(
      `\n## Flash sale: ${FLASH_SHOPPERS} shoppers, ${FLASH_UNITS} units, 64 at a time (load average ${flashLoad})`,
    );
    printSteps("", [flashAdd, flashOrder]);
    console.log(
      `orders taken ${sold} (order lines ${left.sold}, stock left ${left.stock}); "${MSG_NOT_ENOUGH_STOCK}" ×${refused}; 5xx ×${fiveHundreds}; checkout p99 ${flashOrder.p99} ms — ${exact ? "EXACT" : "NOT EXACT"}`,
    );
    console.log(`\nload average ${loadavg()} at the end`);
    if (!exact) process.exitCode = 1;
  } finally {
    await server.stop();
    await admin.end();
    await scratch.drop();
  }
}

await main();
