/**
 * The size of version history: a 60-block page saved 1,000 times through the real code path (the
 * owner API's draft save, over HTTP by `inject`, signed in as the demo's owner) on embedded PGlite,
 * then the history's size on disk printed beside the page's own size.
 *
 *   npm run bench:history      (BENCH_SAVES=N saves, default 1000; BENCH_FOLD=1 saves 10 s apart,
 *                               so that one person's saves fold as they do while typing)
 *
 * By default the clock moves 3 minutes between saves, so no two saves fold into one version: every
 * save is kept, the largest history 1,000 saves can make. Each save changes the text of one block.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { FastifyInstance, InjectOptions } from "fastify";
import { buildApp } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase } from "../apps/server/src/db/client.js";
import { seedDemoIfEmpty } from "../apps/server/src/seed/demo.js";
import { DEMO_OWNER } from "../apps/server/test/fixtures.js";

const SAVES = Number(process.env.BENCH_SAVES ?? 1000);
const STEP_MS = process.env.BENCH_FOLD === "1" ? 10_000 : 3 * 60_000;
const BLOCKS = 60;

let now = Date.now();
const clock = { now: () => new Date(now) };
const dataDir = mkdtempSync(path.join(os.tmpdir(), "atelier-bench-history-"));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  PUBLIC_URL: "http://localhost",
});
const database = await openDatabase({ dataDir: "memory://" });
const app: FastifyInstance = await buildApp({ config, database, clock, logger: false });
await seedDemoIfEmpty(database.db, config, clock);
await app.ready();

/** A browser's cookies and crumb over `inject`. */
const cookies = new Map<string, string>();
async function call(opts: InjectOptions) {
  const headers: Record<string, string> = { host: "localhost" };
  if (cookies.size) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if ((opts.method ?? "GET") !== "GET" && cookies.get("crumb"))
    headers["x-csrf-token"] = cookies.get("crumb")!;
  const res = await app.inject({ ...opts, headers });
  for (const c of res.cookies as { name: string; value: string }[]) cookies.set(c.name, c.value);
  if (res.statusCode >= 400) throw new Error(`${opts.method} ${opts.url}: ${res.statusCode} ${res.body}`);
  return res;
}

/** Words made of syllables (about 2,000 of them), picked by a seeded generator: text that compresses as prose does, not as a repeated phrase. */
const SYLLABLES =
  "ka lo mi ne ra su te vo bi da fe gu ho ji ko la ma ni po qu re si tu va wo xe yo za an el in on".split(
    " ",
  );
function sentence(seed: number, n: number): string {
  let x = (seed * 2654435761) >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % SYLLABLES.length;
  };
  return Array.from({ length: n }, () =>
    Array.from({ length: 1 + (next() % 3) }, () => SYLLABLES[next()]).join(""),
  ).join(" ");
}

/** 60 blocks in rows of three: headings, paragraphs and quotes; save `n` rewrites block n % 60. */
function layoutOf(n: number) {
  const blocks = Array.from({ length: BLOCKS }, (_, i) => {
    const seed = i === n % BLOCKS ? n * 31 + i : i;
    if (i % 10 === 0) return { id: `h${i}`, type: "text", html: `<h2>${sentence(seed, 5)}</h2>` };
    if (i % 7 === 0) return { id: `q${i}`, type: "quote", text: sentence(seed, 18), source: "Maya" };
    return {
      id: `t${i}`,
      type: "text",
      html: `<p>${sentence(seed, 40)}.</p><p>${sentence(seed + 1, 30)}.</p>`,
    };
  });
  const rows = [];
  for (let i = 0; i < blocks.length; i += 3)
    rows.push({ columns: blocks.slice(i, i + 3).map((b) => ({ span: 4, blocks: [b] })) });
  return { rows };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const one = async <T>(q: ReturnType<typeof sql>): Promise<T> => {
  const res = (await database.db.execute(q)) as unknown as { rows: T[] } | T[];
  return (Array.isArray(res) ? res : res.rows)[0]!;
};

try {
  await call({ method: "GET", url: "/" });
  await call({ method: "POST", url: "/api/owner/session", payload: DEMO_OWNER });
  const { sites } = (await call({ method: "GET", url: "/api/owner/sites" })).json() as {
    sites: { id: string; title: string }[];
  };
  const base = `/api/owner/sites/${sites.find((s) => s.title === "Atelier Demo")!.id}`;
  const page = (
    await call({ method: "POST", url: `${base}/pages`, payload: { kind: "page", title: "Bench" } })
  ).json().page as { id: string };
  const t0 = performance.now();
  for (let n = 1; n <= SAVES; n++) {
    now += STEP_MS;
    await call({ method: "PUT", url: `${base}/pages/${page.id}/draft`, payload: layoutOf(n) });
  }
  const seconds = (performance.now() - t0) / 1000;

  const own = await one<{ row: number; json: number }>(sql`
    select (coalesce(pg_column_size(c.draft_layout), 0) + coalesce(pg_column_size(c.layout), 0))::int as row,
      (octet_length(coalesce(c.draft_layout::text, '')) + octet_length(coalesce(c.layout::text, '')))::int as json
    from collections c where c.id = ${page.id}`);
  const hist = await one<{ versions: number; stored: number; raw: number; rows: number }>(sql`
    select count(*)::int as versions, coalesce(sum(octet_length(content)), 0)::int as stored,
      coalesce(sum(raw_bytes), 0)::int as raw, coalesce(sum(pg_column_size(v.content)), 0)::int as rows
    from entity_versions v where entity_type = 'page' and entity_id = ${page.id}`);
  const table = await one<{ bytes: number }>(
    sql`select pg_total_relation_size('entity_versions')::int as bytes`,
  );
  console.log(
    `${SAVES} saves of a ${BLOCKS}-block page in ${seconds.toFixed(1)} s (${((seconds / SAVES) * 1000).toFixed(1)} ms a save)`,
  );
  console.log(
    `the page itself:        ${kb(own.row)} on disk (its layouts, compressed by PostgreSQL; ${kb(own.json)} as JSON)`,
  );
  console.log(`its history:            ${hist.versions} versions, ${kb(hist.rows)} on disk`);
  console.log(
    `  content, compressed:  ${kb(hist.stored)} (${kb(hist.stored / Math.max(1, hist.versions))} a version)`,
  );
  console.log(
    `  content, raw JSON:    ${kb(hist.raw)} (${(hist.raw / Math.max(1, hist.stored)).toFixed(1)}× the compressed)`,
  );
  console.log(`  history ÷ page:       ${(hist.rows / Math.max(1, own.row)).toFixed(1)}×`);
  console.log(
    `entity_versions table:  ${kb(table.bytes)} with its indexes (every version of the demo site too)`,
  );
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
