/**
 * The owner's analytics reports (sales, products, funnel, traffic) over a range of the site's
 * local dates, each with the previous period of the same length. They read the daily rollups;
 * `source: "raw"` computes the very same report from the raw rows (benchmark baseline, tests).
 */
import { and, between, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  analyticsDailyProducts,
  analyticsDailySales,
  analyticsDailyTotals,
  analyticsDailyVisitors,
  analyticsRollupDays,
  storeSettings,
} from "../../db/schema.js";
import { badRequest } from "../../http/errors.js";
import {
  type ProductDay,
  type SalesDay,
  type TotalsDay,
  type TrafficDay,
  buildProducts,
  buildSales,
  buildTotals,
  buildTraffic,
  countVisitors,
  queueBackfill,
  siteTimeZone,
} from "./rollups.js";
import { localDay } from "../../lib/local-day.js";

export type Source = "rollups" | "raw";
export type Interval = "day" | "week" | "month";

/** The longest range a report covers: two years (and a day for a leap year). */
export const MAX_RANGE_DAYS = 731;
const DAY_MS = 86_400_000;

const toTime = (d: string) => Date.parse(`${d}T00:00:00Z`);
const fromTime = (t: number) => new Date(t).toISOString().slice(0, 10);
export const addDays = (d: string, n: number) => fromTime(toTime(d) + n * DAY_MS);
const daysBetween = (from: string, to: string) => Math.round((toTime(to) - toTime(from)) / DAY_MS) + 1;

export interface Range {
  from: string;
  to: string;
}

export interface Site {
  websiteId: string;
  timeZone: string;
  currency: string;
}

export async function siteOfReports(db: Db, websiteId: string): Promise<Site> {
  const [store] = await db
    .select({ currency: storeSettings.currency })
    .from(storeSettings)
    .where(eq(storeSettings.websiteId, websiteId));
  return { websiteId, timeZone: await siteTimeZone(db, websiteId), currency: store?.currency ?? "USD" };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const validDate = (d: string) => DATE.test(d) && fromTime(toTime(d)) === d;

/**
 * The range asked for: `from` and `to` are local dates (YYYY-MM-DD), both included; the last 30
 * days up to today when left out. `from` after `to`, or more than two years, is refused.
 */
export function rangeOf(query: { from?: string; to?: string }, today: string): Range {
  for (const [name, v] of Object.entries({ from: query.from, to: query.to })) {
    if (v !== undefined && !validDate(v)) {
      throw badRequest(`The ${name} date must be a date like 2026-11-28.`, { [name]: "not a date" });
    }
  }
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -29);
  if (from > to) throw badRequest("The start date is after the end date.", { from: "after to" });
  if (daysBetween(from, to) > MAX_RANGE_DAYS) {
    throw badRequest("A report covers at most two years: choose a shorter range.", {
      from: "range too long",
    });
  }
  return { from, to };
}

/** The period of the same length just before `r`. */
export function previousPeriod(r: Range): Range {
  const n = daysBetween(r.from, r.to);
  return { from: addDays(r.from, -n), to: addDays(r.from, -1) };
}

/** Today in the site's calendar. */
export function todayOf(site: Site, now: Date): string {
  return localDay(now, site.timeZone);
}

/** Queues the first build for a site that has raw rows but has never been rolled up. */
export async function ensureRollups(db: Db, websiteId: string): Promise<void> {
  const [any] = await db
    .select({ day: analyticsRollupDays.day })
    .from(analyticsRollupDays)
    .where(eq(analyticsRollupDays.websiteId, websiteId))
    .limit(1);
  if (!any) await queueBackfill(db, websiteId);
}

// ─── Loading: from the rollups or from the raw rows ──────────────────────────────────────────────

const inRange = <T extends typeof analyticsDailySales | typeof analyticsDailyProducts>(
  table: T,
  site: Site,
  r: Range,
) => and(eq(table.websiteId, site.websiteId), between(table.day, r.from, r.to));

async function salesDays(db: Db, site: Site, r: Range, source: Source): Promise<SalesDay[]> {
  if (source === "raw") return buildSales(db, site.websiteId, site.timeZone, r.from, r.to);
  const list = await db
    .select()
    .from(analyticsDailySales)
    .where(inRange(analyticsDailySales, site, r));
  return list.map(({ websiteId: _, ...rest }) => rest);
}

