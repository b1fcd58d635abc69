/**
 * Analytics reports on a busy store: one site with 1,000,000 census hits and 100,000 orders over a
 * year, on PostgreSQL. Each 90-day report (sales by day, products, funnel, traffic) is timed from
 * the daily rollups the reports read, beside the same report computed from the raw rows (the
 * baseline, measured in the same run on the same rows); both must give the same figures.
 *
 *   npm run bench:analytics     BENCH_HITS=1000000 BENCH_ORDERS=100000 (defaults)
 *                               BENCH_RUNS=N timed runs of each rollup report (default 7)
 *                               DATABASE_URL=postgres://… the server to use (default
 *                               postgres://postgres@127.0.0.1:5432); a temporary database is made
 *                               on it and dropped afterwards
 *                               BENCH_KEEP=1 keeps that database (its URL is printed) to profile
 *                               the reports' queries with EXPLAIN (ANALYZE, BUFFERS)
 *
 * Rows are seeded with generate_series SQL (seconds, not minutes), then ANALYZEd; the rollups of
 * every day are built as the job queue builds them (rebuildDay), that build time is printed, and
 * the database is VACUUMed and ANALYZEd (as autovacuum would once the rollups fill).
 */
import { isDeepStrictEqual } from "node:util";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "../apps/server/src/db/client.js";
import { BillingStatus, SiteStatus, WebsiteType } from "../apps/server/src/db/enums.js";
import * as t from "../apps/server/src/db/schema.js";
import {
  type Range,
  type Source,
  addDays,
  funnelReport,
  productsReport,
  salesReport,
  siteOfReports,
  trafficReport,
} from "../apps/server/src/modules/analytics/reports.js";
import { rebuildDay } from "../apps/server/src/modules/analytics/rollups.js";
import { type ScratchDatabase, createScratchDatabase } from "../apps/server/test/scratch-database.js";

