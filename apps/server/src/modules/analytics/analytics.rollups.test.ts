/**
 * The rollups behind the analytics reports: the first build of a site whose raw rows predate them
 * (backfill), the job queue keeping them current (a new hit or order after a run shows after the
 * next run, a refund rebuilds the order's day), a visitor counted once over a range (in the
 * totals and per source, entry page and device), and a change of the site's time zone rebuilding
 * every day.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, demoOwner } from "../../../test/harness.js";
import {
  analyticsDailySales,
  analyticsDailyTotals,
  analyticsDailyTrafficVisitors,
  analyticsDailyVisitors,
  analyticsHits,
  analyticsRollupDays,
  jobs as jobsTable,
  orderLines,
  orders,
  websites,
} from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { recordEvent } from "../events/service.js";
import { runDueJobs } from "../jobs/service.js";
import { markOrderPaid, orderUpdated } from "../orders/service.js";
import { addDays, siteOfReports, spansOf, todayOf, trafficReport } from "./reports.js";
import { rebuildDay } from "./rollups.js";

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
async function rawHit(
  createdAt: Date,
  visitor: string,
  pagePath = "/shop",
  from: { referrer?: string; userAgent?: string } = {},
) {
  await t.database.db.insert(analyticsHits).values({
    websiteId: siteId,
    event: "view",
    visitorCookie: `${visitor}|1|1|${createdAt.toISOString().slice(0, 10)}|1`, // one visit a day
    pagePath,
    url: `http://demo.localhost${pagePath}`,
    createdAt,
    ...from,
  });
}

const GOOGLE = "https://www.google.com/";
const INSTAGRAM = "https://l.instagram.com/";
const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile/15E148";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64)";
/** April 2025: "sv1" on 3 days from Google on a phone; "sv2" from Google then Instagram, on a desktop. */
const APRIL = { from: "2025-04-14", to: "2025-04-16" };

/** The traffic report's lists for the April visitors, as a key → [visits, visitors] table. */
async function aprilLists(range = APRIL) {
  const site = await siteOfReports(t.database.db, siteId);
  const fromRollups = await trafficReport(t.database.db, site, range);
  // The rollups give what the raw hits give.
  expect(fromRollups).toEqual(await trafficReport(t.database.db, site, range, "raw"));
  const table = (list: { key?: string; path?: string; visits: number; visitors: number }[]) =>
    Object.fromEntries(list.map((e) => [e.key ?? e.path, [e.visits, e.visitors]]));
  return {
    totals: fromRollups.totals,
    sources: table(fromRollups.sources),
    domains: table(fromRollups.domains),
    entryPages: table(fromRollups.entryPages),
    devices: table(fromRollups.devices),
  };
}

