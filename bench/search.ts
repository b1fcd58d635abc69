/**
 * Site search at 1,000, 10,000 and 100,000 products in one site: the indexed search that
 * `/search` and `/api/search` run (searchSite, over the stored GIN-indexed documents of
 * migration 0009) beside the query search ran before, which built every row's tsvector on
 * every query (the baseline, measured in the same run on the same rows).
 *
 *   npm run bench:search        BENCH_SIZES=1000,10000,100000 (default)
 *                               BENCH_RUNS=N timed runs of the indexed query (default 30)
 *                               BENCH_BACKENDS=postgres,pglite (default both)
 *                               DATABASE_URL=postgres://… the server to use (default
 *                               postgres://postgres@127.0.0.1:5432); a temporary database is made
 *                               on it and dropped afterwards
 *
 * Runs on PostgreSQL and on embedded PGlite (in memory). Rows are written with one bulk SQL
 * insert per size step (the search triggers index them as any write does), then ANALYZEd.
 * Every product has a code in its title ("k777"), one of 40 × 40 adjective-noun pairs, 12 words
 * from a 3,000-word synthetic vocabulary, a shared paragraph, and every fifth the tag
 * "handmade": so the queries below match one row, about 0.4 %, 2.5 % and 20 % of the site.
 * The matching row count is printed beside each figure: ranking needs every match, so a
 * query matching a fifth of the site still grows with it.
 */
import os from "node:os";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { type Database, openDatabase } from "../apps/server/src/db/client.js";
import { BillingStatus, RecordType, SiteStatus, WebsiteType } from "../apps/server/src/db/enums.js";
import * as t from "../apps/server/src/db/schema.js";
import { searchSite, toPrefixQuery } from "../apps/server/src/modules/search/service.js";
import { type ScratchDatabase, createScratchDatabase } from "../apps/server/test/scratch-database.js";
import { baselineSearch } from "./search-baseline.js";

const SIZES = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const QUERIES = ["k777", "v1234", "oak bowl", "lin", "handmade"];
const ADJECTIVES =
  "oak ash walnut linen wool cotton stoneware porcelain brass copper glazed woven speckled matte rustic coastal tidal amber slate indigo ochre sage blush ivory charcoal forest sand river harbour meadow orchard cedar birch willow hazel juniper fennel saffron cobalt rose".split(
    " ",
  );
const NOUNS =
  "bowl mug vase plate jug cup tray dish apron towel napkin runner throw blanket cushion basket lamp candle shelf stool bench board spoon ladle pitcher planter tumbler saucer platter teapot bottle jar pouch tote scarf rug mat hook frame clock".split(
    " ",
  );
const PARAGRAPH =
  "Made by hand in our studio from materials we choose with care. Each piece is a little different: small marks and variations are part of how it was made. Wash gently and it will last for years.";

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? Number.NaN;
}
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1)).padStart(7);

async function timeRuns(runs: number, fn: () => Promise<unknown>, warmUp = true): Promise<number[]> {
  if (warmUp) await fn();
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return out;
}

async function createSite(db: Database["db"]): Promise<{ siteId: string; collectionId: string }> {
  const siteId = "benchsearchsite";
  await db.insert(t.websites).values({
    id: siteId,
    identifier: "bench-search",
    title: "Search bench",
    websiteType: WebsiteType.COMMERCE,
    siteStatus: SiteStatus.TRIAL,
    billingStatus: BillingStatus.TRIAL,
    theme: "commerce",
  });
  const collectionId = "bench-search-shop";
  await db.insert(t.collections).values({
    id: collectionId,
    websiteId: siteId,
    kind: "products",
    title: "Shop",
    urlSlug: "shop",
  });
  return { siteId, collectionId };
}

const words = (list: string[]) => sql.raw(`array[${list.map((w) => `'${w}'`).join(",")}]`);

