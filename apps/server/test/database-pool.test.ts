/**
 * The worker's pool of embedded test databases: each file gets a migrated, empty database, a
 * closed one refuses queries, and one whose tables a test changed is not handed out again.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { websites } from "../src/db/schema.js";
import { pooledDatabase } from "./pglite-pool.js";

/** A temporary table lives as long as the PGlite instance: it tells whether one was reused. */
const mark = (db: Awaited<ReturnType<typeof pooledDatabase>>["db"]) =>
  db.execute(sql`create temporary table if not exists pool_mark (n int)`);
const marked = async (db: Awaited<ReturnType<typeof pooledDatabase>>["db"]) =>
  (
    (await db.execute(sql`select to_regclass('pg_temp.pool_mark') is not null as marked`)) as unknown as {
      rows: { marked: boolean }[];
    }
  ).rows[0]!.marked;

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
