/**
 * The rollups behind the analytics reports: the first build of a site whose raw rows predate them
 * (backfill), the job queue keeping them current (a new hit or order after a run shows after the
 * next run, a refund rebuilds the order's day), a visitor counted once over a range, and a change
 * of the site's time zone rebuilding every day.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, demoOwner } from "../../../test/harness.js";
import {
  analyticsDailySales,
  analyticsDailyTotals,
  analyticsDailyVisitors,
  analyticsHits,
  analyticsRollupDays,
  orderLines,
  orders,
  websites,
} from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { recordEvent } from "../events/service.js";
import { runDueJobs } from "../jobs/service.js";
import { markOrderPaid, orderUpdated } from "../orders/service.js";
import { addDays, siteOfReports, spansOf, todayOf, trafficReport } from "./reports.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
let orderNumber = 880_000;

/** An instant given as New York wall-clock time and its UTC offset (-04:00 in summer). */
const at = (local: string, offset = "-04:00") => new Date(`${local}${offset}`);

/** A pending order with one line, then paid as checkout pays it (which records `order.created`). */
async function paidOrder(createdAt: Date, subtotal: number) {
  const id = newId();
  const [row] = await t.database.db
    .insert(orders)
    .values({
      id,
      websiteId: siteId,
      orderNumber: ++orderNumber,
      email: "buyer@example.com",
      status: "pending",
      currency: "USD",
      subtotalCents: subtotal,
      grandTotalCents: subtotal,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  await t.database.db.insert(orderLines).values({
    id: newId(),
    websiteId: siteId,
    orderId: id,
    itemId: "r1",
    sku: "SKU-r1",
    productName: "Product r1",
    productType: 1,
    unitPriceCents: subtotal,
    quantity: 1,
  });
  await t.database.db.transaction((tx) => markOrderPaid(tx, row!, {}, createdAt));
  return id;
}

/** A census hit stored as the census route stores it, at a given instant. */
async function rawHit(createdAt: Date, visitor: string, pagePath = "/shop") {
  await t.database.db.insert(analyticsHits).values({
    websiteId: siteId,
    event: "view",
    visitorCookie: `${visitor}|1|1|${createdAt.toISOString().slice(0, 10)}|1`, // one visit a day
    pagePath,
    url: `http://demo.localhost${pagePath}`,
    createdAt,
  });
}

const report = (path: string) => owner.request({ url: `/api/owner/sites/${siteId}/analytics/${path}` });
const jobs = async () => {
  await runDueJobs(t.app.deps, "test-worker", 1000);
  await runDueJobs(t.app.deps, "test-worker", 1000);
};
const salesOn = async (day: string) =>
  (await report(`sales?from=${day}&to=${day}`)).json().totals as { orders: number; revenueCents: number };
const rollupDays = () =>
  t.database.db.select().from(analyticsRollupDays).where(eq(analyticsRollupDays.websiteId, siteId));

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  ({ owner, siteId } = await demoOwner(t));
  await t.database.db.update(websites).set({ timeZone: "America/New_York" }).where(eq(websites.id, siteId));
  // Old raw rows, recorded before the site had any rollups: visitor "rv1" on 3 days of June
  // 2025, "rv2" on one of them; one order at 23:30 on the 11th (03:30 UTC on the 12th).
  await t.database.db.delete(analyticsRollupDays).where(eq(analyticsRollupDays.websiteId, siteId));
  for (const day of ["2025-06-10", "2025-06-11", "2025-06-12"]) {
    await rawHit(at(`${day}T09:00:00`), "rv1");
    await rawHit(at(`${day}T09:05:00`), "rv1", "/about");
  }
  await rawHit(at("2025-06-11T15:00:00"), "rv2");
  await paidOrder(at("2025-06-11T23:30:00"), 4200);
  await t.database.db.delete(analyticsRollupDays).where(eq(analyticsRollupDays.websiteId, siteId));
}, 180_000);
afterAll(() => t?.close());

describe("backfill", () => {
  it("builds the rollups of a site whose raw rows predate them, when a report is first opened", async () => {
    expect(await rollupDays()).toEqual([]);
    expect((await report("sales?from=2025-06-01&to=2025-06-30")).statusCode).toBe(200);
    await jobs();
    const days = (await rollupDays()).map((d) => d.day);
    expect(days).toEqual(expect.arrayContaining(["2025-06-10", "2025-06-11", "2025-06-12"]));
    expect((await rollupDays()).every((d) => !d.dirty && d.builtAt)).toBe(true);
    expect(await salesOn("2025-06-11")).toMatchObject({ orders: 1, revenueCents: 4200 });
    const [june11] = await t.database.db
      .select()
      .from(analyticsDailyTotals)
      .where(and(eq(analyticsDailyTotals.websiteId, siteId), eq(analyticsDailyTotals.day, "2025-06-11")));
    expect(june11).toMatchObject({ pageViews: 3, visits: 2, visitors: 2 });
  });
});

