/** Compiled statements answer what the same drizzle query answers, on either driver. */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase } from "../../test/harness.js";
import type { Database } from "./client.js";
import { compiled, compiledSql } from "./compiled.js";
import { carts, websites } from "./schema.js";

let database: Database;
let drop: () => Promise<void>;
let websiteId: string;

beforeAll(async () => {
  ({ database, drop } = await freshDatabase());
  websiteId = "5170000000000000000000aa";
  await database.db.insert(websites).values({
    id: websiteId,
    identifier: "compiled",
    title: "Compiled",
    websiteType: 1,
    siteStatus: 8,
    billingStatus: 3,
    theme: "classic",
  });
});
afterAll(async () => {
  await database.close();
  await drop();
});

const insertCart = compiled("test_cart_insert", (db) =>
  db
    .insert(carts)
    .values({
      id: sql.placeholder("id"),
      websiteId: sql.placeholder("websiteId"),
      tokenHash: sql.placeholder("tokenHash"),
      shippingLocation: sql.placeholder("shippingLocation"),
      createdAt: sql.placeholder("now"),
      updatedAt: sql.placeholder("now"),
    })
    .returning(),
);
const cartById = compiled("test_cart_by_id", (db) =>
  db
    .select()
    .from(carts)
    .where(eq(carts.id, sql.placeholder("id"))),
);
const jsonNulls = compiledSql<{ id: string; sql_null: boolean }>(
  "test_cart_json_nulls",
  () =>
    sql`select id, shipping_location is null as sql_null from carts where id = any(${sql.placeholder("ids")}::text[]) order by id`,
);

describe("compiled statements", () => {
  it("insert and read back as drizzle does, in a transaction or not, keeping null as SQL NULL", async () => {
    const now = new Date("2026-11-29T10:00:00.000Z");
    const location = { country: "US", state: "NY" };
    const [inserted] = await database.db.transaction((tx) =>
      insertCart(tx, {
        id: "c0000000000000000000000a",
        websiteId,
        tokenHash: "h-a",
        shippingLocation: location,
        now,
      }),
    );
    await insertCart(database.db, {
      id: "c0000000000000000000000b",
      websiteId,
      tokenHash: "h-b",
      shippingLocation: null,
      now,
    });
    const [read] = await cartById(database.db, { id: "c0000000000000000000000a" });
    const [built] = await database.db.select().from(carts).where(eq(carts.id, "c0000000000000000000000a"));
    expect(read).toEqual(built);
    expect(inserted).toEqual(built);
    expect(read!.shippingLocation).toEqual(location);
    expect(read!.createdAt).toEqual(now);
    expect(
      await jsonNulls(database.db, { ids: ["c0000000000000000000000a", "c0000000000000000000000b"] }),
    ).toEqual([
      { id: "c0000000000000000000000a", sql_null: false },
      { id: "c0000000000000000000000b", sql_null: true },
    ]);
  });

  it("refuses a missing value and a name used twice", async () => {
    await expect(cartById(database.db, {})).rejects.toThrow('No value for placeholder "id"');
    expect(() => compiled("test_cart_by_id", (db) => db.select().from(carts))).toThrow("defined twice");
  });
});
