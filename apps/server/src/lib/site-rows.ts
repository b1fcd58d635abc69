/**
 * A site's own row of a table, by id: the `websiteId` + `id` condition owners' edits use, and the
 * update and delete that answer 404 when the site has no such row (another site's id included).
 */
import { type SQL, and, eq } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client.js";
import { notFound } from "../http/errors.js";

/** A table whose rows belong to one website and have an id. */
type SiteTable = PgTable & { websiteId: PgColumn; id: PgColumn };

/** The row with this id of this site (and whatever `more` asks). */
export function siteRowWhere(table: SiteTable, websiteId: string, id: string, ...more: SQL[]): SQL {
  return and(eq(table.websiteId, websiteId), eq(table.id, id), ...more)!;
}

/** Updates the site's row with this id and answers it; a 404 with `missing` when there is none. */
export async function updateSiteRow<T extends SiteTable>(
  db: Db | Tx,
  table: T,
  websiteId: string,
  id: string,
  values: PgUpdateSetSource<T>,
  missing: string,
): Promise<T["$inferSelect"]> {
  const rows = (await db
    .update(table)
    .set(values)
    .where(siteRowWhere(table, websiteId, id))
    .returning()) as T["$inferSelect"][];
  if (!rows[0]) throw notFound(missing);
  return rows[0];
}

/** Deletes the site's row with this id (and whatever `more` asks); a 404 with `missing` when there is none. */
export async function deleteSiteRow(
  db: Db | Tx,
  table: SiteTable,
  websiteId: string,
  id: string,
  missing: string,
  ...more: SQL[]
): Promise<void> {
  const gone = await db
    .delete(table)
    .where(siteRowWhere(table, websiteId, id, ...more))
    .returning({ id: table.id });
  if (!gone.length) throw notFound(missing);
}
