import { afterAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../../test/harness.js";
import { HEALTH_TIMEOUT_MS } from "./routes.js";

describe("GET /healthz", () => {
  it("answers 200 after a database round trip, 503 once the database is gone", async () => {
    const t = await createTestApp();
    afterAll(() => t.close());
    const ok = await t.app.inject({ url: "/healthz" });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    await t.database.close();
    const down = await t.app.inject({ url: "/healthz" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ ok: false, error: "The database is unreachable." });
  });

  it("answers 503 when the database does not answer in time, instead of hanging", async () => {
    const t = await createTestApp();
    afterAll(() => t.close());
    // A database behind a broken network: the round trip never comes back.
    t.database.ping = () => new Promise<void>(() => {});
    const started = Date.now();
    const down = await t.app.inject({ url: "/healthz" });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ ok: false, error: "The database is unreachable." });
    expect(Date.now() - started).toBeLessThan(HEALTH_TIMEOUT_MS + 2000);
  }, 15_000);
});
