/**
 * The SQL that changes variants' stock, shared by the stock's own changes (checkout/store.ts) and
 * the order's insert that takes it (orders/service.ts).
 */
import { type SQL, sql } from "drizzle-orm";

/**
 * Units per variant as stockChangeCtes takes them: a JSON array with one entry per variant (an
 * update joined to two rows of one variant would apply only one).
 */
export function stockNeedsJson(needs: readonly { variantId: string; quantity: number }[]): string {
  const units = new Map<string, number>();
  for (const n of needs) units.set(n.variantId, (units.get(n.variantId) ?? 0) + n.quantity);
  return JSON.stringify([...units].map(([id, qty]) => ({ id, qty })));
}

/**
 * The CTEs `stock_needs`, `stock_locked`, `stock_enough` and `stock_changed`: the variants of
 * `needsJson` (stockNeedsJson) changed by `sign` × their units, answering each changed variant's
 * units now. Every lock is taken in id order before any row is updated, so concurrent changes
 * never deadlock (`stock_enough` reads the locked rows, and the update waits for it), and only
 * `when` (a condition the statement tests first). The variants are found by their ids (an array,
 * so that the primary key is used, not a scan of the site's variants). Variants with unlimited
 * stock are left out. Taking (-1) is all or nothing: `stock_enough` tells whether every variant
 * has its units (counted on the locked rows, as the last change left them), and nothing is
 * changed when one has too few, so the statement can commit on its own.
 */
export function stockChangeCtes(
  websiteId: unknown,
  needsJson: unknown,
  sign: 1 | -1,
  when: SQL = sql`true`,
): SQL {
  const enough =
    sign < 0
      ? sql`(select count(*) from stock_needs n join stock_locked l on l.id = n.id and l.qty_in_stock >= n.qty)
          = (select count(*) from stock_needs)`
      : sql`(select count(*) from stock_locked) >= 0`;
  return sql`stock_needs as (
      select * from jsonb_to_recordset(${needsJson}::jsonb) as n(id text, qty int)
    ), stock_locked as materialized (
      select id, qty_in_stock from product_variants
      where id = any(array(select id from stock_needs)) and website_id = ${websiteId} and unlimited = false
        and ${when}
      order by id for update
    ), stock_enough as (
      select ${when} and ${enough} as ok
    ), stock_changed as (
      update product_variants v set qty_in_stock = v.qty_in_stock + ${sign}::int * n.qty
      from stock_needs n
      where v.id = any(array(select id from stock_needs)) and v.id = n.id and v.website_id = ${websiteId}
        and v.unlimited = false
        and (select ok from stock_enough)
        ${sign < 0 ? sql`and v.qty_in_stock >= n.qty` : sql``}
      returning v.id, v.qty_in_stock
    )`;
}
