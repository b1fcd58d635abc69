/**
 * SQL statements per store call, counted by PostgreSQL itself: one shopper goes through the steps
 * of bench:commerce (product page, add to a new cart, add a second item, change a quantity, read
 * the cart, the checkout quote, the order) against one server process on a scratch database whose
 * `log_statement` is `all`; the server's log lines of that database are counted between steps.
 *
 *   npm run commerce-statements -w bench   (BENCH_DATABASE_URL as bench:commerce; needs a superuser
 *                                            and the server's log file, BENCH_PG_LOG, default
 *                                            /var/log/postgresql/postgresql-15-main.log)
 *
 * Each step is taken by two shoppers, one after the other, and the second is counted, so that what
 * is kept per site version is warm, as it is under load (the second order meets the version the
 * first order's stock change made: what an order costs while others are being placed).
 *
 * What a call leaves to the job queue (the outbox's consumers, the rollups, emails) is counted too,
 * in its own column: after the answer, until no job is due. The queue's recurring jobs (campaign
 * dispatch, the recovery scan) are put off for the count, and its idle polls are left out: the
 * recurring jobs' "is one pending" checks and the claims that claimed nothing.
 */
import { readFileSync, statSync } from "node:fs";
import pg from "pg";
// @ts-expect-error a plain ES module script without declarations
import { SERVER_BUILD, buildServer } from "../scripts/build-server.mjs";
import { FetchClient } from "../apps/server/test/fetch-client.js";
import { address, orderBody } from "../apps/server/test/fixtures.js";
import { createScratchDatabase } from "../apps/server/test/scratch-database.js";
import { startServer, waitIdle } from "./server.js";

const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_LOG = process.env.BENCH_PG_LOG ?? "/var/log/postgresql/postgresql-15-main.log";

await buildServer();
const scratch = await createScratchDatabase(PG_ADMIN, "atelier_statements");
const dbName = new URL(scratch.url).pathname.slice(1);
const admin = new pg.Client({ connectionString: PG_ADMIN });
await admin.connect();
// Before the server starts, so that every connection of its pool logs what it runs.
await admin.query(`alter database ${dbName} set log_statement = 'all'`);
const server = await startServer({
  args: [SERVER_BUILD as string],
  env: { DATABASE_URL: scratch.url, STRIPE_SECRET_KEY: "", ATELIER_TEST_PAYMENT_LATENCY_MS: "0" },
  name: "statements",
});

const pidOf = (line: string) => /\[(\d+)\]/.exec(line)?.[1];

// A connection of the bench's own to the scratch database, whose statements are not logged.
const quiet = new pg.Client({ connectionString: scratch.url, options: "-c log_statement=none" });
await quiet.connect();

/** Whether a job is due or running (not one put off for the count). */
async function jobsPending(): Promise<boolean> {
  const { rows } = await quiet.query(
    "select 1 from jobs where done_at is null and attempts < max_attempts and run_at <= now() limit 1",
  );
  return rows.length > 0;
}

/** Waits for the job queue to run what is due (it polls every second) and the log to be written. */
async function drained(): Promise<void> {
  // A job queued at the end of a call may not be visible for a moment: look twice, a poll apart.
  for (let idle = 0; idle < 2; ) {
    await new Promise((r) => setTimeout(r, 1100));
    idle = (await jobsPending()) ? 0 : idle + 1;
  }
}

