/**
 * Daily analytics rollups (docs/analytics.md). Raw rows (census hits, orders and their lines) are
 * summed per site and local day, in the site's time zone, into the `analytics_daily_*` tables the
 * reports read. A day is marked dirty when a hit or an order of that day arrives or changes (a
 * refund rebuilds the day the order was placed); the job queue rebuilds dirty days. The same
 * builders, run over a range, answer a report from the raw rows (the benchmark's baseline and the
 * tests' cross-check).
 */
import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiledSql } from "../../db/compiled.js";
import { rowsOf } from "../../db/rows.js";
import {
  analyticsDailyProducts,
  analyticsDailySales,
  analyticsDailyTotals,
  analyticsDailyTraffic,
  analyticsDailyTrafficVisitorCounts,
  analyticsDailyTrafficVisitors,
  analyticsDailyVisitors,
  analyticsRollupDays,
  analyticsSpanTraffic,
  websites,
} from "../../db/schema.js";
import { RecordType } from "../../db/enums.js";
import { registerEventConsumer } from "../events/service.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import { classifyVisit } from "./sources.js";

export type SalesDay = Omit<typeof analyticsDailySales.$inferSelect, "websiteId">;
export type ProductDay = Omit<typeof analyticsDailyProducts.$inferSelect, "websiteId">;
export type TrafficDay = Omit<typeof analyticsDailyTraffic.$inferSelect, "websiteId">;
export type TrafficVisitor = Omit<typeof analyticsDailyTrafficVisitors.$inferSelect, "websiteId" | "prev">;
export type TotalsDay = Omit<typeof analyticsDailyTotals.$inferSelect, "websiteId">;

/** The census events of the purchase funnel, as the census island sends them. */
export const FUNNEL_EVENTS = { addToCart: "add-to-cart", checkoutStarted: "checkout-start" } as const;

/** The instants a range of local days covers: [from 00:00, the day after `to` 00:00) in `tz`. */
function bounds(column: unknown, tz: string, from: string, to: string) {
  return sql`${column} >= (${from}::date)::timestamp at time zone ${tz} and ${column} < ((${to}::date + 1)::timestamp at time zone ${tz})`;
}

const dayOf = (column: unknown, tz: unknown) =>
  sql<string>`to_char(${column} at time zone ${tz}, 'YYYY-MM-DD')`;

type Exec = Db | Tx;

async function rows<T>(db: Exec, query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db.execute(query));
}

/** Sales per local day from the orders: every placed order (not pending), refunds on its own day. */
export async function buildSales(db: Exec, websiteId: string, tz: string, from: string, to: string) {
  const day = dayOf(sql`o.created_at`, tz);
  const list = await rows<Record<string, string | number>>(
    db,
    sql`select ${day} as day, count(*)::int as orders, coalesce(sum(l.units), 0)::int as units,
      sum(o.subtotal_cents)::bigint as gross, sum(o.discount_cents)::bigint as discount,
      sum(o.refunded_cents)::bigint as refunded, (count(*) filter (where o.refunded_cents > 0))::int as refunded_orders,
      sum(o.shipping_cents)::bigint as shipping, sum(o.tax_cents)::bigint as tax
    from orders o
    left join lateral (select sum(quantity) as units from order_lines where order_id = o.id) l on true
    where o.website_id = ${websiteId} and o.status <> 'pending' and ${bounds(sql`o.created_at`, tz, from, to)}
    group by 1 order by 1`,
  );
  return list.map(
    (r): SalesDay => ({
      day: String(r.day),
      orders: Number(r.orders),
      units: Number(r.units),
      grossCents: Number(r.gross),
      discountCents: Number(r.discount),
      refundedCents: Number(r.refunded),
      refundedOrders: Number(r.refunded_orders),
      shippingCents: Number(r.shipping),
      taxCents: Number(r.tax),
    }),
  );
}

