/**
 * Operations endpoints for load balancers and monitoring:
 * - GET /readyz: ready for traffic (the database answers and every migration is applied);
 * - GET /metrics: Prometheus text (prom-client), only with `Authorization: Bearer $METRICS_TOKEN`
 *   (404 when no token is configured: metrics are never public). Request counts and latency by
 *   route, page-cache hits and misses, database pool use, job queue depth and failures, orders
 *   and payment failures.
 * Every response carries its request id in `x-request-id` (the caller's when it sends a sane one,
 * as a load balancer does), error answers included, and every log line carries it as `reqId`.
 */
import { timingSafeEqual } from "node:crypto";
import { count, eq, isNotNull, isNull, and } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import fp from "fastify-plugin";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { jobs, orders, payments } from "../../db/schema.js";
import { errorBody } from "../../http/errors.js";

/** Page-cache counters of this process (the render routes register theirs). */
interface CacheStats {
  hits: number;
  misses: number;
  /** Pages held now (at most PAGE_CACHE_ENTRIES). */
  size: number;
}
declare module "fastify" {
  interface FastifyInstance {
    /** Page caches of this process, for the metrics (shared by every plugin of the app). */
    pageCaches: CacheStats[];
    /** Counts an answer given outside Fastify's routes (a fast path of http/front-door.ts). */
    recordRequest(method: string, route: string, status: number, seconds: number): void;
  }
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

export const metricsPlugin: FastifyPluginAsync = fp(async (app) => {
  const { db, database } = app.deps;
  app.decorate("pageCaches", [] as CacheStats[]);
  const sum = (key: keyof CacheStats) => app.pageCaches.reduce((n, c) => n + c[key], 0);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "atelier_http_requests_total",
    help: "HTTP requests answered, by method, route and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "atelier_http_request_duration_seconds",
    help: "Time to answer, by method and route",
    labelNames: ["method", "route"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Gauge({
    name: "atelier_page_cache_hits_total",
    help: "Published pages answered from the page cache (this process)",
    registers: [registry],
    collect() {
      this.set(sum("hits"));
    },
  });
  new Gauge({
    name: "atelier_page_cache_misses_total",
    help: "Published pages rendered afresh (this process)",
    registers: [registry],
    collect() {
      this.set(sum("misses"));
    },
  });
  new Gauge({
    name: "atelier_page_cache_entries",
    help: "Published pages held in the page cache (this process; capped by PAGE_CACHE_ENTRIES)",
    registers: [registry],
    collect() {
      this.set(sum("size"));
    },
  });
  new Gauge({
    name: "atelier_db_pool_connections",
    help: "Database pool connections by state (PostgreSQL; PGlite has one)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const s = database.poolStats?.() ?? { total: 1, idle: 0, waiting: 0 };
      this.set({ state: "total" }, s.total);
      this.set({ state: "idle" }, s.idle);
      this.set({ state: "waiting" }, s.waiting);
    },
  });
  new Gauge({
    name: "atelier_jobs",
    help: "Background jobs: waiting to run, and failed for good",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      const [queued] = await db.select({ n: count() }).from(jobs).where(isNull(jobs.doneAt));
      const [failed] = await db
        .select({ n: count() })
        .from(jobs)
        .where(and(isNull(jobs.doneAt), isNotNull(jobs.lastError)));
      this.set({ state: "queued" }, Number(queued?.n ?? 0));
      this.set({ state: "failing" }, Number(failed?.n ?? 0));
    },
  });
  new Gauge({
    name: "atelier_orders",
    help: "Orders placed (all sites)",
    registers: [registry],
    async collect() {
      const [row] = await db.select({ n: count() }).from(orders);
      this.set(Number(row?.n ?? 0));
    },
  });
  new Gauge({
    name: "atelier_payment_failures",
    help: "Payments that failed (all sites)",
    registers: [registry],
    async collect() {
      const [row] = await db.select({ n: count() }).from(payments).where(eq(payments.status, "failed"));
      this.set(Number(row?.n ?? 0));
    },
  });

  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  // Each label set's series, looked up once: prom-client hashes the labels on every call otherwise.
  const series = new Map<string, { count: () => void; time: (seconds: number) => void }>();
  const record = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${status} ${route}`;
    let s = series.get(key);
    if (!s) {
      const counter = requests.labels({ method, route, status: String(status) });
      const timer = latency.labels({ method, route });
      s = { count: () => counter.inc(), time: (x) => timer.observe(x) };
      if (series.size < 5000) series.set(key, s);
    }
    s.count();
    s.time(seconds);
  };
  app.decorate("recordRequest", record);
  app.addHook("onResponse", async (request, reply) => {
    record(
      request.method,
      request.routeOptions.url ?? "unmatched",
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
  });
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    const token = app.deps.config.metricsToken;
    const auth = String(request.headers.authorization ?? "");
    if (!token) return reply.status(404).send(errorBody("not_found", "No such route: GET /metrics"));
    if (!auth.startsWith("Bearer ") || !sameToken(auth.slice(7), token))
      return reply.status(401).send(errorBody("unauthorized", "Metrics need the metrics token."));
    return reply
      .type(registry.contentType)
      .header("cache-control", "no-store")
      .send(await registry.metrics());
  });

  app.get(
    "/readyz",
    {
      schema: {
        tags: ["ops"],
        summary: "Ready for traffic: the database answers and every migration is applied",
      },
    },
    async (_request, reply) => {
      try {
        const pending = await database.pendingMigrations();
        if (pending > 0)
          return reply
            .status(503)
            .send({ ready: false, error: `${pending} database migrations are not applied yet.` });
        return { ready: true };
      } catch {
        return reply.status(503).send({ ready: false, error: "The database is unreachable." });
      }
    },
  );
});
