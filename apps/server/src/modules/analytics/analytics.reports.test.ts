import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, demoOwner } from "../../../test/harness.js";
import { analyticsHits, orderLines, orders, websites } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { recordEvent } from "../events/service.js";
import { runDueJobs } from "../jobs/service.js";
import { orderUpdated } from "../orders/service.js";
import { funnelReport, productsReport, salesReport, siteOfReports, trafficReport } from "./reports.js";
import { classifyVisit } from "./sources.js";

let t: TestApp;
let owner: Browser;
let siteId: string;
let orderNumber = 990_000;
const refundable: string[] = [];

/** An instant given as New York wall-clock time and its UTC offset (-05:00 in winter, -04:00 in summer). */
const at = (local: string, offset: string) => new Date(`${local}${offset}`);

async function order(
  createdAt: Date,
  o: {
    subtotal: number;
    discount?: number;
    shipping?: number;
    tax?: number;
    lines: [string, number, number][];
  },
) {
  const id = newId();
  const grand = o.subtotal - (o.discount ?? 0) + (o.shipping ?? 0) + (o.tax ?? 0);
  await t.database.db.insert(orders).values({
    id,
    websiteId: siteId,
    orderNumber: ++orderNumber,
    email: "buyer@example.com",
    status: "paid",
    currency: "USD",
    subtotalCents: o.subtotal,
    discountCents: o.discount ?? 0,
    shippingCents: o.shipping ?? 0,
    taxCents: o.tax ?? 0,
    grandTotalCents: grand,
    createdAt,
    updatedAt: createdAt,
  });
  await t.database.db.insert(orderLines).values(
    o.lines.map(([itemId, unitPriceCents, quantity]) => ({
      id: newId(),
      websiteId: siteId,
      orderId: id,
      itemId,
      variantId: `${itemId}-v`,
      sku: `SKU-${itemId}`,
      productName: `Product ${itemId}`,
      productType: 1,
      unitPriceCents,
      quantity,
    })),
  );
  return id;
}

/** A census hit at a given instant (as the census route stores it). */
async function hit(
  createdAt: Date,
  visitor: string,
  event: string,
  extra: Partial<typeof analyticsHits.$inferInsert> = {},
) {
  await t.database.db.insert(analyticsHits).values({
    websiteId: siteId,
    event,
    visitorCookie: `${visitor}|1|1|1000|1`,
    pagePath: "/shop",
    url: "http://demo.localhost/shop",
    createdAt,
    ...extra,
  });
}

const report = (path: string) => owner.request({ url: `/api/owner/sites/${siteId}/analytics/${path}` });

beforeAll(async () => {
  t = await createTestApp({ seed: true });
  ({ owner, siteId } = await demoOwner(t));
  await t.database.db.update(websites).set({ timeZone: "America/New_York" }).where(eq(websites.id, siteId));
  // Saturday 7 March 2026 (winter time), 23:30 in New York is 04:30 UTC on the 8th.
  await order(at("2026-03-07T23:30:00", "-05:00"), {
    subtotal: 5000,
    discount: 500,
    shipping: 700,
    tax: 300,
    lines: [["a1", 2500, 2]],
  });
  // Sunday 8 March: clocks go forward at 02:00. 00:30 is still winter time; 23:30 is summer time
  // (03:30 UTC on the 9th).
  await order(at("2026-03-08T00:30:00", "-05:00"), { subtotal: 1999, lines: [["b2", 1999, 1]] });
  refundable.push(
    await order(at("2026-03-08T23:30:00", "-04:00"), {
      subtotal: 3000,
      shipping: 500,
      lines: [["a1", 1000, 3]],
    }),
  );
  // 00:10 on Monday the 9th belongs to the 9th.
  await order(at("2026-03-09T00:10:00", "-04:00"), { subtotal: 1234, lines: [["c3", 1234, 1]] });

  // Traffic of the 8th: visitor v1 from Google views a product, adds it to the cart, starts checkout;
  // v2 from Instagram with UTM tags, on a phone; v3 direct.
  const product = { itemId: "a1", data: { recordType: 11 } };
  const d = (hhmm: string) => at(`2026-03-08T${hhmm}:00`, "-04:00");
  await hit(d("10:00"), "v1", "view", {
    referrer: "https://www.google.com/",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  });
  await hit(d("10:01"), "v1", "view", { pagePath: "/shop/p/a1", ...product });
  await hit(d("10:02"), "v1", "add-to-cart", { itemId: "a1" });
  await hit(d("10:03"), "v1", "checkout-start", { pagePath: "/checkout" });
  await hit(d("11:00"), "v2", "view", {
    url: "http://demo.localhost/shop?utm_source=instagram&utm_medium=social&utm_campaign=spring",
    referrer: "https://l.instagram.com/",
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148",
  });
  await hit(d("11:01"), "v2", "view", { pagePath: "/shop/p/a1", ...product });
  await hit(d("23:50"), "v3", "view", { pagePath: "/about" });
  // No cookie (restrictive policy): a page view, not a visit.
  await t.database.db
    .insert(analyticsHits)
    .values({ websiteId: siteId, event: "view", pagePath: "/shop", createdAt: d("12:00") });

  // The first report queues the first build of the rollups; the job queue builds them.
  expect((await report("sales?from=2026-03-01&to=2026-03-31")).statusCode).toBe(200);
  await runDueJobs(t.app.deps, "test-worker", 1000);
  await runDueJobs(t.app.deps, "test-worker", 1000);
}, 180_000);
afterAll(() => t?.close());

