import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import * as schema from "./schema.js";
import { rowsOf } from "./rows.js";

export type Schema = typeof schema;
/** The one database type services use, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle: the same query API as Db. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  db: Db;
  /** "pglite" (embedded) or "postgres" (a server via DATABASE_URL). */
  kind: "pglite" | "postgres";
  /** A round trip, for the health check. */
  ping(): Promise<void>;
  /**
   * Runs before the connections close: holders of long-lived connections (a LISTEN client)
   * give them back here, or closing the pool would wait for them forever.
   */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
  /**
   * Runs once-for-all start work (migrations, the demo seed) while holding the database's
   * startup lock: processes starting together on one PostgreSQL database take turns, and each
   * finds the work the one before it did. (PGlite has one process: it just runs.)
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  /** Migrations of this build not yet applied to the database (0 when ready). */
  pendingMigrations(): Promise<number>;
  /** A copy of the whole data directory, for `loadDataDir` (PGlite only). */
  dumpDataDir?(): Promise<Blob>;
  /** Pool use (PostgreSQL only). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

/** Migrations this build ships (the journal's entries). */
function shippedMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"));
  return (journal.entries as unknown[]).length;
}

async function appliedMigrations(db: Db): Promise<number> {
  const res = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

/** The PostgreSQL advisory lock key of start work (any constant; "atelier" in ASCII). */
const STARTUP_LOCK = 0x6174656c696572n;

async function withAdvisoryLock<T>(pool: pg.Pool, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [STARTUP_LOCK.toString()]);
    try {
      return await work();
    } finally {
      await client.query("select pg_advisory_unlock($1)", [STARTUP_LOCK.toString()]);
    }
  } finally {
    client.release();
  }
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../drizzle");

/**
 * Opens the database: PostgreSQL when `databaseUrl` is set, otherwise embedded PGlite under
 * `dataDir` (in memory when `dataDir` is "memory://"). Applies pending migrations.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  /** PGlite only: start from this dump of a data directory (`dumpDataDir`) instead of initdb. */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await withAdvisoryLock(pool, () => migratePg(db as never, { migrationsFolder }));
    const hooks: (() => Promise<void>)[] = [];
    let ended = false;
    return {
      db,
      kind: "postgres",
      withStartupLock: (work) => withAdvisoryLock(pool, work),
      pendingMigrations: async () => Math.max(0, shippedMigrations() - (await appliedMigrations(db))),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      onClose: (hook) => void hooks.push(hook),
      close: async () => {
        if (ended) return;
        ended = true;
        for (const hook of hooks.splice(0)) await hook().catch(() => {});
        await pool.end();
      },
    };
  }
  const dataDir = opts.dataDir ?? "memory://";
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  // btree_gin: site search's index leads with website_id (migration 0009).
  const client = new PGlite(dataDir, { extensions: { btree_gin }, loadDataDir: opts.loadDataDir });
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder });
  const hooks: (() => Promise<void>)[] = [];
  return {
    db,
    kind: "pglite",
    withStartupLock: (work) => work(),
    dumpDataDir: () => client.dumpDataDir("none"),
    pendingMigrations: async () => Math.max(0, shippedMigrations() - (await appliedMigrations(db))),
    ping: async () => {
      if (client.closed) throw new Error("database is closed");
      await db.execute(sql`select 1`);
    },
    onClose: (hook) => void hooks.push(hook),
    close: async () => {
      for (const hook of hooks.splice(0)) await hook().catch(() => {});
      if (!client.closed) await client.close();
    },
  };
}
