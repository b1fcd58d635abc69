/**
 * Embedded test databases reused by the test files of a worker. Vitest runs a worker's files in
 * one process (isolate: false), and opening PGlite from the run's migrated dump costs most of a
 * second of CPU (loading the dump, booting PostgreSQL); emptying a used one costs a few
 * milliseconds. A database a file gives back is kept, and emptied (every table truncated,
 * identities restarted, session settings reset) before the next file gets it, so each file
 * still starts from a migrated, empty database.
 */
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { type Database, type Db, openDatabase } from "../src/db/client.js";
import * as schema from "../src/db/schema.js";
import { pgliteTemplateDump } from "./template-database.js";

/** Databases given back, at most this many kept (each holds its own PostgreSQL's memory). */
const KEEP = 2;
const idle: Database[] = [];

/** Truncates every table of the app's schema; the migrations' own table (schema drizzle) stays. */
const EMPTIER = sql.raw(`
  create or replace function pg_temp.atelier_test_empty() returns void language plpgsql as $$
  declare tables text;
  begin
    select string_agg(format('%I.%I', schemaname, tablename), ', ') into tables
      from pg_tables where schemaname = 'public';
    if tables is not null then
      execute 'truncate ' || tables || ' restart identity cascade';
    end if;
  end $$`);

/**
 * What a test may change besides rows (forms.test.ts renames a table, render.themes.test.ts
 * drops one): a database whose tables, columns, constraints, triggers or functions differ from
 * the migrated ones is closed, not kept.
 */
const SHAPE = sql.raw(`
  select md5(string_agg(part, ',' order by part)) as shape from (
    select concat_ws(':', 'r', c.relname, c.relkind, a.attname, a.atttypid, a.attnotnull) as part
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public'
    union all
    select concat_ws(':', 'c', conname, conrelid::regclass) from pg_constraint
      where connamespace = 'public'::regnamespace
    union all
    select concat_ws(':', 't', tgname, tgenabled, tgrelid::regclass) from pg_trigger where not tgisinternal
    union all
    select concat_ws(':', 'f', proname, md5(prosrc)) from pg_proc where pronamespace = 'public'::regnamespace
  ) parts`);
let migratedShape: string | undefined;

async function shapeOf(database: Database): Promise<string> {
  const res = (await database.db.execute(SHAPE)) as unknown as { rows: { shape: string }[] };
  return res.rows[0]!.shape;
}

async function emptied(database: Database): Promise<Database> {
  await database.db.execute(sql`reset all`);
  await database.db.execute(sql`select pg_temp.atelier_test_empty()`);
  return database;
}

async function opened(): Promise<Database> {
  const database = await openDatabase({ dataDir: "memory://", loadDataDir: pgliteTemplateDump() });
  await database.db.execute(EMPTIER);
  migratedShape ??= await shapeOf(database);
  return database;
}

/**
 * A migrated, empty embedded database; `close` gives it back to the worker's pool. Closed, it
 * refuses every query as a closed PGlite does, so nothing a test left running reaches the next
 * file's data.
 */
export async function pooledDatabase(): Promise<Database> {
  const reused = idle.pop();
  const base = reused ? await emptied(reused) : await opened();
  const hooks: (() => Promise<void>)[] = [];
  let closing = false;
  let closed = false;
  const client = (base.db as unknown as { $client: PGlite }).$client;
  const leased = new Proxy(client, {
    get(target, key) {
      if (closed) throw new Error("PGlite is closed");
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const db = drizzle(leased, { schema }) as unknown as Db;
  return {
    ...base,
    db,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    onClose: (hook) => void hooks.push(hook),
    close: async () => {
      if (closing) return;
      closing = true;
      for (const hook of hooks.splice(0)) await hook().catch(() => {});
      closed = true;
      if (idle.length < KEEP && (await shapeOf(base).catch(() => "")) === migratedShape) idle.push(base);
      else await base.close();
    },
  };
}