describe("sales (GET …/analytics/sales)", () => {
  it("counts each order on its local day, 23:30 included, across the change to summer time", async () => {
    const res = await report("sales?from=2026-03-07&to=2026-03-09");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ timeZone: "America/New_York", currency: "USD", interval: "day" });
    const byDay = Object.fromEntries(
      body.series.map((s: { period: string; orders: number }) => [s.period, s]),
    );
    expect(byDay["2026-03-07"]).toMatchObject({
      orders: 1,
      units: 2,
      grossCents: 5000,
      discountCents: 500,
      shippingCents: 700,
      taxCents: 300,
      revenueCents: 4500,
    });
    expect(byDay["2026-03-08"]).toMatchObject({
      orders: 2,
      units: 4,
      grossCents: 4999,
      shippingCents: 500,
      revenueCents: 4999,
      averageOrderCents: 2500,
    });
    expect(byDay["2026-03-09"]).toMatchObject({ orders: 1, units: 1, revenueCents: 1234 });
    expect(body.totals).toMatchObject({
      orders: 4,
      units: 7,
      grossCents: 11233,
      discountCents: 500,
      shippingCents: 1200,
      taxCents: 300,
      revenueCents: 10733,
    });
    // The previous three days had no orders.
    expect(body.compare).toMatchObject({
      from: "2026-03-04",
      to: "2026-03-06",
      totals: { orders: 0, revenueCents: 0 },
    });
  });

  it("a refund lowers the revenue of the day the order was placed, once the job queue rebuilt it", async () => {
    const [id] = refundable;
    await t.database.db.transaction(async (tx) => {
      await tx
        .update(orders)
        .set({ refundedCents: 1000, status: "partially_refunded" })
        .where(eq(orders.id, id!));
      await recordEvent(tx, orderUpdated(siteId, id!, "refunded"));
    });
    await runDueJobs(t.app.deps, "test-worker", 1000);
    await runDueJobs(t.app.deps, "test-worker", 1000);
    const body = (await report("sales?from=2026-03-08&to=2026-03-08")).json();
    expect(body.totals).toMatchObject({
      orders: 2,
      refundedCents: 1000,
      refundedOrders: 1,
      revenueCents: 3999,
      grossCents: 4999,
    });
  });

  it("sums by week (from Monday) and month", async () => {
    const week = (await report("sales?from=2026-03-01&to=2026-03-15&interval=week")).json();
    expect(week.series.map((s: { period: string; orders: number }) => [s.period, s.orders])).toEqual([
      ["2026-02-23", 0],
      ["2026-03-02", 3],
      ["2026-03-09", 1],
    ]);
    const month = (await report("sales?from=2026-02-01&to=2026-03-31&interval=month")).json();
    expect(month.series.map((s: { period: string; orders: number }) => [s.period, s.orders])).toEqual([
      ["2026-02-01", 0],
      ["2026-03-01", 4],
    ]);
  });

  it("answers 400 for from after to, a range over two years, or a date that is not one", async () => {
    for (const q of [
      "from=2026-03-09&to=2026-03-08",
      "from=2024-01-01&to=2026-03-08",
      "from=2026-02-30",
      "to=tomorrow",
    ]) {
      for (const path of ["sales", "products", "funnel", "traffic"]) {
        const res = await report(`${path}?${q}`);
        expect(res.statusCode, `${path}?${q}`).toBe(400);
        expect(res.json().error.code).toBeTypeOf("string");
      }
    }
    expect((await report("sales?from=2024-03-09&to=2026-03-08")).statusCode).toBe(200);
  });
});

