/** Offset paging and search patterns shared by the owner's lists. */

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