/** A visit: the visitor's id and the start of the visit, both from the visitor-record cookie. */
const VISIT = sql`case when h.visitor_cookie is not null then split_part(h.visitor_cookie, '|', 1) || '|' || split_part(h.visitor_cookie, '|', 4) end`;
const VISITOR = sql`split_part(h.visitor_cookie, '|', 1)`;
/** The visitor id as a 64-bit hash (the first 16 hex digits of its MD5), as `analytics_daily_visitors` keeps it. */
const VISITOR_HASH = sql`('x' || left(md5(${VISITOR}), 16))::bit(64)::bigint`;
const PRODUCT_VIEW = sql`(h.event = 'view' and h.item_id is not null and h.data->>'recordType' = ${String(RecordType.STORE_ITEM)})`;

/** Per product and variant and local day: views and adds to cart (variant ""), orders, units and revenue. */
export async function buildProducts(db: Exec, websiteId: string, tz: string, from: string, to: string) {
  const sold = await rows<Record<string, string | number>>(
    db,
    sql`select ${dayOf(sql`o.created_at`, tz)} as day, l.item_id, coalesce(l.variant_id, '') as variant_id,
      max(l.product_name) as name, count(distinct o.id)::int as orders, sum(l.quantity)::int as units,
      sum(l.unit_price_cents::bigint * l.quantity)::bigint as revenue
    from orders o join order_lines l on l.order_id = o.id
    where o.website_id = ${websiteId} and o.status <> 'pending' and ${bounds(sql`o.created_at`, tz, from, to)}
    group by 1, 2, 3`,
  );
  const seen = await rows<Record<string, string | number>>(
    db,
    sql`select ${dayOf(sql`h.created_at`, tz)} as day, h.item_id, coalesce(max(c.title), '') as name,
      (count(*) filter (where ${PRODUCT_VIEW}))::int as views,
      (count(*) filter (where h.event = ${FUNNEL_EVENTS.addToCart}))::int as adds
    from analytics_hits h left join content_items c on c.id = h.item_id and c.website_id = h.website_id
    where h.website_id = ${websiteId} and h.item_id is not null and ${bounds(sql`h.created_at`, tz, from, to)}
      and (${PRODUCT_VIEW} or h.event = ${FUNNEL_EVENTS.addToCart})
    group by 1, 2`,
  );
  const out = new Map<string, ProductDay>();
  const row = (day: string, itemId: string, variantId: string, name: string) => {
    const key = `${day}\u0000${itemId}\u0000${variantId}`;
    let r = out.get(key);
    if (!r) {
      r = { day, itemId, variantId, name, views: 0, adds: 0, orders: 0, units: 0, revenueCents: 0 };
      out.set(key, r);
    }
    if (!r.name && name) r.name = name;
    return r;
  };
  for (const s of sold) {
    const r = row(String(s.day), String(s.item_id), String(s.variant_id), String(s.name));
    r.orders += Number(s.orders);
    r.units += Number(s.units);
    r.revenueCents += Number(s.revenue);
  }
  for (const s of seen) {
    const r = row(String(s.day), String(s.item_id), "", String(s.name));
    r.views += Number(s.views);
    r.adds += Number(s.adds);
  }
  return [...out.values()];
}

const hitsIn = (websiteId: string, tz: string, from: string, to: string) =>
  sql`h.website_id = ${websiteId} and ${bounds(sql`h.created_at`, tz, from, to)}`;

/**
 * Per local day: page views, visits, visitors (distinct that day), and the funnel: visits that
 * viewed a product, added to the cart, started checkout.
 */
export async function buildTotals(db: Exec, websiteId: string, tz: string, from: string, to: string) {
  const day = dayOf(sql`h.created_at`, tz);
  const totals = await rows<Record<string, string | number>>(
    db,
    sql`select ${day} as day, (count(*) filter (where h.event = 'view'))::int as page_views,
      count(distinct ${VISIT})::int as visits, count(distinct ${VISITOR})::int as visitors,
      count(distinct ${VISIT}) filter (where ${PRODUCT_VIEW})::int as product_views,
      count(distinct ${VISIT}) filter (where h.event = ${FUNNEL_EVENTS.addToCart})::int as adds,
      count(distinct ${VISIT}) filter (where h.event = ${FUNNEL_EVENTS.checkoutStarted})::int as checkouts
    from analytics_hits h where ${hitsIn(websiteId, tz, from, to)} group by 1 order by 1`,
  );
  return totals.map(
    (t): TotalsDay => ({
      day: String(t.day),
      pageViews: Number(t.page_views),
      visits: Number(t.visits),
      visitors: Number(t.visitors),
      productViews: Number(t.product_views),
      adds: Number(t.adds),
      checkouts: Number(t.checkouts),
    }),
  );
}

