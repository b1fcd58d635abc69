/**
 * Site archive export and import of a large site, in one process on embedded PGlite:
 *
 *   npm run archive -w bench     (BENCH_PRODUCTS=N products added to the demo, default 10000;
 *                                 BENCH_MEDIA_MB=M megabytes of media files, default 200)
 *
 * The baseline is the demo site as seeded, exported in the same run. For each site the bench
 * prints rows, archive size, seconds, and the peak growth of the JavaScript heap and of the
 * process's resident memory over what they were before the export started (sampled every 10 ms):
 * a streamed export keeps the heap flat however large the site is.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { collections, contentItems, media, productVariants, websites } from "../apps/server/src/db/schema.js";
import { newId } from "../apps/server/src/lib/ids.js";
import { createMediaStore } from "../apps/server/src/media/index.js";
import { writeMediaFile } from "../apps/server/src/modules/media/storage.js";
import { backupSite, restoreSite } from "../apps/server/src/modules/site-archive/backup.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const MEDIA_MB = Number(process.env.BENCH_MEDIA_MB ?? 200);

const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-archive-"));
// MEDIA_STORE=s3 and S3_* from the environment measure the same on a bucket.
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  PUBLIC_URL: "http://localhost",
});
const store = createMediaStore(config);
const database = await openDatabase({ dataDir: "memory://" });
const db = database.db;
await seedDemoIfEmpty(db, config, { now: () => new Date() }, store);

async function measured<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; heapMb: number; rssMb: number }> {
  global.gc?.();
  const start = process.memoryUsage();
  let heap = start.heapUsed;
  let rss = start.rss;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    heap = Math.max(heap, m.heapUsed);
    rss = Math.max(rss, m.rss);
  }, 10);
  const t0 = performance.now();
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  return { result, seconds, heapMb: (heap - start.heapUsed) / 2 ** 20, rssMb: (rss - start.rss) / 2 ** 20 };
}

function line(
  label: string,
  rows: number,
  file: string,
  m: { seconds: number; heapMb: number; rssMb: number },
) {
  const mb = statSync(file).size / 2 ** 20;
  console.log(
    `${label.padEnd(34)} ${String(rows).padStart(7)} rows ${mb.toFixed(1).padStart(7)} MB ${m.seconds.toFixed(2).padStart(6)} s   heap +${m.heapMb.toFixed(1)} MB   rss +${m.rssMb.toFixed(1)} MB`,
  );
}

const baselineFile = path.join(dataDir, "demo.zip");
const base = await measured(() => backupSite(db, store, "demo", baselineFile));
const rowsOf = (m: { tables: { rows: number }[] }) => m.tables.reduce((n, t) => n + t.rows, 0);
line("export: demo (baseline)", rowsOf(base.result), baselineFile, base);

// A large copy of the demo: PRODUCTS products with two variants each, MEDIA_MB of media.
const big = await restoreSite(db, store, baselineFile, config.demoOwnerEmail, 1e12);
const [shop] = await db
  .select()
  .from(collections)
  .where(eq(collections.websiteId, big.siteId))
  .then((r) => r.filter((c) => c.kind === "products"));
for (let i = 0; i < PRODUCTS; i += 500) {
  const items = Array.from({ length: Math.min(500, PRODUCTS - i) }, (_, k) => ({
    id: newId(),
    websiteId: big.siteId,
    collectionId: shop!.id,
    recordType: 11,
    urlId: `bench-product-${i + k}`,
    title: `Bench product ${i + k}`,
    body: `<p>${"A sturdy, well-made thing. ".repeat(20)}</p>`,
    structuredContent: { productType: 1, variantOptionOrdering: ["Size"] },
  }));
  await db.insert(contentItems).values(items);
  await db.insert(productVariants).values(
    items.flatMap((it, k) =>
      ["S", "M"].map((size, n) => ({
        id: newId(),
        websiteId: big.siteId,
        itemId: it.id,
        sku: `BENCH-${i + k}-${size}`,
        attributes: { Size: size },
        priceCents: 1000 + n * 100,
        qtyInStock: 10,
      })),
    ),
  );
}
for (let i = 0; i < MEDIA_MB; i++) {
  const id = newId();
  const storagePath = await writeMediaFile(store, big.siteId, id, "noise.bin", randomBytes(2 ** 20));
  await db.insert(media).values({
    id,
    websiteId: big.siteId,
    filename: "noise.bin",
    contentType: "image/png",
    width: 1,
    height: 1,
    byteSize: 2 ** 20,
    storagePath,
  });
}
const [bigSite] = await db.select().from(websites).where(eq(websites.id, big.siteId));
const bigFile = path.join(dataDir, "big.zip");
const large = await measured(() => backupSite(db, store, bigSite!.id, bigFile));
line(`export: +${PRODUCTS} products, +${MEDIA_MB} MB media`, rowsOf(large.result), bigFile, large);
const back = await measured(() => restoreSite(db, store, bigFile, config.demoOwnerEmail, 1e12));
line(
  "import of that archive",
  Object.values(back.result.counts).reduce((n, c) => n + c, 0),
  bigFile,
  back,
);

await store.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