const CLAIM = /for update skip locked/i;
const DONE = /update "jobs" set .*("done_at"|"last_error") = /i;
/** A recurring job's "is one pending" check, made on every poll. */
const PENDING_CHECK = /select "id" from "jobs" where \("jobs"\."kind" = \$1 and "jobs"\."done_at" is null/i;

/**
 * Log lines about the scratch database written since `from` (a byte offset), without the job
 * queue's idle polls: the recurring jobs' pending checks, and each claim that claimed nothing (no
 * job finished or failed after it before the next claim), with the begin and commit around it on
 * the same backend.
 */
function statementsSince(from: number): string[] {
  const text = readFileSync(PG_LOG).subarray(from).toString("utf8");
  const lines = text
    .split("\n")
    .filter((l) => l.includes(`@${dbName} `) && /LOG: {2}(statement|execute)/.test(l))
    .filter((l) => !l.includes("LISTEN"));
  const dropped = new Set<number>();
  const dropWithTransaction = (i: number) => {
    dropped.add(i);
    const pid = pidOf(lines[i]!);
    for (let j = i - 1; j >= 0; j--)
      if (pidOf(lines[j]!) === pid && !dropped.has(j)) {
        if (/statement: begin/i.test(lines[j]!)) dropped.add(j);
        break;
      }
    for (let j = i + 1; j < lines.length; j++)
      if (pidOf(lines[j]!) === pid && !dropped.has(j)) {
        if (/statement: (commit|rollback)/i.test(lines[j]!)) dropped.add(j);
        break;
      }
  };
  // A poll cut by the window's start or end: its commit first, or its begin last, on its backend.
  const pids = new Set(lines.map(pidOf));
  for (const pid of pids) {
    const first = lines.findIndex((l) => pidOf(l) === pid);
    const last = lines.findLastIndex((l) => pidOf(l) === pid);
    if (/statement: (commit|rollback)/i.test(lines[first]!)) dropped.add(first);
    if (/statement: begin/i.test(lines[last]!)) dropped.add(last);
  }
  lines.forEach((l, i) => {
    if (PENDING_CHECK.test(l)) dropped.add(i);
    if (!CLAIM.test(l)) return;
    for (let j = i + 1; j < lines.length && !CLAIM.test(lines[j]!); j++) if (DONE.test(lines[j]!)) return;
    dropWithTransaction(i);
  });
  return lines.filter((_, i) => !dropped.has(i));
}

try {
  // The demo's images are completed in the background after start: not counted.
  await waitIdle([server.proc.pid!]);
  const product = (await (await fetch(`${server.base}/shop/p/stoneware-mug?format=json`)).json()) as {
    item: { id: string; structuredContent: { variants: { id: string; sku: string }[] } };
  };
  const other = (await (
    await fetch(`${server.base}/shop/p/everyday-tote?format=json`)
  ).json()) as typeof product;
  const add = (p: typeof product) => ({
    itemId: p.item.id,
    sku: p.item.structuredContent.variants[0]!.sku,
    quantity: 1,
  });

  const shoppers = [new FetchClient(server.base), new FetchClient(server.base)];
  const entryIds = ["", ""];
  const steps: [string, (s: FetchClient, i: number) => Promise<Response>][] = [
    ["product page", (s) => s.call("/shop/p/stoneware-mug")],
    ["add to a new cart", (s) => s.call("/api/commerce/shopping-cart/entries", "POST", add(product))],
    ["add a second item", (s) => s.call("/api/commerce/shopping-cart/entries", "POST", add(other))],
    [
      "change a quantity",
      (s, i) => s.call(`/api/commerce/shopping-cart/entries/${entryIds[i]}`, "PATCH", { quantity: 2 }),
    ],
    ["read the cart", (s) => s.call("/api/commerce/shopping-cart")],
    ["checkout quote", (s) => s.call("/api/commerce/checkout/quote?country=US&state=NY")],
    [
      "order (test card)",
      (s) => s.call("/api/commerce/orders", "POST", orderBody({ shippingAddress: address() })),
    ],
  ];
  for (const s of shoppers) await s.call("/");
  // The recurring jobs would run every few seconds whatever the shoppers do: put off for the count.
  await quiet.query(
    "update jobs set run_at = now() + interval '1 day' where kind in ('campaigns.dispatch', 'recovery.scan') and done_at is null",
  );
  await drained();
  const counts = new Map<string, { call: string[]; background: string[] }>();
  // Step by step, the first shopper then the second, whose statements are counted.
  for (const [name, call] of steps) {
    for (const [i, s] of shoppers.entries()) {
      const from = statSync(PG_LOG).size;
      const res = await call(s, i);
      const body = await res.text();
      if (res.status >= 300) throw new Error(`${name}: ${res.status} ${body}`);
      if (name === "add to a new cart") entryIds[i] = JSON.parse(body).newlyAdded.id;
      const answeredAt = Date.now();
      await drained();
      if (i === 1) {
        // Statements logged (by their time stamps) up to the answer are the call's.
        const lines = statementsSince(from);
        const ofCall = (l: string) => Date.parse(l.slice(0, 23).replace(" ", "T") + "Z") <= answeredAt;
        counts.set(name, { call: lines.filter(ofCall), background: lines.filter((l) => !ofCall(l)) });
      }
    }
  }
  if (process.env.BENCH_SHOW)
    for (const [name, { call, background }] of counts)
      console.log(`${name}:\n  ${call.join("\n  ")}\n background:\n  ${background.join("\n  ")}`);
  console.log("| call | SQL statements of the call | background (outbox and jobs) | total |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const [name, { call, background }] of counts)
    console.log(`| ${name} | ${call.length} | ${background.length} | ${call.length + background.length} |`);
} finally {
  await quiet.end().catch(() => {});
  await admin.query(`alter database ${dbName} reset log_statement`).catch(() => {});
  await server.stop();
  await admin.end();
  await scratch.drop();
}
