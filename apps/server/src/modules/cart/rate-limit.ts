/**
 * Fixed-window rate limits of the store's public endpoints (cart, checkout, restock sign-ups)
 * and of the HTTP rate-limit store: the database counters of forms/rate-limit.ts, shared by
 * every server process on the database.
 */
import { type SQL, sql } from "drizzle-orm";
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
 * What a call reads in the same statement as its count (one round trip less): a scalar SQL
 * expression (JSON) on the site at the request's host, whose id `siteId` is (null when there is
 * none), with the values of its placeholders for a request.
 */
export interface ReadWithCount {
  /** Names the statement (each call's own). */
  name: string;
  sql: (siteId: SQL) => SQL;
  values: (request: FastifyRequest) => Record<string, unknown>;
}

/** What each request read with its count (ReadWithCount), as JSON. */
const readsWithCounts = new WeakMap<FastifyRequest, unknown>();

const countsWithReads = new Map<string, ReturnType<typeof compiledCountWith<unknown>>>();

/** The count, the site and what `read` reads, in one statement (built once per process and name). */
function countWithSiteAnd(read: ReadWithCount) {
  let statement = countsWithReads.get(read.name);
  if (!statement) {
    statement = compiledCountWith(
      read.name,
      () =>
        // offset 0 keeps the site's lookup a sub-query of its own, run once, not once per use of s.v.
        sql`(select jsonb_build_object('site', s.v, 'read', ${read.sql(sql`split_part(s.v, ':', 1)`)})
          from (select ${siteVersionOfHostPlaceholders()} as v offset 0) s)`,
    );
    countsWithReads.set(read.name, statement);
  }
  return statement;
}

/**
 * addressLimiter for the store's calls on the site at the request's host: the same count, and in
 * the same statement the site and its content version, so the call reads the site's settings
 * and products from memory when nothing changed (site-reads.ts). `siteReadsOf` answers them;
 * with `read`, `readWithCount` answers what it read.
 */
export function siteLimiter(
  deps: { db: Db; clock: Clock; cache: StoreCache },
  name: string,
  limit: RateLimit,
  message: string,
  read?: ReadWithCount,
) {
  const countWithRead = read && countWithSiteAnd(read);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const key = `${name}:${request.ip}`;
    const now = deps.clock.now();
    const host = hostValues(request.headers.host);
    let site: string | null;
    if (countWithRead && read) {
      const { count, also } = await countWithRead(deps.db, key, limit, now, {
        ...host,
        ...read.values(request),
      });
      if (!count.allowed) refuse(reply, count, message);
      const both = also as { site: string | null; read: unknown } | null;
      site = both?.site ?? null;
      readsWithCounts.set(request, both?.read);
    } else {
      const { count, also } = await countWithSiteVersion(deps.db, key, limit, now, host);
      if (!count.allowed) refuse(reply, count, message);
      site = also;
    }
    sitesOfRequests.set(request, (await deps.cache.reads(deps.db, site)) ?? null);
  };
}

/** What siteLimiter's `read` read for this request (JSON), or undefined. */
export function readWithCount(request: FastifyRequest): unknown {
  return readsWithCounts.get(request);
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
