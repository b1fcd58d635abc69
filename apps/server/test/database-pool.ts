/**
 * Embedded test databases reused by the test files of a worker. Vitest runs a worker's files in
 * one process (isolate: false), and a new PGlite costs most of a second (loading the run's
 * migrated dump, booting PostgreSQL); emptying a used one costs a few tens of milliseconds. So a
 * database a file gives back is kept and emptied (every row deleted, identities restarted,
 * settings reset) before the next file gets it: each file still starts from a migrated, empty
 * database. (On PostgreSQL, TEST_DATABASE_URL, each file gets a copy of the run's template
 * instead: reused there, rows deleted from tables that autovacuum then cleans come back in
 * another physical order, and lists ordered only by equal timestamps changed order.)
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

/**
 * Deletes every row of the app's tables (triggers and foreign keys off, as a replica does) and
 * restarts their identities; the migrations' own table (schema drizzle) stays. Faster than a
 * TRUNCATE of every table (25–75 ms against 100–200 ms), which makes new files for each.
 */
const EMPTY = sql.raw(`
  do $$ declare r record;
  begin
    set local session_replication_role = replica;
    for r in select tablename from pg_tables where schemaname = 'public' loop
      execute format('delete from public.%I', r.tablename);
    end loop;
    for r in select sequencename from pg_sequences where schemaname = 'public' loop
      execute format('alter sequence public.%I restart', r.sequencename);
    end loop;
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

async function opened(): Promise<Database> {
  const database = await openDatabase({ dataDir: "memory://", loadDataDir: pgliteTemplateDump() });
  migratedShape ??= await shapeOf(database);
  return database;
}

/** A kept database emptied, or undefined when emptying failed (it is closed). */
async function emptied(database: Database): Promise<Database | undefined> {
  try {
    await database.db.execute(sql`reset all`);
    await database.db.execute(EMPTY);
    return database;
  } catch {
    await database.close().catch(() => {});
    return undefined;
  }
}

/** The driver's client seen through a lease: once the lease is closed it refuses every use. */
function leased<T extends object>(client: T, isClosed: () => boolean): T {
  return new Proxy(client, {
    get(target, key) {
      if (isClosed()) throw new Error("the database is closed");
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * A migrated, empty embedded database; `close` gives it back to the worker's pool. Closed, it
 * refuses every query, as a closed PGlite does, so nothing a test left running reaches the next
 * file's data.
 */
export async function pooledDatabase(): Promise<Database> {
  let reused: Database | undefined;
  while (!reused && idle.length) reused = await emptied(idle.pop()!);
  const base = reused ?? (await opened());
  const hooks: (() => Promise<void>)[] = [];
  let closing = false;
  let closed = false;
  const client = (base.db as unknown as { $client: PGlite }).$client;
  const db = drizzle(
    leased(client, () => closed),
    { schema },
  ) as unknown as Db;
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
      const intact = (await shapeOf(base).catch(() => "")) === migratedShape;
      if (intact && idle.length < KEEP) idle.push(base);
      else await base.close();
    },
  };
}