const HITS = Number(process.env.BENCH_HITS ?? 1_000_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SITE = "bench0analytics0000000001";
/** The year of data: local days FIRST … LAST in New York. */
const FIRST = "2025-11-28";
const LAST = "2026-11-27";

async function seed(database: Database) {
  const db = database.db;
  await db.insert(t.websites).values({
    id: SITE,
    identifier: "bench-analytics",
    title: "Analytics bench",
    websiteType: WebsiteType.COMMERCE,
    siteStatus: SiteStatus.TRIAL,
    billingStatus: BillingStatus.TRIAL,
    theme: "commerce",
    timeZone: "America/New_York",
  });
  await db.insert(t.websiteSettings).values({ websiteId: SITE });
  await db.insert(t.storeSettings).values({ websiteId: SITE, currency: "USD" });
  const start = sql`(${FIRST}::date)::timestamp at time zone 'America/New_York'`;
  const year = sql`interval '365 days'`;
  // Orders: spread evenly over the year, prices of eight tiers, a discount on every tenth, a
  // partial refund on every twentieth; one line each, a second line on every third.
  await db.execute(sql`
    insert into orders (id, website_id, order_number, email, status, currency, subtotal_cents,
      shipping_cents, discount_cents, grand_total_cents, refunded_cents, created_at, updated_at)
    select 'o' || i, ${SITE}, i, 'buyer' || (i % 5000) || '@example.com',
      case when i % 20 = 0 then 'partially_refunded' else 'paid' end, 'USD',
      ((i % 8) + 1) * 1250 + case when i % 3 = 0 then 990 else 0 end, 600,
      case when i % 10 = 0 then 500 else 0 end,
      ((i % 8) + 1) * 1250 + case when i % 3 = 0 then 990 else 0 end + 600 - case when i % 10 = 0 then 500 else 0 end,
      case when i % 20 = 0 then 1000 else 0 end,
      ${start} + ${year} * (i::float8 / ${ORDERS}), ${start} + ${year} * (i::float8 / ${ORDERS})
    from generate_series(1, ${ORDERS}) i`);
  await db.execute(sql`
    insert into order_lines (id, website_id, order_id, item_id, variant_id, sku, product_name, product_type,
      unit_price_cents, quantity)
    select 'l' || i, ${SITE}, 'o' || i, 'p' || (i % 40), 'p' || (i % 40) || '-v' || (i % 3), 'SKU' || (i % 40),
      'Product ' || (i % 40), 1, ((i % 8) + 1) * 1250, 1
    from generate_series(1, ${ORDERS}) i
    union all
    select 'm' || i, ${SITE}, 'o' || i, 'p' || ((i * 7) % 40), null, 'SKU' || ((i * 7) % 40),
      'Product ' || ((i * 7) % 40), 1, 330, 3
    from generate_series(3, ${ORDERS}, 3) i`);
  // Hits: visits of four hits (a landing page with its referrer, a product, an add to cart on
  // every third visit or another page, checkout on every sixth or another page); three visits a
  // visitor.
  await db.execute(sql`
    insert into analytics_hits (website_id, event, visitor_cookie, url, page_path, referrer, user_agent,
      item_id, data, created_at)
    select ${SITE},
      case when i % 4 = 2 and (i / 4) % 3 = 0 then 'add-to-cart'
           when i % 4 = 3 and (i / 4) % 6 = 0 then 'checkout-start' else 'view' end,
      'v' || (i / 12) || '|1|1|' || (i / 4) || '|3',
      'https://shop.example/' || case when i % 4 = 0 and (i / 4) % 9 = 0
        then '?utm_source=newsletter&utm_medium=email&utm_campaign=week-' || ((i / 4) % 52) else '' end,
      case when i % 4 = 1 then '/shop/p/p' || ((i / 4) % 40) else '/page-' || (i % 97) end,
      case when i % 4 <> 0 then 'https://shop.example/'
           else (array['https://www.google.com/', 'https://l.instagram.com/', '', 'https://blog' || ((i / 4) % 30) || '.example.org/',
                       'https://www.bing.com/', 'https://t.co/x', ''])[1 + (i / 4) % 7] end,
      case when (i / 4) % 3 = 0 then 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148'
           else 'Mozilla/5.0 (X11; Linux x86_64)' end,
      case when i % 4 in (1, 2) then 'p' || ((i / 4) % 40) end,
      case when i % 4 = 1 then '{"recordType": 11}'::jsonb else '{}'::jsonb end,
      ${start} + ${year} * (i::float8 / ${HITS})
    from generate_series(0, ${HITS} - 1) i`);
  await db.execute(sql`analyze`);
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await fn();
  return [performance.now() - started, value];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function bench(database: Database) {
  const db = database.db;
  const [seeded] = await time(() => seed(database));
  console.log(
    `Seeded ${HITS.toLocaleString("en-US")} hits and ${ORDERS.toLocaleString("en-US")} orders in ${(seeded / 1000).toFixed(1)} s.`,
  );
  let days = 0;
  const [built] = await time(async () => {
    for (let d = FIRST; d <= LAST; d = addDays(d, 1)) {
      await rebuildDay(db, SITE, d);
      days++;
    }
  });
  console.log(
    `Built the rollups of ${days} days in ${(built / 1000).toFixed(1)} s (${(built / days).toFixed(0)} ms a day, as the job queue does).`,
  );
  // The rollup tables were empty at the seed's ANALYZE; autovacuum would analyze them as they
  // fill on a live server, and vacuum them (an insert-only table is vacuumed after its inserts
  // too), which lets the visitor counts read the index alone (index-only scans).
  await db.execute(sql`vacuum analyze`);
  const site = await siteOfReports(db, SITE);
  const range: Range = { from: addDays(LAST, -89), to: LAST };
  const reports: [string, (source: Source) => Promise<unknown>][] = [
    ["sales by day", (s) => salesReport(db, site, range, "day", s)],
    ["sales by week", (s) => salesReport(db, site, range, "week", s)],
    ["products", (s) => productsReport(db, site, range, s)],
    ["funnel", (s) => funnelReport(db, site, range, s)],
    ["traffic", (s) => trafficReport(db, site, range, s)],
  ];
  console.log(
    `\n90-day reports, ${range.from} to ${range.to}, each with its previous 90 days (median of ${RUNS} runs from rollups):`,
  );
  console.log("report           from rollups   from raw rows   same figures");
  for (const [name, run] of reports) {
    await run("rollups"); // warm
    const times: number[] = [];
    let fromRollups: unknown;
    for (let i = 0; i < RUNS; i++) {
      const [ms, value] = await time(() => run("rollups"));
      times.push(ms);
      fromRollups = value;
    }
    const [raw, fromRaw] = await time(() => run("raw"));
    console.log(
      `${name.padEnd(16)} ${`${median(times).toFixed(1)} ms`.padStart(12)}   ${`${raw.toFixed(0)} ms`.padStart(13)}   ${isDeepStrictEqual(fromRollups, fromRaw) ? "yes" : "NO"}`,
    );
  }
}

console.log(
  `Analytics reports on PostgreSQL. Load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} CPUs.`,
);
const admin = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
let scratch: ScratchDatabase | undefined;
try {
  scratch = await createScratchDatabase(admin, "atelier_bench_analytics");
} catch (err) {
  console.log(`PostgreSQL: skipped (${(err as Error).message})`);
}
if (scratch) {
  const database = await openDatabase({ databaseUrl: scratch.url });
  try {
    await bench(database);
  } finally {
    await database.close();
    if (process.env.BENCH_KEEP)
      console.log(`\nKept the database for a look (drop it when done): ${scratch.url}`);
    else await scratch.drop();
  }
}
