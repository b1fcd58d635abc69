/** The `ordering` column of tables whose rows the owner arranges (pages, items, shipping rules). */
import { type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client.js";

/** The `ordering` of a row put after every row that `where` selects (0 when there is none). */
export async function nextOrdering(db: Db | Tx, ordering: PgColumn, where: SQL): Promise<number> {
  const [{ max }] = (await db
    .select({ max: sql<number>`coalesce(max(${ordering}), -1)` })
    .from(ordering.table)
    .where(where)) as [{ max: number }];
  return Number(max) + 1;
}
