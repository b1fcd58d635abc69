/**
 * The store of @fastify/rate-limit's per-route limits (owner login, the API-key API, search,
 * feeds…): the database's rate-limit counters, which the cart and checkout limits already use,
 * so N server processes on one database allow the same number of calls as one, not N times it.
 * Each route counts apart (the route is part of the key), as the plugin's own store does.
 */
import type { Db } from "../db/client.js";
import type { Clock } from "../lib/clock.js";
import { hitRateLimit } from "../modules/cart/rate-limit.js";

type Callback = (err: Error | null, res?: { current: number; ttl: number }) => void;

interface RouteOptions {
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

export function databaseRateLimitStore(db: Db, clock: Clock) {
  return class DatabaseRateLimitStore {
    private readonly prefix: string;

    /** The plugin constructs the root store with its options; children get their route's prefix. */
    constructor(prefix?: unknown) {
      this.prefix = typeof prefix === "string" ? prefix : "rl";
    }

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      hitRateLimit(db, `${this.prefix}|${key}`, { max, windowMs: timeWindow }, clock.now()).then(
        (hit) => cb(null, { current: hit.count, ttl: hit.retryAfterSeconds * 1000 }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }

    /** Called with the route's merged rate-limit options (its `routeInfo` is the route). */
    child(options: unknown): DatabaseRateLimitStore {
      const route = options as RouteOptions;
      const info = route.routeInfo ?? {};
      const name = route.groupId ?? `${[info.method ?? ""].flat().join(",")} ${info.url ?? ""}`;
      return new DatabaseRateLimitStore(`rl:${name}`);
    }
  };
}
