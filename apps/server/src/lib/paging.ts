/** Offset and cursor paging and search patterns shared by the owner's lists. */
import { type SQL, count } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/client.js";
import { badRequest } from "../http/errors.js";

export const MSG_BAD_CURSOR = "Invalid cursor.";

/** A `LIKE`/`ILIKE` pattern that finds `q` anywhere, with `\`, `%` and `_` in it taken literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The page asked for (from 1) and its size, clamped to 1 to `max` (`size` when not asked). */
export function pageWindow(query: { page?: number; pageSize?: number }, size: number, max: number) {
  const pageSize = Math.min(max, Math.max(1, query.pageSize ?? size));
  const page = Math.max(1, query.page ?? 1);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

/** What a paged list answers besides its rows. */
export function pageInfo(total: number, page: number, pageSize: number) {
  return { total, page, pageSize, hasNextPage: page * pageSize < total };
}

/** One page of a table's rows that match `where`, in `order`, and how many match in all. */
export async function selectOffsetPage<T extends PgTable>(
  db: Db | Tx,
  table: T,
  where: SQL | undefined,
  order: SQL[],
  window: { limit: number; offset: number },
): Promise<{ rows: T["$inferSelect"][]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...order)
      .limit(window.limit)
      .offset(window.offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  ]);
  return { rows: rows as T["$inferSelect"][], total: Number(counted?.n ?? 0) };
}

/** The page of `rows` fetched with `limit + 1`: the first `limit`, its last row, and whether more follow. */
export function cursorPage<R>(rows: R[], limit: number) {
  const page = rows.slice(0, limit);
  return { page, last: page[page.length - 1], hasNextPage: rows.length > limit };
}

/** An opaque cursor holding the sort keys of a page's last row. */
export function encodeCursor(parts: unknown[]): string {
  return Buffer.from(JSON.stringify(parts)).toString("base64url");
}

/** The sort keys in `cursor` (none when it is absent or empty); a 400 unless `valid` accepts them. */
export function decodeCursor<P extends unknown[]>(
  cursor: string | undefined,
  valid: (parts: unknown[]) => parts is P,
): P | undefined {
  if (cursor === undefined || cursor === "") return undefined;
  try {
    const parts = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parts) && valid(parts)) return parts;
  } catch {
    // fall through to the 400
  }
  throw badRequest(MSG_BAD_CURSOR, { cursor: MSG_BAD_CURSOR });
}