/** Distinct visitors over a range of local days, counted once however many days they came. */
export async function countVisitors(db: Exec, websiteId: string, tz: string, from: string, to: string) {
  const [r] = await rows<{ n: number }>(
    db,
    sql`select count(distinct ${VISITOR_HASH})::int as n from analytics_hits h
    where ${hitsIn(websiteId, tz, from, to)} and h.visitor_cookie is not null`,
  );
  return Number(r?.n ?? 0);
}

/**
 * Traffic per local day by dimension and key: pages, and per visit (counted on the day of its
 * first page view) its source, referring domain, UTM tags, entry page and device; with the
 * visitors of each visit dimension and key that day (`visitors`: one row each, the visitor id's
 * 64-bit hash as `analytics_daily_visitors` keeps it), so a range counts each visitor once.
 */
export async function buildTraffic(
  db: Exec,
  websiteId: string,
  tz: string,
  from: string,
  to: string,
): Promise<{ days: TrafficDay[]; visitors: TrafficVisitor[] }> {
  const day = dayOf(sql`h.created_at`, tz);
  const where = hitsIn(websiteId, tz, from, to);
  const out: TrafficDay[] = [];
  const pages = await rows<Record<string, string | number>>(
    db,
    sql`select ${day} as day, coalesce(h.page_path, '') as path, count(*)::int as page_views,
      count(distinct ${VISIT})::int as visits
    from analytics_hits h where ${where} and h.event = 'view' group by 1, 2`,
  );
  for (const p of pages) {
    out.push({
      day: String(p.day),
      dimension: "page",
      key: String(p.path),
      visits: Number(p.visits),
      pageViews: Number(p.page_views),
    });
  }
  const firsts = await rows<Record<string, string | null>>(
    db,
    sql`select distinct on (1, 2) ${day} as day, ${VISIT} as visit, ${VISITOR_HASH}::text as visitor,
      h.page_path, h.referrer, h.url, h.user_agent
    from analytics_hits h where ${where} and h.event = 'view' and h.visitor_cookie is not null
    order by 1, 2, h.id`,
  );
  const dims = new Map<string, TrafficDay>();
  const visitors = new Map<string, TrafficVisitor>();
  for (const f of firsts) {
    const visit = classifyVisit({ url: f.url, referrer: f.referrer, userAgent: f.user_agent });
    const keys: [string, string | undefined][] = [
      ["source", visit.source],
      ["domain", visit.domain],
      ["utm_source", visit.utmSource],
      ["utm_medium", visit.utmMedium],
      ["utm_campaign", visit.utmCampaign],
      ["entry", f.page_path ?? ""],
      ["device", visit.device],
    ];
    for (const [dimension, key] of keys) {
      if (key === undefined) continue;
      const id = `${f.day}\u0000${dimension}\u0000${key}`;
      let d = dims.get(id);
      if (!d) {
        d = { day: String(f.day), dimension, key, visits: 0, pageViews: 0 };
        dims.set(id, d);
      }
      d.visits++;
      const visitor = String(f.visitor);
      visitors.set(`${id}\u0000${visitor}`, { day: d.day, dimension, key, visitor: BigInt(visitor) });
    }
  }
  out.push(...dims.values());
  return { days: out, visitors: [...visitors.values()] };
}

/** The site's time zone. */
export async function siteTimeZone(db: Exec, websiteId: string): Promise<string> {
  const [site] = await db
    .select({ timeZone: websites.timeZone })
    .from(websites)
    .where(eq(websites.id, websiteId));
  return site?.timeZone ?? "UTC";
}