type ProductSum = Omit<ProductDay, "day">;

async function productSums(db: Db, site: Site, r: Range, source: Source): Promise<ProductSum[]> {
  if (source === "raw") {
    const days = await buildProducts(db, site.websiteId, site.timeZone, r.from, r.to);
    return sumProducts(
      days.map(({ day: _, ...p }) => p),
      (p) => p,
    );
  }
  const t = analyticsDailyProducts;
  const list = await db
    .select({
      itemId: t.itemId,
      variantId: t.variantId,
      name: sql<string>`max(${t.name})`,
      views: sql<number>`sum(${t.views})::int`,
      adds: sql<number>`sum(${t.adds})::int`,
      orders: sql<number>`sum(${t.orders})::int`,
      units: sql<number>`sum(${t.units})::int`,
      revenueCents: sql<number>`sum(${t.revenueCents})::bigint`,
    })
    .from(t)
    .where(inRange(t, site, r))
    .groupBy(t.itemId, t.variantId);
  return list.map((p) => ({ ...p, revenueCents: Number(p.revenueCents) }));
}

/** A dimension's key over a range: visits and page views summed, its visitors each counted once. */
type TrafficSum = Omit<TrafficDay, "day"> & { visitors: number };

/** The most rows of a dimension a report shows (sources, pages, …). */
const TOP = 20;

/**
 * Traffic summed by dimension and key over the range. The visitors of a visit dimension's key
 * (source, entry page, device, …) are distinct visitors over the whole range, however many days
 * they came; the report shows none for the page list (0). From the rollups, only the rows that
 * can make a dimension's top `TOP` come back: those ranked within it (ties share a rank, so the
 * report's own sort and cut pick the same rows), and only their visitors are counted.
 */
async function trafficSums(
  db: Db,
  site: Site,
  r: Range,
  source: Source,
  dimensions: string[],
): Promise<TrafficSum[]> {
  if (source === "raw") {
    const built = await buildTraffic(db, site.websiteId, site.timeZone, r.from, r.to);
    const out = new Map<string, TrafficSum>();
    for (const { day: _, ...d } of built.days) {
      if (!dimensions.includes(d.dimension)) continue;
      const key = `${d.dimension}\u0000${d.key}`;
      const s = out.get(key);
      if (!s) out.set(key, { ...d, visitors: 0 });
      else {
        s.visits += d.visits;
        s.pageViews += d.pageViews;
      }
    }
    const seen = new Map<string, Set<bigint>>();
    for (const v of built.visitors) {
      const key = `${v.dimension}\u0000${v.key}`;
      const set = seen.get(key) ?? new Set();
      set.add(v.visitor);
      seen.set(key, set);
    }
    for (const [key, set] of seen) {
      const s = out.get(key);
      if (s) s.visitors = set.size;
    }
    return [...out.values()];
  }
  const list = sql.join(
    dimensions.map((d) => sql`${d}`),
    sql`, `,
  );
  const { months, weeks, days } = spansOf(r);
  const parts = [];
  for (const [span, starts] of [
    ["month", months],
    ["week", weeks],
  ] as const) {
    if (!starts.length) continue;
    parts.push(sql`select dimension, key, visits, page_views from analytics_span_traffic
      where website_id = ${site.websiteId} and span = ${span} and dimension in (${list})
        and start in (${sql.join(
          starts.map((d) => sql`${d}`),
          sql`, `,
        )})`);
  }
  if (days.length) {
    parts.push(sql`select dimension, key, visits, page_views from analytics_daily_traffic
      where website_id = ${site.websiteId} and dimension in (${list})
        and (${sql.join(
          days.map(([a, b]) => sql`day between ${a} and ${b}`),
          sql` or `,
        )})`);
  }
  // The ranked rows' visitors: each counted on its first day in the range, the day its previous
  // visit with the key is before the range (rollups.ts), one index range per key.
  const res = (await db.execute(sql`
    select ranked.dimension, ranked.key, ranked.visits, coalesce(v.visitors, 0)::int as visitors,
      ranked.page_views as "pageViews"
    from (
      select dimension, key, visits, page_views,
        rank() over (partition by dimension order by
          case when dimension = 'page' then page_views else visits end desc,
          case when dimension = 'page' then 0 else page_views end desc) as place
      from (
        select dimension, key, sum(visits)::int as visits, sum(page_views)::int as page_views
        from (${sql.join(parts, sql` union all `)}) rows
        group by dimension, key
      ) sums
    ) ranked
    left join lateral (
      select sum(c.visitors)::int as visitors from analytics_daily_traffic_visitor_counts c
      where c.website_id = ${site.websiteId} and c.dimension = ranked.dimension and c.key = ranked.key
        and c.day between ${r.from} and ${r.to} and c.prev < ${r.from}::date and ranked.dimension <> 'page'
    ) v on true
    where ranked.place <= ${TOP}`)) as unknown as { rows: TrafficSum[] };
  return res.rows;
}

