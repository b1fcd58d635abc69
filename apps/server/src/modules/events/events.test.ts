import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestApp, createTestApp } from "../../../test/harness.js";
import * as s from "../../db/schema.js";
import { runDueJobs } from "../jobs/service.js";
import { type DomainEvent, recordEvent, recordEvents, registerEventConsumer } from "./service.js";

let t: TestApp;
const seen: { consumer: string; event: DomainEvent }[] = [];
let failOnce = true;

const stopOrders = registerEventConsumer("test.orders", {
  types: ["order.*"],
  handle: async (_deps, event) => {
    seen.push({ consumer: "orders", event });
  },
});
const stopFlaky = registerEventConsumer("test.flaky", {
  types: ["order.created"],
  handle: async (_deps, event) => {
    if (failOnce) {
      failOnce = false;
      throw new Error("receiver down");
    }
    seen.push({ consumer: "flaky", event });
  },
});

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  stopOrders();
  stopFlaky();
  await t.close();
});

describe("events outbox", () => {
  it("stores the event with the change and hands it to each consumer that wants it", async () => {
    const event = await t.database.db.transaction((tx) =>
      recordEvent(tx, {
        websiteId: null,
        type: "order.created",
        entity: { type: "order", id: "o1" },
        actor: { type: "visitor", id: null },
        payload: { total: 1200 },
      }),
    );
    expect(event.publicId).toMatch(/^evt_[a-f0-9]{24}$/);
    const [stored] = await t.database.db.select().from(s.events).where(eq(s.events.id, event.id));
    expect(event).toEqual(stored);
    const queued = await t.database.db
      .select()
      .from(s.jobs)
      .where(sql`${s.jobs.payload}->>'eventId' = ${String(event.id)}`);
    // One job per consumer that wants order.created (the app's own consumers too), none for others.
    expect(queued.map((j) => j.kind)).toEqual(
      expect.arrayContaining(["event:test.orders", "event:test.flaky"]),
    );
    expect(new Set(queued.map((j) => j.kind)).size).toBe(queued.length);
    expect(queued.every((j) => j.payload.eventId === event.id && !j.doneAt)).toBe(true);
    await runDueJobs(t.app.deps, "test");
    expect(seen.map((x) => x.consumer)).toEqual(["orders"]);
    expect(seen[0]!.event.payload).toEqual({ total: 1200 });
  });

  it("records several events in one statement, each queued for the consumers that want its type", async () => {
    const before = seen.length;
    await t.database.db.transaction((tx) =>
      recordEvents(tx, [
        {
          websiteId: null,
          type: "order.updated",
          entity: { type: "order", id: "o-many-1" },
          actor: { type: "visitor", id: null },
          payload: { n: 1 },
        },
        {
          websiteId: null,
          type: "member.added",
          entity: { type: "member", id: "m-many-2" },
          actor: { type: "system", id: null },
        },
      ]),
    );
    const stored = await t.database.db
      .select()
      .from(s.events)
      .where(sql`${s.events.entityId} in ('o-many-1', 'm-many-2')`)
      .orderBy(s.events.id);
    expect(stored.map((e) => [e.type, e.entityId, e.payload])).toEqual([
      ["order.updated", "o-many-1", { n: 1 }],
      ["member.added", "m-many-2", {}],
    ]);
    expect(stored.every((e) => /^evt_[a-f0-9]{24}$/.test(e.publicId))).toBe(true);
    const kindsOf = async (id: number) =>
      (
        await t.database.db
          .select()
          .from(s.jobs)
          .where(sql`${s.jobs.payload}->>'eventId' = ${String(id)}`)
      ).map((j) => j.kind);
    expect(await kindsOf(stored[0]!.id)).toContain("event:test.orders");
    expect(await kindsOf(stored[1]!.id)).not.toContain("event:test.orders");
    await runDueJobs(t.app.deps, "test");
    expect(seen.slice(before).map((x) => [x.consumer, x.event.entityId])).toEqual([["orders", "o-many-1"]]);
    seen.splice(before);
  });

  it("retries a failed consumer alone, later", async () => {
    const now = Date.now();
    const clock = { now: () => new Date(now + 10 * 60_000) };
    const result = await runDueJobs({ ...t.app.deps, clock }, "test");
    expect(result.ran).toBe(1);
    expect(seen.map((x) => x.consumer)).toEqual(["orders", "flaky"]);
  });

  it("keeps nothing of a rolled-back change", async () => {
    const before = (await t.database.db.select().from(s.events)).length;
    const jobsBefore = (await t.database.db.select().from(s.jobs)).length;
    await expect(
      t.database.db.transaction(async (tx) => {
        await recordEvent(tx, {
          websiteId: null,
          type: "order.updated",
          entity: { type: "order", id: "o2" },
          actor: { type: "system", id: null },
        });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect((await t.database.db.select().from(s.events)).length).toBe(before);
    expect((await t.database.db.select().from(s.jobs)).length).toBe(jobsBefore);
    expect((await runDueJobs(t.app.deps, "test")).ran).toBe(0);
  });
});

describe("a consumer's look at a batch", () => {
  it("sees the batch's events at once, and its failure leaves each event handled", async () => {
    const looked: string[][] = [];
    const handled: string[] = [];
    let lookFails = false;
    const stop = registerEventConsumer("test.batch", {
      types: ["product.updated"],
      prepare: async (_deps, batch) => {
        looked.push(batch.map((e) => String(e.entityId)));
        if (lookFails) throw new Error("look failed");
      },
      handle: async (_deps, event) => {
        handled.push(String(event.entityId));
      },
    });
    try {
      const record = (id: string) =>
        recordEvent(t.database.db, {
          websiteId: null,
          type: "product.updated",
          entity: { type: "product", id },
          actor: { type: "system", id: null },
        });
      for (const id of ["p1", "p2", "p3"]) await record(id);
      await runDueJobs(t.app.deps, "test");
      expect(looked).toEqual([["p1", "p2", "p3"]]);
      expect(handled).toEqual(["p1", "p2", "p3"]);
      lookFails = true;
      await record("p4");
      expect(await runDueJobs(t.app.deps, "test")).toMatchObject({ failed: 0 });
      expect(looked).toEqual([["p1", "p2", "p3"], ["p4"]]);
      expect(handled).toEqual(["p1", "p2", "p3", "p4"]);
    } finally {
      stop();
    }
  });
});