/** Every table of daily rollups (all keyed by site and local day). */
const ROLLUP_TABLES = [
  analyticsDailySales,
  analyticsDailyProducts,
  analyticsDailyTotals,
  analyticsDailyVisitors,
  analyticsDailyTraffic,
] as const;

/** How far back a visitor's earlier day with a key is looked for: a range covers at most 731 days. */
const PREV_WINDOW = 730;

/** `prev` of a visitor's row with a key on a day: the visitor's last earlier day with the key. */
const prevOf = (websiteId: unknown, dimension: unknown, key: unknown, visitor: unknown, day: unknown) =>
  sql`coalesce((select max(p.day) from analytics_daily_traffic_visitors p
    where p.website_id = ${websiteId} and p.dimension = ${dimension} and p.key = ${key}
      and p.visitor = ${visitor} and p.day < ${day} and p.day >= ${day} - ${PREV_WINDOW}::int),
    ${day} - ${PREV_WINDOW + 1}::int)`;
const PREV_OF_ROW = prevOf(sql`n.website_id`, sql`n.dimension`, sql`n.key`, sql`n.visitor`, sql`n.day`);

/**
 * Replaces a day's rows of `analytics_daily_traffic_visitors`, sets their `prev`, and the `prev`
 * of the next later row of every visitor and key the day had or has (it may have pointed at this
 * day, or now should); then recounts `analytics_daily_traffic_visitor_counts` of every day touched.
 */
async function replaceTrafficVisitors(tx: Tx, websiteId: string, day: string, visitors: TrafficVisitor[]) {
  const t = analyticsDailyTrafficVisitors;
  const old = await tx
    .delete(t)
    .where(and(eq(t.websiteId, websiteId), eq(t.day, day)))
    .returning({ dimension: t.dimension, key: t.key, visitor: t.visitor });
  const json = (list: { dimension: string; key: string; visitor: bigint }[]) =>
    JSON.stringify(list.map((v) => ({ d: v.dimension, k: v.key, v: String(v.visitor) })));
  for (let i = 0; i < visitors.length; i += 5000) {
    await tx.execute(sql`insert into analytics_daily_traffic_visitors
        (website_id, day, dimension, key, visitor, prev)
      select ${websiteId}, ${day}::date, x.d, x.k, x.v::bigint,
        ${prevOf(websiteId, sql`x.d`, sql`x.k`, sql`x.v::bigint`, sql`${day}::date`)}
      from jsonb_to_recordset(${json(visitors.slice(i, i + 5000))}::jsonb) as x(d text, k text, v text)`);
  }
  const touched = new Set([day]);
  const keys = [...old, ...visitors];
  for (let i = 0; i < keys.length; i += 5000) {
    const next = await rows<{ day: string }>(
      tx,
      sql`with keys as (
        select distinct d as dimension, k as key, v::bigint as visitor
        from jsonb_to_recordset(${json(keys.slice(i, i + 5000))}::jsonb) as x(d text, k text, v text)
      ), nexts as (
        select keys.*, (select min(m.day) from analytics_daily_traffic_visitors m
          where m.website_id = ${websiteId} and m.dimension = keys.dimension and m.key = keys.key
            and m.visitor = keys.visitor and m.day > ${day}::date
            and m.day <= ${day}::date + ${PREV_WINDOW}::int) as day
        from keys
      )
      update analytics_daily_traffic_visitors n set prev = ${PREV_OF_ROW}
      from nexts where nexts.day is not null and n.website_id = ${websiteId}
        and n.dimension = nexts.dimension and n.key = nexts.key and n.visitor = nexts.visitor
        and n.day = nexts.day
      returning to_char(n.day, 'YYYY-MM-DD') as day`,
    );
    for (const r of next) touched.add(String(r.day));
  }
  const days = sql.join(
    [...touched].map((d) => sql`${d}::date`),
    sql`, `,
  );
  await tx.execute(sql`delete from analytics_daily_traffic_visitor_counts
    where website_id = ${websiteId} and day in (${days})`);
  await tx.execute(sql`insert into analytics_daily_traffic_visitor_counts
      (website_id, day, dimension, key, prev, visitors)
    select website_id, day, dimension, key, prev, count(*) from analytics_daily_traffic_visitors
    where website_id = ${websiteId} and day in (${days})
    group by website_id, day, dimension, key, prev`);
}