/** What the April visitors add up to, each visitor once per source, entry page and device. */
const APRIL_LISTS = {
  totals: { visits: 6, visitors: 2, pageViews: 9 },
  // sv1's 3 visits and sv2's first from Google: 4 visits of 2 visitors (not 4 daily visitors);
  // sv2's 2 from Instagram: 1 visitor, also counted under search.
  sources: { search: [4, 2], social: [2, 1] },
  domains: { "google.com": [4, 2], "l.instagram.com": [2, 1] },
  entryPages: { "/spring": [4, 2], "/summer": [2, 1] },
  devices: { phone: [3, 1], desktop: [3, 1] },
};

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
  for (const day of ["2025-04-14", "2025-04-15", "2025-04-16"]) {
    await rawHit(at(`${day}T09:00:00`), "sv1", "/spring", { referrer: GOOGLE, userAgent: IPHONE });
    await rawHit(at(`${day}T09:02:00`), "sv1", "/shop", {
      referrer: "http://demo.localhost/spring",
      userAgent: IPHONE,
    });
    const first = day === "2025-04-14";
    await rawHit(at(`${day}T10:00:00`), "sv2", first ? "/spring" : "/summer", {
      referrer: first ? GOOGLE : INSTAGRAM,
      userAgent: DESKTOP,
    });
  }
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

  it("counts a visitor who came on 3 days once per source, entry page and device, twice for two", async () => {
    // Built by the backfill (the rows predate the rollups).
    expect(await aprilLists()).toEqual(APRIL_LISTS);
    // The same through the API.
    const body = (await report(`traffic?from=${APRIL.from}&to=${APRIL.to}`)).json();
    expect(body.sources).toEqual(
      expect.arrayContaining([
        { key: "search", visits: 4, visitors: 2 },
        { key: "social", visits: 2, visitors: 1 },
      ]),
    );
    // A single day: that day's own visitors.
    const day = await aprilLists({ from: "2025-04-15", to: "2025-04-15" });
    expect(day.sources).toEqual({ search: [1, 1], social: [1, 1] });
    // Over a range read from April's month sums (and weeks and edge days), and over part of it.
    const long = { from: "2025-03-27", to: "2025-05-09" };
    expect(spansOf(long).months).toEqual(["2025-04-01"]);
    expect(await aprilLists(long)).toEqual(APRIL_LISTS);
    // (sv1's 2 visits from Google on the 15th and 16th: 1 visitor)
    expect((await aprilLists({ from: "2025-04-15", to: "2025-04-20" })).sources).toEqual({
      search: [2, 1],
      social: [2, 1],
    });
    // Rebuilt day by day in another order: the same.
    for (const d of ["2025-04-16", "2025-04-14", "2025-04-15"]) await rebuildDay(t.database.db, siteId, d);
    expect(await aprilLists()).toEqual(APRIL_LISTS);
    // sv1's hits of the middle day gone (and its day rebuilt): sv1 came from Google on 2 days.
    const sv1On15th = await t.database.db
      .delete(analyticsHits)
      .where(
        and(eq(analyticsHits.websiteId, siteId), eq(analyticsHits.visitorCookie, "sv1|1|1|2025-04-15|1")),
      )
      .returning();
    expect(sv1On15th).toHaveLength(2);
    await rebuildDay(t.database.db, siteId, "2025-04-15");
    expect((await aprilLists()).sources).toEqual({ search: [3, 2], social: [2, 1] });
    expect((await aprilLists({ from: "2025-04-15", to: "2025-04-16" })).sources).toEqual({
      search: [1, 1],
      social: [2, 1],
    });
    // And back.
    await t.database.db.insert(analyticsHits).values(sv1On15th.map(({ id: _, ...h }) => h));
    await rebuildDay(t.database.db, siteId, "2025-04-15");
    expect(await aprilLists()).toEqual(APRIL_LISTS);
    // One row per visitor, day, dimension and key: 3 days of sv1 and sv2, each with a source, a
    // referring domain, an entry page and a device (no UTM tags).
    const rows = await t.database.db
      .select()
      .from(analyticsDailyTrafficVisitors)
      .where(eq(analyticsDailyTrafficVisitors.websiteId, siteId));
    expect(rows.filter((v) => v.day >= APRIL.from && v.day <= APRIL.to)).toHaveLength(6 * 4);
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
    // The April visitors' hits (09:00 and 10:00 in New York) stay on the same days in Paris: the
    // rebuilt rollups count each visitor once per source, entry page and device, as the raw hits do.
    expect(await aprilLists()).toEqual(APRIL_LISTS);
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

describe("an order's day", () => {
  it("is marked and rebuilt on the site's calendar, not UTC's", async () => {
    await t.database.db.update(websites).set({ timeZone: "Asia/Tokyo" }).where(eq(websites.id, siteId));
    await jobs();
    // 08:30 on 2 July in Tokyo is 23:30 on 1 July in UTC.
    await paidOrder(new Date("2025-07-01T23:30:00Z"), 900);
    await jobs();
    const rebuilds = await t.database.db
      .select()
      .from(jobsTable)
      .where(eq(jobsTable.kind, "analytics.rollup-day"));
    expect(
      rebuilds.filter((j) => j.payload.websiteId === siteId && String(j.payload.day).startsWith("2025-07")),
    ).toEqual([expect.objectContaining({ payload: { websiteId: siteId, day: "2025-07-02" } })]);
    const days = (await rollupDays()).filter((d) => d.day >= "2025-07-01" && d.day <= "2025-07-02");
    expect(days.map((d) => [d.day, d.dirty])).toEqual([["2025-07-02", false]]);
    expect(await salesOn("2025-07-02")).toMatchObject({ orders: 1, revenueCents: 900 });
  });
});
