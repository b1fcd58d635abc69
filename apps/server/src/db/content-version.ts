import { type SQL, sql } from "drizzle-orm";

/**
 * An UPDATE that bumps a website's content version itself (answering `content_version`) and
 * marks the transaction so that the commit's trigger (migration 0002) skips its own bump: for a
 * change whose new version the caller records (an order's stock, which StoreCache keeps apart).
 * The website's row stays locked to the commit. `when`, a condition, can keep the row as it is.
 */
export function bumpContentVersion(websiteId: SQL | SQL.Aliased | unknown, when: SQL = sql`true`): SQL {
  return sql`update websites set content_version = content_version + 1
    where id = ${websiteId} and ${when} and set_config('atelier.touched_' || ${websiteId}, '1', true) = '1'
    returning content_version`;
}