describe("products, funnel and traffic", () => {
  it("ranks products by revenue, with views, adds to cart and orders", async () => {
    const body = (await report("products?from=2026-03-07&to=2026-03-09")).json();
    expect(body.products.map((p: { itemId: string }) => p.itemId)).toEqual(["a1", "b2", "c3"]);
    expect(body.products[0]).toMatchObject({
      views: 2,
      adds: 1,
      orders: 2,
      units: 5,
      revenueCents: 8000,
      viewToCart: 0.5,
      cartToOrder: 1,
    });
    expect(body.variants[0]).toMatchObject({ itemId: "a1", variantId: "a1-v", units: 5, revenueCents: 8000 });
    expect(body.totals).toEqual({ units: 7, revenueCents: 11233 });
  });

  it("shows each funnel step, never more buyers than visitors", async () => {
    const one = (await report("funnel?from=2026-03-08&to=2026-03-08")).json();
    expect(one.steps.map((s: { key: string; count: number }) => [s.key, s.count])).toEqual([
      ["visits", 3],
      ["product_view", 2],
      ["add_to_cart", 1],
      ["checkout_started", 1],
      // Two orders that day, but one visit that reached checkout.
      ["purchased", 1],
    ]);
    expect(one.steps[1].fromPrevious).toBeCloseTo(2 / 3);
    // The 7th had an order and no counted visit: no buyer shows.
    const none = (await report("funnel?from=2026-03-07&to=2026-03-07")).json();
    expect(none.steps.at(-1).count).toBe(0);
    expect(none.steps[0].count).toBe(0);
  });

  it("splits visits by source, UTM, device, entry page; page views of every hit", async () => {
    const body = (await report("traffic?from=2026-03-08&to=2026-03-08")).json();
    expect(body.totals).toEqual({ visits: 3, visitors: 3, pageViews: 6 });
    const keyed = (list: { key: string; visits: number }[]) =>
      Object.fromEntries(list.map((s) => [s.key, s.visits]));
    expect(keyed(body.sources)).toEqual({ search: 1, social: 1, direct: 1 });
    expect(keyed(body.domains)).toEqual({ "google.com": 1, "l.instagram.com": 1 });
    expect(keyed(body.utmSources)).toEqual({ instagram: 1 });
    expect(keyed(body.utmCampaigns)).toEqual({ spring: 1 });
    expect(keyed(body.devices)).toEqual({ desktop: 2, phone: 1 });
    expect(body.entryPages).toEqual(
      expect.arrayContaining([
        { path: "/shop", visits: 2, visitors: 2 },
        { path: "/about", visits: 1, visitors: 1 },
      ]),
    );
    expect(body.pages[0]).toEqual({ path: "/shop", pageViews: 3, visits: 2 });
  });

  it("answers from the rollups exactly what the raw rows give", async () => {
    const db = t.database.db;
    const site = await siteOfReports(db, siteId);
    const r = { from: "2026-03-01", to: "2026-03-31" };
    expect(await salesReport(db, site, r, "week")).toEqual(await salesReport(db, site, r, "week", "raw"));
    expect(await productsReport(db, site, r)).toEqual(await productsReport(db, site, r, "raw"));
    expect(await funnelReport(db, site, r)).toEqual(await funnelReport(db, site, r, "raw"));
    expect(await trafficReport(db, site, r)).toEqual(await trafficReport(db, site, r, "raw"));
  });

  it("is only for the site's owner", async () => {
    const res = await new Browser(t.app).request({ url: `/api/owner/sites/${siteId}/analytics/sales` });
    expect(res.statusCode).toBe(401);
  });
});

describe("classifyVisit", () => {
  it("tells search, social, email, other sites and direct visits apart", () => {
    const c = (referrer: string | null, url = "https://shop.example/") =>
      classifyVisit({ url, referrer, userAgent: null });
    expect(c("https://www.bing.com/search?q=mug")).toMatchObject({ source: "search", domain: "bing.com" });
    expect(c("https://t.co/abc")).toMatchObject({ source: "social", domain: "t.co" });
    expect(
      c(null, "https://shop.example/?utm_source=newsletter&utm_medium=email&utm_campaign=week-47"),
    ).toMatchObject({
      source: "email",
      utmCampaign: "week-47",
    });
    expect(c("https://blog.example.org/post")).toMatchObject({
      source: "referral",
      domain: "blog.example.org",
    });
    expect(c("https://shop.example/other")).toMatchObject({ source: "direct", domain: undefined });
    expect(
      classifyVisit({ url: null, referrer: null, userAgent: "Mozilla/5.0 (iPad; CPU OS 17_0)" }).device,
    ).toBe("tablet");
  });
});
