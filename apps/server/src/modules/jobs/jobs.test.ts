import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { runHousekeeping } from "./plugin.js";
import {
  JOB_LEASE_MS,
  claimJobs,
  completeJob,
  enqueueJob,
  registerJobHandler,
  retryDelayMs,
  runDueJobs,
} from "./service.js";

const clock = { offset: 0, now: () => new Date(Date.now() + clock.offset) };
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

describe("jobs", () => {
  it("claims each due job once, even for claimers at the same time", async () => {
    for (let i = 0; i < 6; i++) await enqueueJob(t.database.db, "test.noop", { i });
    const [a, b] = await Promise.all([
      claimJobs(t.database.db, clock, "a", 4),
      claimJobs(t.database.db, clock, "b", 4),
    ]);
    const ids = [...a!, ...b!].map((j) => j.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
    expect(await claimJobs(t.database.db, clock, "c", 10)).toEqual([]);
    for (const j of [...a!, ...b!]) await completeJob(t.database.db, clock, j.id);
  });

  it("gives a job whose worker died to another after the lease", async () => {
    await enqueueJob(t.database.db, "test.noop", {});
    const [job] = await claimJobs(t.database.db, clock, "dies", 1);
    expect(job!.attempts).toBe(1);
    expect(await claimJobs(t.database.db, clock, "other", 1)).toEqual([]);
    clock.offset = JOB_LEASE_MS + 1000;
    try {
      const [again] = await claimJobs(t.database.db, clock, "other", 1);
      expect(again).toMatchObject({ id: job!.id, lockedBy: "other", attempts: 2 });
      await completeJob(t.database.db, clock, job!.id);
    } finally {
      clock.offset = 0;
    }
  });

  it("runs handlers, retries failures after a growing delay, and waits for future jobs", async () => {
    const seen: unknown[] = [];
    let failuresLeft = 1;
    registerJobHandler("test.flaky", async (_deps, payload) => {
      if (failuresLeft-- > 0) throw new Error("not yet");
      seen.push(payload);
    });
    await enqueueJob(t.database.db, "test.flaky", { n: 1 });
    await enqueueJob(t.database.db, "test.flaky", { n: 2 }, { runAt: new Date(Date.now() + 60_000) });
    expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 0, failed: 1 });
    const flaky = await t.database.db.select().from(s.jobs).where(eq(s.jobs.kind, "test.flaky"));
    expect(flaky.find((j) => j.payload.n === 1)?.lastError).toBe("not yet");
    expect(retryDelayMs(1)).toBe(30_000);
    expect(retryDelayMs(2)).toBe(120_000);
    expect(retryDelayMs(20)).toBe(3_600_000);
    clock.offset = 61_000;
    try {
      expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 2, failed: 0 });
    } finally {
      clock.offset = 0;
    }
    expect(seen).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }]));
  });

  it("never runs one job twice with runners at the same time", async () => {
    const runs = new Map<number, number>();
    registerJobHandler("test.count", async (_deps, payload) => {
      const n = Number(payload.n);
      runs.set(n, (runs.get(n) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 1));
    });
    for (let n = 0; n < 25; n++) await enqueueJob(t.database.db, "test.count", { n });
    const results = await Promise.all([
      runDueJobs(t.app.deps, "r1"),
      runDueJobs(t.app.deps, "r2"),
      runDueJobs(t.app.deps, "r3"),
    ]);
    expect(results.reduce((sum, r) => sum + r.ran, 0)).toBe(25);
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...Array(25).keys()]);
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    const rows = await t.database.db.select().from(s.jobs).where(eq(s.jobs.kind, "test.count"));
    expect(rows.every((j) => j.doneAt && !j.lockedBy && j.attempts === 1)).toBe(true);
  });

  it("marks the rest of a batch done when one job fails, and retries that one alone", async () => {
    const seen: number[] = [];
    registerJobHandler("test.batch", async (_deps, payload) => {
      if (payload.n === 2 && !seen.includes(-2)) {
        seen.push(-2);
        throw new Error("job 2 down");
      }
      seen.push(Number(payload.n));
    });
    for (let n = 1; n <= 4; n++) await enqueueJob(t.database.db, "test.batch", { n });
    expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 3, failed: 1 });
    const rows = await t.database.db.select().from(s.jobs).where(eq(s.jobs.kind, "test.batch"));
    const failed = rows.find((j) => j.payload.n === 2)!;
    expect(failed).toMatchObject({ doneAt: null, lockedBy: null, lastError: "job 2 down", attempts: 1 });
    expect(rows.filter((j) => j.doneAt).map((j) => j.payload.n)).toEqual(expect.arrayContaining([1, 3, 4]));
    expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 0, failed: 0 });
    clock.offset = retryDelayMs(1) + 1000;
    try {
      expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 1, failed: 0 });
    } finally {
      clock.offset = 0;
    }
    expect(seen).toEqual([1, -2, 3, 4, 2]);
  });

  it("fails jobs nobody handles, and housekeeping prunes old finished jobs", async () => {
    await enqueueJob(t.database.db, "test.unknown", {}, { maxAttempts: 1 });
    expect(await runDueJobs(t.app.deps, "w")).toEqual({ ran: 0, failed: 1 });
    clock.offset = 8 * 86400_000;
    try {
      await runHousekeeping(t.app.deps);
    } finally {
      clock.offset = 0;
    }
    const left = await t.database.db.select().from(s.jobs);
    // The failed job stays for the record; housekeeping itself queued the pruning of version history.
    expect(left.map((j) => j.kind).sort()).toEqual(["history.prune", "test.unknown"]);
  });

  it("runs jobs by itself in a server that listens", async () => {
    const ran: unknown[] = [];
    registerJobHandler("test.listening", async (_deps, payload) => {
      ran.push(payload);
    });
    await enqueueJob(t.database.db, "test.listening", { hello: "world" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    for (let i = 0; i < 50 && ran.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(ran).toEqual([{ hello: "world" }]);
  });
});
