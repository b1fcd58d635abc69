/**
 * The owner's list of a website's site users: newest first, searchable by email or name, paged
 * with an opaque cursor. Never exposes password hashes.
 */
import type { OwnerSiteUser } from "@atelier/owner-api";
import { cursorPage, decodeCursor, encodeCursor, likePattern } from "../../lib/paging.js";
import { and, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { carts, orders, siteUsers } from "../../db/schema.js";
import { isId } from "../../lib/ids.js";

export const SITE_USERS_PAGE_SIZE = 50;
export const SITE_USERS_PAGE_MAX = 200;

/** A cursor's sort keys: the last row's creation time (ms) and id. */
const isSortKeys = (parts: unknown[]): parts is [number, string] =>
  parts.length === 2 &&
  Number.isSafeInteger(parts[0]) &&
  (parts[0] as number) >= 0 &&
  typeof parts[1] === "string" &&
  isId(parts[1]);

export async function listSiteUsersForOwner(
  db: Db,
  websiteId: string,
  opts: { q?: string; cursor?: string; limit: number },
): Promise<{ siteUsers: OwnerSiteUser[]; nextCursor: string | null }> {
  const after = decodeCursor(opts.cursor, isSortKeys);
  const q = opts.q?.trim() ?? "";
  // Milliseconds, like the cursor, so a page boundary never skips or repeats a row.
  const createdMs = sql<number>`date_trunc('milliseconds', ${siteUsers.createdAt})`;
  const conditions = [eq(siteUsers.websiteId, websiteId)];
  if (q) {
    const pattern = likePattern(q);
    conditions.push(
      or(
        ilike(siteUsers.email, pattern),
        ilike(siteUsers.firstName, pattern),
        ilike(siteUsers.lastName, pattern),
        ilike(sql`${siteUsers.firstName} || ' ' || ${siteUsers.lastName}`, pattern),
      )!,
    );
  }
  if (after) {
    const at = new Date(after[0]).toISOString();
    conditions.push(sql`(${createdMs}, ${siteUsers.id}) < (${at}::timestamptz, ${after[1]})`);
  }
  const rows = await db
    .select({
      id: siteUsers.id,
      email: siteUsers.email,
      firstName: siteUsers.firstName,
      lastName: siteUsers.lastName,
      createdAt: siteUsers.createdAt,
    })
    .from(siteUsers)
    .where(and(...conditions))
    .orderBy(desc(createdMs), desc(siteUsers.id))
    .limit(opts.limit + 1);
  const { page, last, hasNextPage } = cursorPage(rows, opts.limit);

  // Orders of each user, counted as the account page lists them: recorded with the user, or
  // placed from one of the user's carts.
  const counts = new Map<string, number>();
  if (page.length) {
    const ids = page.map((r) => r.id);
    const userCarts = await db
      .select({ id: carts.id, siteUserId: carts.siteUserId })
      .from(carts)
      .where(and(eq(carts.websiteId, websiteId), inArray(carts.siteUserId, ids)));
    const cartOwner = new Map(userCarts.map((c) => [c.id, c.siteUserId!]));
    const cartIds = [...cartOwner.keys()];
    const orderRows = await db
      .select({ id: orders.id, siteUserId: orders.siteUserId, cartId: orders.cartId })
      .from(orders)
      .where(
        and(
          eq(orders.websiteId, websiteId),
          cartIds.length
            ? or(inArray(orders.siteUserId, ids), inArray(orders.cartId, cartIds))
            : inArray(orders.siteUserId, ids),
        ),
      );
    for (const o of orderRows) {
      const owner =
        o.siteUserId && ids.includes(o.siteUserId)
          ? o.siteUserId
          : o.cartId
            ? cartOwner.get(o.cartId)
            : undefined;
      if (owner) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
  }

  return {
    siteUsers: page.map((r) => ({
      id: r.id,
      email: r.email,
      firstName: r.firstName,
      lastName: r.lastName,
      createdOn: r.createdAt.getTime(),
      orderCount: counts.get(r.id) ?? 0,
    })),
    nextCursor: hasNextPage && last ? encodeCursor([last.createdAt.getTime(), last.id]) : null,
  };
}
