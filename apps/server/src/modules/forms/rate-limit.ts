/**
 * Fixed-window counters in `rate_limit_counters`, shared by every server process on the
 * database: one atomic upsert per counted event. Form submissions and site-user sign-in
 * attempts are limited with them.
 */
import { type SQL, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { compiledSql } from "../../db/compiled.js";
import { rateLimitCounters } from "../../db/schema.js";

export interface Window {
  /** Events allowed per window. */
  max: number;
  windowMs: number;
}

export interface Count {
  /** Events in the current window, this one included when counted. */
  count: number;
  /** True while count is within max. */
  allowed: boolean;
  /** Seconds until the window ends. */
  retryAfterSeconds: number;
}

function counted(count: number, windowStart: Date, limit: Window, now: Date): Count {
  const remaining = windowStart.getTime() + limit.windowMs - now.getTime();
  return { count, allowed: count <= limit.max, retryAfterSeconds: Math.max(1, Math.ceil(remaining / 1000)) };
}

/** Counts one event under `key`; a window that ended restarts at `now` with a count of 1. */
export async function countEvent(db: Db, key: string, limit: Window, now: Date): Promise<Count> {
  return (await countEventWith(db, key, limit, now, sql<null>`null`)).count;
}

/**
 * Counts one event under `key` and, in the same statement (one round trip), reads `also` (a
 * scalar SQL expression, e.g. a sub-query).
 */
export async function countEventWith<T>(
  db: Db,
  key: string,
  limit: Window,
  now: Date,
  also: SQL<T>,
): Promise<{ count: Count; also: T }> {
  const t = rateLimitCounters;
  const expired = sql`${t.windowStart} <= ${new Date(now.getTime() - limit.windowMs).toISOString()}::timestamptz`;
  const [row] = await db
    .insert(t)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${expired} then 1 else ${t.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${t.windowStart} end`,
      },
    })
    .returning({ count: t.count, windowStart: t.windowStart, also });
  return { count: counted(row?.count ?? 1, row?.windowStart ?? now, limit, now), also: row?.also as T };
}

/**
 * countEventWith for one `also` written with placeholders, as a statement built once per process
 * (the store's hot calls): answers a function given the placeholders' values.
 */
export function compiledCountWith<T>(name: string, also: () => SQL<T>) {
  const p = sql.placeholder;
  const statement = compiledSql<{ count: number; window_start: string | Date; also: T }>(
    name,
    () => sql`insert into rate_limit_counters (key, count, window_start) values (${p("key")}, 1, ${p("now")}::timestamptz)
      on conflict (key) do update set
        count = case when rate_limit_counters.window_start <= ${p("expiredAt")}::timestamptz then 1 else rate_limit_counters.count + 1 end,
        window_start = case when rate_limit_counters.window_start <= ${p("expiredAt")}::timestamptz then ${p("now")}::timestamptz else rate_limit_counters.window_start end
      returning count, window_start, ${also()} as also`,
  );
  return async (
    db: Db,
    key: string,
    limit: Window,
    now: Date,
    values: Record<string, unknown>,
  ): Promise<{ count: Count; also: T }> => {
    const [row] = await statement(db, {
      ...values,
      key,
      now: now.toISOString(),
      expiredAt: new Date(now.getTime() - limit.windowMs).toISOString(),
    });
    const windowStart = row ? new Date(row.window_start) : now;
    return { count: counted(Number(row?.count ?? 1), windowStart, limit, now), also: row?.also as T };
  };
}

/** The events counted so far in the current window, without counting one. */
export async function peekEvents(db: Db, key: string, limit: Window, now: Date): Promise<Count> {
  const [row] = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, key));
  if (!row || row.windowStart.getTime() + limit.windowMs <= now.getTime()) return counted(0, now, limit, now);
  return counted(row.count, row.windowStart, limit, now);
}

export async function resetEvents(db: Db, key: string): Promise<void> {
  await db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, key));
}

/** Housekeeping: counters whose window started before `before` are gone. */
export async function pruneCounters(db: Db, before: Date): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, before));
}
