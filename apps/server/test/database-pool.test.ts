/**
 * The worker's pool of embedded test databases: each file gets a migrated, empty database, a
 * closed one refuses queries, and one whose tables a test changed is not handed out again.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { websites } from "../src/db/schema.js";
import { pooledDatabase } from "./database-pool.js";

type Db = Awaited<ReturnType<typeof pooledDatabase>>["db"];

/** A schema besides the app's survives emptying: it tells whether a database was handed out again. */
const mark = (db: Db) => db.execute(sql`create schema if not exists pool_mark`);
const marked = async (db: Db) =>
  (
    (await db.execute(
      sql`select count(*)::int as n from pg_namespace where nspname = 'pool_mark'`,
    )) as unknown as {
      rows: { n: number }[];
    }
  ).rows[0]!.n === 1;

describe.skipIf(process.env.TEST_DATABASE_URL)("embedded test databases reused across files", () => {
  it("hands a given-back database out again empty, and refuses queries on the closed lease", async () => {
    const first = await pooledDatabase();
    await mark(first.db);
    await first.db.insert(websites).values({
      id: "a".repeat(24),
      identifier: "pooled",
      title: "Pooled",
      websiteType: 1,
      siteStatus: 8,
      billingStatus: 3,
      theme: "classic",
    });
    await first.close();
    const refused = await first.db
      .select()
      .from(websites)
      .catch((err: Error) => err);
    expect(String((refused as Error).cause)).toMatch(/closed/);

    const second = await pooledDatabase();
    try {
      expect(await marked(second.db)).toBe(true);
      expect(await second.db.select().from(websites)).toEqual([]);
      await second.db.execute(sql`drop schema pool_mark`);
    } finally {
      await second.close();
    }
  });

  it("does not hand out again a database whose tables a test changed", async () => {
    const first = await pooledDatabase();
    await mark(first.db);
    await first.db.execute(sql`drop table comments cascade`);
    await first.close();

    const second = await pooledDatabase();
    try {
      expect(await marked(second.db)).toBe(false);
      await expect(second.db.execute(sql`select count(*) from comments`)).resolves.toBeDefined();
    } finally {
      await second.close();
    }
  });
});