describe("visitors over a range", () => {
  it("counts a visitor who came on 3 days of the range once", async () => {
    const body = (await report("traffic?from=2025-06-10&to=2025-06-12")).json();
    // rv1 on the 10th, 11th and 12th; rv2 on the 11th.
    expect(body.totals).toEqual({ visits: 4, visitors: 2, pageViews: 7 });
    // Each day's own visitors are still that day's.
    expect(body.series.map((d: { visitors: number }) => d.visitors)).toEqual([1, 2, 1]);
    // The rollups give what the raw rows give.
    const site = await siteOfReports(t.database.db, siteId);
    const r = { from: "2025-06-10", to: "2025-06-12" };
    expect(await trafficReport(t.database.db, site, r)).toEqual(
      await trafficReport(t.database.db, site, r, "raw"),
    );
    // Also over a range read from a month's and a week's sums (June 2025, the week from 7 July)
    // and edge days.
    const long = { from: "2025-05-28", to: "2025-07-15" };
    expect(spansOf(long)).toMatchObject({ months: ["2025-06-01"], weeks: ["2025-07-07"] });
    const fromRollups = await trafficReport(t.database.db, site, long);
    expect(fromRollups.totals).toEqual({ visits: 4, visitors: 2, pageViews: 7 });
    expect(fromRollups).toEqual(await trafficReport(t.database.db, site, long, "raw"));
    // One row per visitor and day, 64-bit hashes of the visitor ids.
    const rows = await t.database.db
      .select()
      .from(analyticsDailyVisitors)
      .where(eq(analyticsDailyVisitors.websiteId, siteId));
    expect(rows.filter((v) => v.day >= r.from && v.day <= r.to)).toHaveLength(4);
    // The previous period had none.
    expect(body.compare.totals).toEqual({ visits: 0, visitors: 0, pageViews: 0 });
  });
});

describe("the rollup job", () => {
  it("shows a hit recorded after a run once the job queue ran again", async () => {
    const site = await siteOfReports(t.database.db, siteId);
    const today = todayOf(site, t.app.deps.clock.now());
    await jobs();
    const before = (await report(`traffic?from=${today}&to=${today}`)).json().totals;
    const visitor = new Browser(t.app);
    const res = await visitor.request({
      method: "POST",
      url: "/api/census/RecordHit",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        event: "view",
        data: JSON.stringify({
          pageType: 50,
          url: "http://demo.localhost/rollup-test",
          pagePath: "/rollup-test",
        }),
        ss_cvr: "rollup0visitor|1700000000000|1700000000000|1700000500000|1",
      }).toString(),
      remoteAddress: "10.26.0.1",
    });
    expect(res.json()).toEqual({ recorded: true });
    // The day is dirty until the job runs; the report still shows the last build.
    const [state] = (await rollupDays()).filter((d) => d.day === today);
    expect(state?.dirty).toBe(true);
    expect((await report(`traffic?from=${today}&to=${today}`)).json().totals).toEqual(before);
    await jobs();
    const after = (await report(`traffic?from=${today}&to=${today}`)).json();
    expect(after.totals.pageViews).toBe(before.pageViews + 1);
    expect(after.totals.visitors).toBe(before.visitors + 1);
    expect(after.pages).toEqual(expect.arrayContaining([{ path: "/rollup-test", pageViews: 1, visits: 1 }]));
  });

  it("shows an order paid after a run once the job queue ran again", async () => {
    const day = "2025-06-12";
    await jobs();
    expect(await salesOn(day)).toMatchObject({ orders: 0, revenueCents: 0 });
    await paidOrder(at(`${day}T12:00:00`), 1500);
    expect(await salesOn(day)).toMatchObject({ orders: 0 });
    await jobs();
    expect(await salesOn(day)).toMatchObject({ orders: 1, revenueCents: 1500 });
  });

  it("rebuilds the day an order was placed when it is refunded, and only that day", async () => {
    const day = "2025-06-10";
    const id = await paidOrder(at(`${day}T20:00:00`), 3000);
    await jobs();
    expect(await salesOn(day)).toMatchObject({ orders: 1, revenueCents: 3000 });
    const builtBefore = new Map((await rollupDays()).map((d) => [d.day, d.builtAt?.getTime()]));
    await t.database.db.transaction(async (tx) => {
      await tx
        .update(orders)
        .set({ refundedCents: 1200, status: "partially_refunded" })
        .where(eq(orders.id, id));
      await recordEvent(tx, orderUpdated(siteId, id, "refunded"));
    });
    await jobs();
    expect(await salesOn(day)).toMatchObject({ orders: 1, refundedCents: 1200, revenueCents: 1800 });
    const builtAfter = new Map((await rollupDays()).map((d) => [d.day, d.builtAt?.getTime()]));
    const rebuilt = [...builtAfter].filter(([d, at]) => builtBefore.get(d) !== at).map(([d]) => d);
    expect(rebuilt).toEqual([day]);
  });
});