async function addProducts(
  db: Database["db"],
  siteId: string,
  collectionId: string,
  from: number,
  to: number,
) {
  await db.execute(sql`
    insert into content_items (id, website_id, collection_id, record_type, url_id, title, excerpt, body, tags)
    select 'bench-item-' || g, ${siteId}, ${collectionId}, ${RecordType.STORE_ITEM}, 'item-' || g,
           initcap((${words(ADJECTIVES)})[1 + (g / 40) % 40] || ' ' || (${words(NOUNS)})[1 + g % 40]) || ' k' || g,
           '<p>' || ${PARAGRAPH} || '</p>',
           '<p>' || (select string_agg('v' || ((g * 7919 + k * 104729) % 3000), ' ')
                       from generate_series(1, 12) k) || '</p>',
           case when g % 5 = 0 then array['handmade'] else '{}'::text[] end
      from generate_series(${from}::int, ${to}::int) g`);
  await db.execute(sql`analyze content_items`);
  await db.execute(sql`analyze collections`);
}

async function matches(db: Database["db"], siteId: string, q: string): Promise<number> {
  const res = await db.execute(sql`
    select count(*)::int as n from content_items
     where website_id = ${siteId} and search_doc @@ to_tsquery('english', ${toPrefixQuery(q)!})`);
  return ((res as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) as number;
}

async function benchBackend(name: string, database: Database): Promise<void> {
  const { db } = database;
  const { siteId, collectionId } = await createSite(db);
  const now = new Date();
  console.log(`\n${name}`);
  console.log(
    "   items  query       matches   indexed median     p95   baseline median     p95   speed-up (median)",
  );
  let have = 0;
  for (const size of SIZES) {
    const started = performance.now();
    await addProducts(db, siteId, collectionId, have + 1, size);
    have = size;
    const seeded = performance.now() - started;
    for (const q of QUERIES) {
      const n = await matches(db, siteId, q);
      const indexed = await timeRuns(RUNS, () => searchSite(db, siteId, q, { limit: 20, now }));
      // The baseline takes seconds a query at 100,000 items: fewer runs there, no warm-up.
      const baseRuns = Math.max(2, Math.min(RUNS, Math.round(RUNS * (1000 / size))));
      const baseline = await timeRuns(baseRuns, () => baselineSearch(db, siteId, q, now), size <= 10_000);
      console.log(
        `${String(size).padStart(8)}  ${q.padEnd(10)} ${String(n).padStart(8)}   ${ms(median(indexed))} ms ${ms(quantile(indexed, 0.95))}   ${ms(median(baseline))} ms ${ms(quantile(baseline, 0.95))}   ${(median(baseline) / median(indexed)).toFixed(0).padStart(6)}×`,
      );
    }
    console.log(`          (seeding to ${size} items took ${(seeded / 1000).toFixed(1)} s)`);
  }
}

/** Runs on a temporary database made on the server of DATABASE_URL (else 127.0.0.1), then dropped. */
async function withPostgres(run: (url: string) => Promise<void>): Promise<void> {
  const admin = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  let scratch: ScratchDatabase;
  try {
    scratch = await createScratchDatabase(admin, "atelier_bench_search");
  } catch (err) {
    console.log(`\nPostgreSQL: skipped (${(err as Error).message})`);
    return;
  }
  try {
    await run(scratch.url);
  } finally {
    await scratch.drop();
  }
}

console.log(
  `Site search, one site; ${RUNS} timed runs of the indexed query per figure, fewer of the baseline at large sizes.`,
);
console.log(
  `Load average at start: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")} on ${os.cpus().length} CPUs.`,
);
const BACKENDS = (process.env.BENCH_BACKENDS ?? "postgres,pglite").split(",");
if (BACKENDS.includes("postgres"))
  await withPostgres(async (url) => {
    const database = await openDatabase({ databaseUrl: url });
    try {
      await benchBackend("PostgreSQL", database);
    } finally {
      await database.close();
    }
  });
if (BACKENDS.includes("pglite")) {
  const lite = await openDatabase({ dataDir: "memory://" });
  try {
    await benchBackend("PGlite (embedded, in memory)", lite);
  } finally {
    await lite.close();
  }
}