/**
 * A range cut into the whole months it covers, then the whole ISO weeks (from Monday) of what is
 * left, then the days left over (as runs of days `[from, to]`).
 */
export function spansOf(r: Range): { months: string[]; weeks: string[]; days: [string, string][] } {
  const months: string[] = [];
  const weeks: string[] = [];
  const days: [string, string][] = [];
  const endOfMonth = (d: string) => addDays(`${addDays(`${d.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1);
  const weeksAndDays = (from: string, to: string) => {
    let d = from;
    while (d <= to) {
      if (periodOf(d, "week") === d && addDays(d, 6) <= to) {
        weeks.push(d);
        d = addDays(d, 7);
        continue;
      }
      const last = days[days.length - 1];
      if (last && addDays(last[1], 1) === d) last[1] = d;
      else days.push([d, d]);
      d = addDays(d, 1);
    }
  };
  let first = periodOf(r.from, "month");
  if (first < r.from) first = addDays(endOfMonth(first), 1);
  let d = first;
  while (endOfMonth(d) <= r.to) {
    months.push(d);
    d = addDays(endOfMonth(d), 1);
  }
  if (!months.length) weeksAndDays(r.from, r.to);
  else {
    weeksAndDays(r.from, addDays(first, -1));
    weeksAndDays(d, r.to);
  }
  return { months, weeks, days };
}

/** Page views, visits, visitors and funnel visits of each day of the range that has any. */
async function totalsDays(db: Db, site: Site, r: Range, source: Source): Promise<TotalsDay[]> {
  if (source === "raw") return buildTotals(db, site.websiteId, site.timeZone, r.from, r.to);
  const t = analyticsDailyTotals;
  const list = await db
    .select()
    .from(t)
    .where(and(eq(t.websiteId, site.websiteId), between(t.day, r.from, r.to)));
  return list.map(({ websiteId: _, ...rest }) => rest);
}

/** The range's visitors, each counted once however many days they came. */
async function rangeVisitors(db: Db, site: Site, r: Range, source: Source): Promise<number> {
  if (source === "raw") return countVisitors(db, site.websiteId, site.timeZone, r.from, r.to);
  const t = analyticsDailyVisitors;
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${t.visitor})::int` })
    .from(t)
    .where(and(eq(t.websiteId, site.websiteId), between(t.day, r.from, r.to)));
  return Number(row?.n ?? 0);
}

// ─── Sales ───────────────────────────────────────────────────────────────────────────────────────

export interface SalesFigures {
  orders: number;
  units: number;
  grossCents: number;
  discountCents: number;
  refundedCents: number;
  refundedOrders: number;
  /** Gross sales less discounts and refunds (shipping and tax apart). */
  revenueCents: number;
  shippingCents: number;
  taxCents: number;
  averageOrderCents: number;
}

function salesFigures(days: SalesDay[]): SalesFigures {
  const sum = (k: keyof Omit<SalesDay, "day">) => days.reduce((s, d) => s + d[k], 0);
  const orders = sum("orders");
  const revenueCents = sum("grossCents") - sum("discountCents") - sum("refundedCents");
  return {
    orders,
    units: sum("units"),
    grossCents: sum("grossCents"),
    discountCents: sum("discountCents"),
    refundedCents: sum("refundedCents"),
    refundedOrders: sum("refundedOrders"),
    revenueCents,
    shippingCents: sum("shippingCents"),
    taxCents: sum("taxCents"),
    averageOrderCents: orders ? Math.round(revenueCents / orders) : 0,
  };
}

/** The first day of the period (day, ISO week from Monday, month) a local date falls in. */
export function periodOf(day: string, interval: Interval): string {
  if (interval === "day") return day;
  if (interval === "month") return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(toTime(day)).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** Every period from the one holding `from` to the one holding `to`, so empty periods show as zero. */
function periods(r: Range, interval: Interval): string[] {
  const out: string[] = [];
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) {
    const p = periodOf(d, interval);
    if (out[out.length - 1] !== p) out.push(p);
  }
  return out;
}

export async function salesReport(
  db: Db,
  site: Site,
  r: Range,
  interval: Interval,
  source: Source = "rollups",
) {
  const prev = previousPeriod(r);
  const [days, before] = [await salesDays(db, site, r, source), await salesDays(db, site, prev, source)];
  const byPeriod = new Map<string, SalesDay[]>();
  for (const d of days) {
    const p = periodOf(d.day, interval);
    byPeriod.set(p, [...(byPeriod.get(p) ?? []), d]);
  }
  return {
    ...r,
    interval,
    timeZone: site.timeZone,
    currency: site.currency,
    totals: salesFigures(days),
    series: periods(r, interval).map((period) => ({ period, ...salesFigures(byPeriod.get(period) ?? []) })),
    compare: { ...prev, totals: salesFigures(before) },
  };
}

// ─── Products ────────────────────────────────────────────────────────────────────────────────────

const byRevenue = (
  a: { revenueCents: number; units: number; name: string; itemId: string; variantId?: string },
  b: typeof a,
) =>
  b.revenueCents - a.revenueCents ||
  b.units - a.units ||
  a.name.localeCompare(b.name) ||
  a.itemId.localeCompare(b.itemId) ||
  (a.variantId ?? "").localeCompare(b.variantId ?? "");

/** Adds up rows that `keyOf` makes alike (same product, or same product and variant). */
function sumProducts(rows: ProductSum[], keyOf: (p: ProductSum) => ProductSum): ProductSum[] {
  const out = new Map<string, ProductSum>();
  for (const row of rows) {
    const p = keyOf(row);
    const key = `${p.itemId}\u0000${p.variantId}`;
    const s = out.get(key);
    if (!s) out.set(key, { ...p });
    else {
      s.views += p.views;
      s.adds += p.adds;
      s.orders += p.orders;
      s.units += p.units;
      s.revenueCents += p.revenueCents;
      if (!s.name) s.name = p.name;
    }
  }
  return [...out.values()];
}

/** Per product: its variants added up. */
const productRows = (sums: ProductSum[]) => sumProducts(sums, (p) => ({ ...p, variantId: "" }));

export async function productsReport(db: Db, site: Site, r: Range, source: Source = "rollups") {
  const prev = previousPeriod(r);
  const [now, before] = [await productSums(db, site, r, source), await productSums(db, site, prev, source)];
  const products = productRows(now)
    .map(({ variantId: _, ...p }) => ({
      ...p,
      name: p.name || "(removed product)",
      viewToCart: p.views ? p.adds / p.views : 0,
      cartToOrder: p.adds ? Math.min(1, p.orders / p.adds) : 0,
    }))
    .sort(byRevenue);
  const names = new Map(products.map((p) => [p.itemId, p.name]));
  const variants = now
    .filter((p) => p.units > 0)
    .map((p) => ({
      itemId: p.itemId,
      variantId: p.variantId,
      name: p.name || names.get(p.itemId) || "(removed product)",
      orders: p.orders,
      units: p.units,
      revenueCents: p.revenueCents,
    }))
    .sort(byRevenue);
  const total = (list: ProductSum[]) => ({
    units: list.reduce((s, p) => s + p.units, 0),
    revenueCents: list.reduce((s, p) => s + p.revenueCents, 0),
  });
  return {
    ...r,
    timeZone: site.timeZone,
    currency: site.currency,
    totals: total(now),
    products: products.slice(0, 100),
    variants: variants.slice(0, 100),
    compare: { ...prev, totals: total(before) },
  };
}

// ─── Funnel ──────────────────────────────────────────────────────────────────────────────────────

const FUNNEL_STEPS = [
  ["visits", "Visits"],
  ["product_view", "Viewed a product"],
  ["add_to_cart", "Added to cart"],
  ["checkout_started", "Started checkout"],
  ["purchased", "Purchased"],
] as const;

async function funnelSteps(db: Db, site: Site, r: Range, source: Source) {
  const days = await totalsDays(db, site, r, source);
  const orders = salesFigures(await salesDays(db, site, r, source)).orders;
  const sum = (k: "visits" | "productViews" | "adds" | "checkouts") => days.reduce((s, d) => s + d[k], 0);
  const raw: Record<string, number> = {
    visits: sum("visits"),
    product_view: sum("productViews"),
    add_to_cart: sum("adds"),
    checkout_started: sum("checkouts"),
    purchased: orders,
  };
  // Each step counts visits that reached it, at most the step before: a purchase whose visit was
  // not counted (cookies declined, a script blocked) never shows more buyers than visitors.
  let previous = Number.POSITIVE_INFINITY;
  const first = raw.visits ?? 0;
  return FUNNEL_STEPS.map(([key, label], i) => {
    const count = Math.min(previous, raw[key] ?? 0);
    const step = {
      key,
      label,
      count,
      fromPrevious: i === 0 ? 1 : previous ? count / previous : 0,
      fromFirst: first ? count / first : 0,
    };
    previous = count;
    return step;
  });
}

export async function funnelReport(db: Db, site: Site, r: Range, source: Source = "rollups") {
  const prev = previousPeriod(r);
  return {
    ...r,
    timeZone: site.timeZone,
    steps: await funnelSteps(db, site, r, source),
    compare: { ...prev, steps: await funnelSteps(db, site, prev, source) },
  };
}

// ─── Traffic ─────────────────────────────────────────────────────────────────────────────────────

const TRAFFIC_DIMENSIONS = [
  "source",
  "domain",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "page",
  "entry",
  "device",
];

export async function trafficReport(db: Db, site: Site, r: Range, source: Source = "rollups") {
  const prev = previousPeriod(r);
  const sums = await trafficSums(db, site, r, source, TRAFFIC_DIMENSIONS);
  const totals = await totalsDays(db, site, r, source);
  const before = await totalsDays(db, site, prev, source);
  const top = (dimension: string, n = TOP) =>
    sums
      .filter((s) => s.dimension === dimension)
      .sort((a, b) => b.visits - a.visits || b.pageViews - a.pageViews || a.key.localeCompare(b.key))
      .slice(0, n)
      .map((s) => ({ key: s.key, visits: s.visits, visitors: s.visitors }));
  const pages = sums
    .filter((s) => s.dimension === "page")
    .sort((a, b) => b.pageViews - a.pageViews || a.key.localeCompare(b.key))
    .slice(0, TOP)
    .map((s) => ({ path: s.key, pageViews: s.pageViews, visits: s.visits }));
  // Visitors of a range: each counted once however many of its days they came.
  const total = (list: TotalsDay[], visitors: number) => ({
    visits: list.reduce((s, d) => s + d.visits, 0),
    visitors,
    pageViews: list.reduce((s, d) => s + d.pageViews, 0),
  });
  const byDay = new Map(totals.map((d) => [d.day, d]));
  const series: { day: string; visits: number; visitors: number; pageViews: number }[] = [];
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) {
    const t = byDay.get(d);
    series.push({ day: d, visits: t?.visits ?? 0, visitors: t?.visitors ?? 0, pageViews: t?.pageViews ?? 0 });
  }
  return {
    ...r,
    timeZone: site.timeZone,
    totals: total(totals, await rangeVisitors(db, site, r, source)),
    series,
    sources: top("source"),
    domains: top("domain"),
    utmSources: top("utm_source"),
    utmMediums: top("utm_medium"),
    utmCampaigns: top("utm_campaign"),
    pages,
    entryPages: top("entry").map((e) => ({ path: e.key, visits: e.visits, visitors: e.visitors })),
    devices: top("device"),
    compare: { ...prev, totals: total(before, await rangeVisitors(db, site, prev, source)) },
  };
}
