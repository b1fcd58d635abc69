/**
 * Fixed-window rate limits of the store's public endpoints (cart, checkout, restock sign-ups)
 * and of the HTTP rate-limit store: the database counters of forms/rate-limit.ts, shared by
 * every server process on the database.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { ApiError } from "../../http/errors.js";
import type { Clock } from "../../lib/clock.js";
import { type Count, type Window, countEvent } from "../forms/rate-limit.js";

/** Requests allowed per window, and the window's length in milliseconds. */
export type RateLimit = Window;
/** Whether a request is within the limit, the requests counted so far and when the window resets. */
type RateLimitHit = Count;

/** Counts one request under `key` at `now` and says whether it is within the limit. */
export function hitRateLimit(db: Db, key: string, limit: RateLimit, now: Date): Promise<RateLimitHit> {
  return countEvent(db, key, limit, now);
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
    if (!hit.allowed) {
      reply.header("retry-after", String(hit.retryAfterSeconds));
      throw new ApiError(429, "rate_limited", message);
    }
  };
}
