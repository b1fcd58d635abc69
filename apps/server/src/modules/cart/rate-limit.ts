/**
 * Fixed-window rate limits kept in the database (`rate_limit_counters`), so every server process
 * sharing the database counts against the same limit. One atomic upsert per hit.
 */
import { lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { rateLimitCounters } from "../../db/schema.js";

export interface RateLimit {
  /** Requests allowed per window. */
  max: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

export interface RateLimitHit {
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Counts one request under `key` at `now` and says whether it is within the limit. A window that
 * started `windowMs` or more before `now` restarts at `now` with a count of 1.
 */
export async function hitRateLimit(db: Db, key: string, limit: RateLimit, now: Date): Promise<RateLimitHit> {
  const cutoff = new Date(now.getTime() - limit.windowMs);
  const t = rateLimitCounters;
  const [row] = await db
    .insert(t)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        count: sql`case when ${t.windowStart} <= ${cutoff.toISOString()}::timestamptz then 1 else ${t.count} + 1 end`,
        windowStart: sql`case when ${t.windowStart} <= ${cutoff.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else ${t.windowStart} end`,
      },
    })
    .returning({ count: t.count, windowStart: t.windowStart });
  const count = row?.count ?? 1;
  const windowStart = row?.windowStart ?? now;
  const resetMs = windowStart.getTime() + limit.windowMs - now.getTime();
  return {
    allowed: count <= limit.max,
    count,
    retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
  };
}

/** Deletes counters whose window ended long ago (housekeeping; safe to run from any process). */
export async function pruneRateLimits(db: Db, olderThan: Date): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, olderThan));
}
