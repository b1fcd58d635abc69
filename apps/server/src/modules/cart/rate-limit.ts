/**
 * Fixed-window rate limits of the store's public endpoints (cart, checkout, restock sign-ups)
 * and of the HTTP rate-limit store: the database counters of forms/rate-limit.ts, shared by
 * every server process on the database.
 */
import { sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";
import { ApiError, notFound } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { type Count, type Window, compiledCountWith, countEvent } from "../forms/rate-limit.js";
import { NO_WEBSITE_HERE } from "../sites/service.js";
import {
  type SiteReads,
  type StoreCache,
  hostValues,
  siteVersionOfHost,
  siteVersionOfHostPlaceholders,
} from "./site-reads.js";

/** Requests allowed per window, and the window's length in milliseconds. */
export type RateLimit = Window;
/** Whether a request is within the limit, the requests counted so far and when the window resets. */
type RateLimitHit = Count;

/** Counts one request under `key` at `now` and says whether it is within the limit. */
export function hitRateLimit(db: Db, key: string, limit: RateLimit, now: Date): Promise<RateLimitHit> {
  return countEvent(db, key, limit, now);
}

function refuse(reply: FastifyReply, hit: RateLimitHit, message: string): never {
  reply.header("retry-after", String(hit.retryAfterSeconds));
  throw new ApiError(429, "rate_limited", message);
}

/**
 * A preHandler that counts each request under `name` and the visitor's address and, past `limit`,
 * answers 429 with `message` and a Retry-After header.
 */
export function addressLimiter(
  deps: { db: Db; clock: Clock },
  name: string,
  limit: RateLimit,
  message: string,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const hit = await hitRateLimit(deps.db, `${name}:${request.ip}`, limit, deps.clock.now());
    if (!hit.allowed) refuse(reply, hit, message);
  };
}

/** The count and, in the same statement, the site at the request's host with its content version. */
const countWithSiteVersion = compiledCountWith("store_rate_limit_site", siteVersionOfHostPlaceholders);

/** The site each store request was counted for (null: no website at its host). */
const sitesOfRequests = new WeakMap<FastifyRequest, SiteReads | null>();

/**
 * addressLimiter for the store's calls on the site at the request's host: the same count, and in
 * the same statement the site and its content version, so the call reads the site's settings
 * and products from memory when nothing changed (site-reads.ts). `siteReadsOf` answers them.
 */
export function siteLimiter(
  deps: { db: Db; clock: Clock; cache: StoreCache },
  name: string,
  limit: RateLimit,
  message: string,
) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { count, also } = await countWithSiteVersion(
      deps.db,
      `${name}:${request.ip}`,
      limit,
      deps.clock.now(),
      hostValues(request.headers.host),
    );
    if (!count.allowed) refuse(reply, count, message);
    sitesOfRequests.set(request, (await deps.cache.reads(deps.db, also)) ?? null);
  };
}

/**
 * The site a store request was counted for by siteLimiter; else (a call without a limit) read
 * now, in one statement. A 404 when no website is at the request's host.
 */
export async function siteReadsOf(db: Db, cache: StoreCache, request: FastifyRequest): Promise<SiteReads> {
  let reads = sitesOfRequests.get(request);
  if (reads === undefined) {
    const res = await db.execute(sql`select ${siteVersionOfHost(request.headers.host)} as v`);
    reads = (await cache.reads(db, rowsOf<{ v: string | null }>(res)[0]?.v)) ?? null;
  }
  if (!reads) throw notFound(NO_WEBSITE_HERE);
  return reads;
}
