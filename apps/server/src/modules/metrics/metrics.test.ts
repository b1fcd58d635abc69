/**
 * Operations endpoints: /readyz for load balancers, /metrics only with its token, and the request
 * id on every answer and inside error answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp, eventually } from "../../../test/harness.js";

let t: TestApp;
let open: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: true, env: { METRICS_TOKEN: "s3cret-metrics-token" } });
  open = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await open.close();
});

describe("operations endpoints", () => {
  it("answers /readyz once the database answers and the migrations are applied", async () => {
    const res = await t.app.inject({ url: "/readyz" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true });
    expect(await t.database.pendingMigrations()).toBe(0);
  });

  it("keeps /metrics closed without the token and counts requests, cache, jobs and orders with it", async () => {
    for (const path of ["/shop", "/shop", "/no-such-page"]) await t.app.inject({ url: path });
    expect((await t.app.inject({ url: "/metrics" })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: "/metrics", headers: { authorization: "Bearer wrong-token-of-same-size" } }))
        .statusCode,
    ).toBe(401);
    expect((await open.app.inject({ url: "/metrics" })).statusCode).toBe(404);
    const res = await t.app.inject({
      url: "/metrics",
      headers: { authorization: "Bearer s3cret-metrics-token" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toContain("text/plain");
    const text = res.body;
    expect(text).toMatch(/atelier_http_requests_total\{method="GET",route="\/\*",status="200"\} [2-9]/);
    expect(text).toMatch(/atelier_http_requests_total\{method="GET",route="\/\*",status="404"\} 1/);
    expect(text).toContain('atelier_http_request_duration_seconds_bucket{le="0.1",method="GET",route="/*"}');
    expect(text).toMatch(/atelier_page_cache_misses_total [1-9]/);
    expect(text).toMatch(/atelier_jobs\{state="queued"\} \d+/);
    expect(text).toMatch(/atelier_orders \d+/);
    expect(text).toMatch(/atelier_payment_failures \d+/);
    expect(text).toMatch(/atelier_db_pool_connections\{state="total"\} \d+/);

    // A page served again from the cache counts a hit. On PostgreSQL the seed's change notices can
    // still reach the cache between two loads and empty it, so load until one is served from it.
    await eventually(async () => {
      await t.app.inject({ url: "/shop" });
      const metrics = await t.app.inject({
        url: "/metrics",
        headers: { authorization: "Bearer s3cret-metrics-token" },
      });
      return Number(/atelier_page_cache_hits_total (\d+)/.exec(metrics.body)?.[1] ?? 0);
    }).toBeGreaterThan(0);
  });

  it("names every answer's request in its x-request-id, error answers included", async () => {
    const ok = await t.app.inject({ url: "/healthz" });
    expect(ok.headers["x-request-id"]).toBeTruthy();
    const bad = await t.app.inject({ url: "/api/owner/sites", headers: { "x-request-id": "trace-abc-123" } });
    expect(bad.statusCode).toBe(401);
    expect(bad.headers["x-request-id"]).toBe("trace-abc-123");
    const notFound = await t.app.inject({
      url: "/api/no-such-call",
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