describe("changing the site's time zone", () => {
  it("rebuilds the rollups through the job queue in the new time zone", async () => {
    // 23:30 on 11 June in New York is 05:30 on the 12th in Paris.
    expect(await salesOn("2025-06-11")).toMatchObject({ orders: 1, revenueCents: 4200 });
    const res = await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}`,
      payload: { timeZone: "Europe/Paris" },
    });
    expect(res.statusCode).toBe(200);
    await jobs();
    const june11 = (await report("sales?from=2025-06-11&to=2025-06-11")).json();
    expect(june11.timeZone).toBe("Europe/Paris");
    // The 11th in Paris now holds the order of 20:00 on the 10th in New York (02:00 on the 11th).
    expect(june11.totals).toMatchObject({ orders: 1, refundedCents: 1200, revenueCents: 1800 });
    expect(await salesOn("2025-06-12")).toMatchObject({ orders: 2, revenueCents: 5700 });
    // Every rollup row of the site is of the new time zone: none left dirty, and the sales rows
    // match the raw orders day by day.
    expect((await rollupDays()).some((d) => d.dirty)).toBe(false);
    const sales = await t.database.db
      .select()
      .from(analyticsDailySales)
      .where(eq(analyticsDailySales.websiteId, siteId));
    expect(sales.find((s) => s.day === "2025-06-10")).toBeUndefined();
    expect(sales.find((s) => s.day === "2025-06-12")).toMatchObject({ orders: 2, grossCents: 5700 });
    // Saving the same time zone again queues nothing.
    await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}`,
      payload: { timeZone: "Europe/Paris" },
    });
    const built = (await rollupDays()).map((d) => d.builtAt?.getTime());
    await jobs();
    expect((await rollupDays()).map((d) => d.builtAt?.getTime())).toEqual(built);
  });

  it("refuses an unknown time zone with a 400 in plain words, queueing nothing", async () => {
    const res = await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}`,
      payload: { timeZone: "Mars/Olympus" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBeTypeOf("string");
    expect((await report("sales?from=2025-06-12&to=2025-06-12")).json().timeZone).toBe("Europe/Paris");
  });
});

describe("spansOf (the traffic report reads whole months and weeks from their sums)", () => {
  it("cuts a range into whole months, then whole weeks from Monday, then days, covering each day once", () => {
    const cases = [
      { from: "2026-08-30", to: "2026-11-27" },
      { from: "2024-03-09", to: "2026-03-08" },
      { from: "2026-02-02", to: "2026-03-01" },
      { from: "2026-03-08", to: "2026-03-08" },
    ];
    for (const r of cases) {
      const s = spansOf(r);
      const covered: string[] = [];
      for (const m of s.months)
        for (let d = m; d.slice(0, 7) === m.slice(0, 7); d = addDays(d, 1)) covered.push(d);
      for (const w of s.weeks) for (let i = 0; i < 7; i++) covered.push(addDays(w, i));
      for (const [a, b] of s.days) for (let d = a; d <= b; d = addDays(d, 1)) covered.push(d);
      const want: string[] = [];
      for (let d = r.from; d <= r.to; d = addDays(d, 1)) want.push(d);
      expect(covered.sort(), JSON.stringify(r)).toEqual(want);
    }
    expect(spansOf({ from: "2026-08-30", to: "2026-11-27" })).toEqual({
      months: ["2026-09-01", "2026-10-01"],
      weeks: ["2026-11-02", "2026-11-09", "2026-11-16"],
      days: [
        ["2026-08-30", "2026-08-31"],
        ["2026-11-01", "2026-11-01"],
        ["2026-11-23", "2026-11-27"],
      ],
    });
  });
});
