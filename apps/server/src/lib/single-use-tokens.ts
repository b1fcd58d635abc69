/** Rows that hold a single-use token by its hash (form submission keys, password reset tokens). */
import { type SQL, and, eq, isNull, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { hashToken } from "./ids.js";

/** A table of single-use tokens of a website, each used at most once before it expires. */
type TokenTable = { websiteId: PgColumn; usedAt: PgColumn; expiresAt: PgColumn };

/** The row of `token` (by its hash in `hashColumn`) that the site can still use at `now`: not used, not expired. */
export function usableTokenWhere(
  table: TokenTable,
  hashColumn: PgColumn,
  token: string,
  websiteId: string,
  now: Date,
): SQL {
  return and(
    eq(hashColumn, hashToken(token)),
    eq(table.websiteId, websiteId),
    isNull(table.usedAt),
    sql`${table.expiresAt} > ${now.toISOString()}::timestamptz`,
  )!;
}