/**
 * Rebuilds one local day's rollups from the raw rows, and the week and month sums of its traffic
 * (one transaction; one builder at a time per site, so the sums always see every day's last build).
 */
export async function rebuildDay(db: Db, websiteId: string, day: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`analytics:${websiteId}`}))`);
    const tz = await siteTimeZone(tx, websiteId);
    const [sales, products, totals, traffic] = [
      await buildSales(tx, websiteId, tz, day, day),
      await buildProducts(tx, websiteId, tz, day, day),
      await buildTotals(tx, websiteId, tz, day, day),
      await buildTraffic(tx, websiteId, tz, day, day),
    ];
    for (const table of ROLLUP_TABLES) {
      await tx.delete(table).where(and(eq(table.websiteId, websiteId), eq(table.day, day)));
    }
    if (sales.length) await tx.insert(analyticsDailySales).values(sales.map((r) => ({ ...r, websiteId })));
    if (totals.length) await tx.insert(analyticsDailyTotals).values(totals.map((r) => ({ ...r, websiteId })));
    await tx.execute(
      sql`insert into analytics_daily_visitors (website_id, day, visitor)
      select distinct ${websiteId}, ${day}::date, ${VISITOR_HASH} from analytics_hits h
      where ${hitsIn(websiteId, tz, day, day)} and h.visitor_cookie is not null`,
    );
    for (let i = 0; i < products.length; i += 1000) {
      await tx
        .insert(analyticsDailyProducts)
        .values(products.slice(i, i + 1000).map((r) => ({ ...r, websiteId })));
    }
    for (let i = 0; i < traffic.days.length; i += 1000) {
      await tx
        .insert(analyticsDailyTraffic)
        .values(traffic.days.slice(i, i + 1000).map((r) => ({ ...r, websiteId })));
    }
    await replaceTrafficVisitors(tx, websiteId, day, traffic.visitors);
    for (const span of ["week", "month"]) {
      const start = sql`date_trunc(${span}, ${day}::date)::date`;
      await tx
        .delete(analyticsSpanTraffic)
        .where(
          and(
            eq(analyticsSpanTraffic.websiteId, websiteId),
            eq(analyticsSpanTraffic.span, span),
            sql`${analyticsSpanTraffic.start} = ${start}`,
          ),
        );
      await tx.execute(sql`insert into analytics_span_traffic
        (website_id, span, start, dimension, key, visits, page_views)
      select website_id, ${span}, ${start}, dimension, key, sum(visits), sum(page_views)
      from analytics_daily_traffic
      where website_id = ${websiteId} and day >= ${start} and day < (${start} + ${`1 ${span}`}::interval)::date
      group by website_id, dimension, key`);
    }
    await tx
      .insert(analyticsRollupDays)
      .values({ websiteId, day, dirty: false, builtAt: new Date() })
      .onConflictDoUpdate({
        target: [analyticsRollupDays.websiteId, analyticsRollupDays.day],
        set: { builtAt: new Date() },
      });
  });
}

const ROLLUP_JOB = "analytics.rollup-day";
const BACKFILL_JOB = "analytics.backfill";

/**
 * Marks a local day to be rebuilt: the first mark since the last rebuild queues the job (later
 * marks find the day dirty already and the queued job will see their rows).
 */
export async function markDayDirty(db: Exec, websiteId: string, day: string): Promise<void> {
  const flipped = await db
    .insert(analyticsRollupDays)
    .values({ websiteId, day, dirty: true })
    .onConflictDoUpdate({
      target: [analyticsRollupDays.websiteId, analyticsRollupDays.day],
      set: { dirty: true },
      setWhere: eq(analyticsRollupDays.dirty, false),
    })
    .returning({ day: analyticsRollupDays.day });
  if (flipped.length) await enqueueJob(db, ROLLUP_JOB, { websiteId, day });
}

/**
 * markDayDirty for the local day an order was placed on (in its site's time zone), in one
 * statement: the order's day is marked, and the rebuild queued when the mark flipped it dirty.
 */
export async function markOrderDayDirty(db: Exec, websiteId: string, orderId: string): Promise<void> {
  await markOrderDay(db, { websiteId, orderId });
}

const markOrderDay = compiledSql("analytics_mark_order_day_dirty", () => {
  const day = dayOf(sql`o.created_at`, sql`coalesce(w.time_zone, 'UTC')`);
  return sql`with flipped as (
      insert into analytics_rollup_days (website_id, day, dirty)
      select o.website_id, ${day}::date, true
      from orders o left join websites w on w.id = o.website_id
      where o.id = ${sql.placeholder("orderId")} and o.website_id = ${sql.placeholder("websiteId")}
      on conflict (website_id, day) do update set dirty = true where analytics_rollup_days.dirty = false
      returning website_id, day
    )
    insert into jobs (kind, payload, run_at)
    select ${ROLLUP_JOB}, jsonb_build_object('websiteId', website_id, 'day', to_char(day, 'YYYY-MM-DD')),
      date_trunc('milliseconds', now())
    from flipped`;
});

/** After a hit: marks its day dirty unless it already is (a read, no write, on a busy day). */
export async function noteHit(db: Db, websiteId: string, day: string): Promise<void> {
  const [state] = await db
    .select({ dirty: analyticsRollupDays.dirty })
    .from(analyticsRollupDays)
    .where(and(eq(analyticsRollupDays.websiteId, websiteId), eq(analyticsRollupDays.day, day)));
  if (!state?.dirty) await markDayDirty(db, websiteId, day);
}

/** Queues the first build of every day with hits or orders (for a site whose rows predate the rollups). */
export async function queueBackfill(db: Exec, websiteId: string): Promise<void> {
  await enqueueJob(db, BACKFILL_JOB, { websiteId });
}

registerJobHandler(ROLLUP_JOB, async (deps, payload) => {
  const websiteId = String(payload.websiteId);
  const day = String(payload.day);
  // Cleared (and committed) before the rebuild reads: a hit after this marks the day again.
  await deps.db
    .update(analyticsRollupDays)
    .set({ dirty: false })
    .where(and(eq(analyticsRollupDays.websiteId, websiteId), eq(analyticsRollupDays.day, day)));
  await rebuildDay(deps.db, websiteId, day);
});

/**
 * Queues a rebuild of all the site's rollups: after its time zone changes, every local day's
 * rows are wrong. The job drops them and queues the build of every day in the new time zone.
 */
export async function queueRollupRebuild(db: Exec, websiteId: string): Promise<void> {
  await enqueueJob(db, BACKFILL_JOB, { websiteId, rebuild: true });
}

registerJobHandler(BACKFILL_JOB, async (deps, payload) => {
  const websiteId = String(payload.websiteId);
  await deps.db.transaction(async (tx) => {
    if (payload.rebuild) {
      for (const table of [
        ...ROLLUP_TABLES,
        analyticsDailyTrafficVisitors,
        analyticsDailyTrafficVisitorCounts,
        analyticsSpanTraffic,
        analyticsRollupDays,
      ]) {
        await tx.delete(table).where(eq(table.websiteId, websiteId));
      }
    }
    const tz = await siteTimeZone(tx, websiteId);
    const days = await rows<{ day: string }>(
      tx,
      sql`select distinct ${dayOf(sql`created_at`, tz)} as day from analytics_hits where website_id = ${websiteId}
      union select distinct ${dayOf(sql`created_at`, tz)} from orders where website_id = ${websiteId} and status <> 'pending'`,
    );
    for (const { day } of days) await markDayDirty(tx, websiteId, day);
  });
});

// Purchases are counted on the server when the order is paid; a refund or cancellation rebuilds
// the day the order was placed.
registerEventConsumer("analytics-rollups", {
  types: ["order.created", "order.updated"],
  async handle(deps, event) {
    if (!event.websiteId || !event.entityId) return;
    await markOrderDayDirty(deps.db, event.websiteId, event.entityId);
  },
});
