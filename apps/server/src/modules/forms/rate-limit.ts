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

/**
 * Counting events under a key, as a statement built once per process: a window that ended
 * restarts at `now` with a count of 1. The same statement reads `also` (a scalar SQL expression
 * written with placeholders, e.g. a sub-query: one round trip); the answered function takes the
 * placeholders' values.
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

const countOnly = compiledCountWith("rate_limit_count", () => sql<null>`null`);

/** Counts one event under `key`; a window that ended restarts at `now` with a count of 1. */
export async function countEvent(db: Db, key: string, limit: Window, now: Date): Promise<Count> {
  return (await countOnly(db, key, limit, now, {})).count;
}
