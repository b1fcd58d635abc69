/**
 * Analytics (loaded on its own, with its charting library): sales, products, the purchase funnel
 * and traffic over a range of the site's local dates, each compared with the previous period.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { NavLink, useParams } from "react-router";
import { formatCents, get, withQuery } from "../../api.js";
import { ErrorNotice, Loading, PageHead, useSiteId } from "../../components/ui.js";
import { type ChartData, ChartCard, DataTable } from "./Chart.js";
import type { Funnel, Products, Sales, Traffic } from "./types.js";

const TABS = [
  ["sales", "Sales"],
  ["products", "Products"],
  ["funnel", "Purchase funnel"],
  ["traffic", "Traffic"],
] as const;
type Tab = (typeof TABS)[number][0];

const PRESETS = [
  ["7", "Last 7 days"],
  ["30", "Last 30 days"],
  ["90", "Last 90 days"],
  ["365", "Last 12 months"],
  ["custom", "Custom range"],
] as const;

const addDays = (d: string, n: number) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const whole = (n: number) => n.toLocaleString("en-US");
const percent = (n: number) => `${(n * 100).toFixed(1)}%`;

/** The change from the previous period, in words for everyone. */
function Change({ now, before, money }: { now: number; before: number; money?: string }) {
  if (before === 0) return <span className="muted small">{now === 0 ? "no change" : "new this period"}</span>;
  const change = (now - before) / Math.abs(before);
  const shown = money ? formatCents(before, money) : whole(before);
  return (
    <span className={`small ${change >= 0 ? "up" : "down"}`}>
      {change >= 0 ? "▲" : "▼"} {percent(Math.abs(change))} <span className="muted">(was {shown})</span>
    </span>
  );
}

function Figure({ label, value, change }: { label: string; value: string; change: React.ReactNode }) {
  return (
    <div className="analytics-figure">
      <span className="muted small">{label}</span>
      <strong>{value}</strong>
      {change}
    </div>
  );
}

interface Range {
  preset: string;
  from: string;
  to: string;
}

function useReport<T>(kind: Tab, range: Range, extra: Record<string, string> = {}) {
  const siteId = useSiteId();
  const params = range.preset === "30" && !range.from ? {} : { from: range.from, to: range.to };
  return useQuery({
    queryKey: ["analytics", siteId, kind, params, extra],
    queryFn: () => get<T>(withQuery(`/api/owner/sites/${siteId}/analytics/${kind}`, { ...params, ...extra })),
  });
}

function RangePicker({
  range,
  today,
  onChange,
}: {
  range: Range;
  today: string;
  onChange: (r: Range) => void;
}) {
  return (
    <div className="analytics-range">
      <label>
        Period
        <select
          value={range.preset}
          onChange={(e) => {
            const preset = e.target.value;
            if (preset === "custom") onChange({ ...range, preset });
            else onChange({ preset, from: addDays(today, 1 - Number(preset)), to: today });
          }}
        >
          {PRESETS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {range.preset === "custom" ? (
        <>
          <label>
            From
            <input
              type="date"
              value={range.from}
              max={range.to}
              onChange={(e) => e.target.value && onChange({ ...range, from: e.target.value })}
            />
          </label>
          <label>
            To
            <input
              type="date"
              value={range.to}
              min={range.from}
              onChange={(e) => e.target.value && onChange({ ...range, to: e.target.value })}
            />
          </label>
        </>
      ) : null}
    </div>
  );
}

function SalesTab({ range }: { range: Range }) {
  const [interval, setInterval] = useState("day");
  const q = useReport<Sales>("sales", range, { interval });
  if (!q.data) return q.error ? <ErrorNotice error={q.error} /> : <Loading />;
  const s = q.data;
  const money = (n: number) => formatCents(n, s.currency);
  const chart: ChartData = {
    rowLabel: interval === "day" ? "Day" : interval === "week" ? "Week from" : "Month from",
    rows: s.series.map((p) => p.period),
    columns: [
      { label: "Revenue", values: s.series.map((p) => p.revenueCents), format: money },
      { label: "Orders", values: s.series.map((p) => p.orders), format: whole },
    ],
  };
  const detail: ChartData = {
    rowLabel: "Figure",
    rows: ["Gross sales", "Discounts", "Refunds", "Revenue", "Shipping", "Tax"],
    columns: [
      {
        label: "This period",
        values: [
          s.totals.grossCents,
          s.totals.discountCents,
          s.totals.refundedCents,
          s.totals.revenueCents,
          s.totals.shippingCents,
          s.totals.taxCents,
        ],
        format: money,
      },
    ],
  };
  const c = s.compare.totals;
  return (
    <>
      <div className="analytics-figures">
        <Figure
          label="Revenue"
          value={money(s.totals.revenueCents)}
          change={<Change now={s.totals.revenueCents} before={c.revenueCents} money={s.currency} />}
        />
        <Figure
          label="Orders"
          value={whole(s.totals.orders)}
          change={<Change now={s.totals.orders} before={c.orders} />}
        />
        <Figure
          label="Average order"
          value={money(s.totals.averageOrderCents)}
          change={<Change now={s.totals.averageOrderCents} before={c.averageOrderCents} money={s.currency} />}
        />
        <Figure
          label="Units sold"
          value={whole(s.totals.units)}
          change={<Change now={s.totals.units} before={c.units} />}
        />
        <Figure
          label="Refunds"
          value={money(s.totals.refundedCents)}
          change={<Change now={s.totals.refundedCents} before={c.refundedCents} money={s.currency} />}
        />
      </div>
      <label className="analytics-interval">
        By
        <select value={interval} onChange={(e) => setInterval(e.target.value)}>
          <option value="day">Day</option>
          <option value="week">Week</option>
          <option value="month">Month</option>
        </select>
      </label>
      <ChartCard
        title="Revenue and orders"
        data={chart}
        kind="lines"
        csvName={`sales-${s.from}-${s.to}.csv`}
      />
      <section className="card" aria-labelledby="sales-detail">
        <h2 id="sales-detail">Revenue in detail</h2>
        <p className="muted small">
          Revenue is gross sales less discounts and refunds; shipping and tax are apart. Units:{" "}
          {whole(s.totals.units)}, refunded orders: {whole(s.totals.refundedOrders)}.
        </p>
        <DataTable data={detail} caption="Revenue in detail" />
      </section>
    </>
  );
}

function ProductsTab({ range }: { range: Range }) {
  const q = useReport<Products>("products", range);
  if (!q.data) return q.error ? <ErrorNotice error={q.error} /> : <Loading />;
  const p = q.data;
  const money = (n: number) => formatCents(n, p.currency);
  const top = p.products.slice(0, 10);
  const chart: ChartData = {
    rowLabel: "Product",
    rows: top.map((x) => x.name),
    columns: [
      { label: "Revenue", values: top.map((x) => x.revenueCents), format: money },
      { label: "Units", values: top.map((x) => x.units), format: whole },
    ],
  };
  const funnel: ChartData = {
    rowLabel: "Product",
    rows: p.products.map((x) => x.name),
    columns: [
      { label: "Views", values: p.products.map((x) => x.views), format: whole },
      { label: "Added to cart", values: p.products.map((x) => x.adds), format: whole },
      { label: "Orders", values: p.products.map((x) => x.orders), format: whole },
      { label: "Units", values: p.products.map((x) => x.units), format: whole },
      { label: "Revenue", values: p.products.map((x) => x.revenueCents), format: money },
    ],
  };
  const variants: ChartData = {
    rowLabel: "Variant",
    rows: p.variants.map((v) => `${v.name} (${v.variantId || "no variant"})`),
    columns: [
      { label: "Units", values: p.variants.map((v) => v.units), format: whole },
      { label: "Revenue", values: p.variants.map((v) => v.revenueCents), format: money },
    ],
  };
  return (
    <>
      <div className="analytics-figures">
        <Figure
          label="Product revenue"
          value={money(p.totals.revenueCents)}
          change={
            <Change now={p.totals.revenueCents} before={p.compare.totals.revenueCents} money={p.currency} />
          }
        />
        <Figure
          label="Units sold"
          value={whole(p.totals.units)}
          change={<Change now={p.totals.units} before={p.compare.totals.units} />}
        />
      </div>
      <ChartCard
        title="Top products by revenue"
        data={chart}
        kind="list"
        csvName={`top-products-${p.from}-${p.to}.csv`}
      />
      <section className="card" aria-labelledby="product-funnel">
        <h2 id="product-funnel">Views, carts and sales per product</h2>
        <DataTable data={funnel} caption="Views, carts and sales per product" />
      </section>
      <section className="card" aria-labelledby="top-variants">
        <h2 id="top-variants">Top variants</h2>
        <DataTable data={variants} caption="Top variants" />
      </section>
    </>
  );
}

function FunnelTab({ range }: { range: Range }) {
  const q = useReport<Funnel>("funnel", range);
  if (!q.data) return q.error ? <ErrorNotice error={q.error} /> : <Loading />;
  const f = q.data;
  const chart: ChartData = {
    rowLabel: "Step",
    rows: f.steps.map((s) => s.label),
    columns: [
      { label: "Visits", values: f.steps.map((s) => s.count), format: whole },
      { label: "From the step before", values: f.steps.map((s) => s.fromPrevious), format: percent },
      { label: "From all visits", values: f.steps.map((s) => s.fromFirst), format: percent },
      { label: "Previous period", values: f.compare.steps.map((s) => s.count), format: whole },
    ],
  };
  const last = f.steps[f.steps.length - 1];
  return (
    <>
      <div className="analytics-figures">
        <Figure
          label="Visits"
          value={whole(f.steps[0]?.count ?? 0)}
          change={<Change now={f.steps[0]?.count ?? 0} before={f.compare.steps[0]?.count ?? 0} />}
        />
        <Figure
          label="Conversion"
          value={percent(last?.fromFirst ?? 0)}
          change={<span className="muted small">was {percent(f.compare.steps.at(-1)?.fromFirst ?? 0)}</span>}
        />
      </div>
      <ChartCard
        title="Purchase funnel"
        data={chart}
        kind="list"
        csvName={`funnel-${f.from}-${f.to}.csv`}
        summary={
          <p className="muted small">
            Each step counts the visits that reached it. Purchases are counted when the order is paid, at most
            one a visit that started checkout.
          </p>
        }
      />
    </>
  );
}

function TrafficTab({ range }: { range: Range }) {
  const q = useReport<Traffic>("traffic", range);
  if (!q.data) return q.error ? <ErrorNotice error={q.error} /> : <Loading />;
  const t = q.data;
  const chart: ChartData = {
    rowLabel: "Day",
    rows: t.series.map((d) => d.day),
    columns: [
      { label: "Visits", values: t.series.map((d) => d.visits), format: whole },
      { label: "Page views", values: t.series.map((d) => d.pageViews), format: whole },
    ],
  };
  const keyed = (
    rowLabel: string,
    list: { key: string; visits: number }[],
    label = (k: string) => k,
  ): ChartData => ({
    rowLabel,
    rows: list.map((s) => label(s.key) || "(none)"),
    columns: [{ label: "Visits", values: list.map((s) => s.visits), format: whole }],
  });
  const SOURCE: Record<string, string> = {
    search: "Search engines",
    social: "Social networks",
    email: "Email",
    referral: "Other sites",
    direct: "Direct",
  };
  const c = t.compare.totals;
  const range2 = `${t.from}-${t.to}`;
  return (
    <>
      <div className="analytics-figures">
        <Figure
          label="Visits"
          value={whole(t.totals.visits)}
          change={<Change now={t.totals.visits} before={c.visits} />}
        />
        <Figure
          label="Visitors"
          value={whole(t.totals.visitors)}
          change={<Change now={t.totals.visitors} before={c.visitors} />}
        />
        <Figure
          label="Page views"
          value={whole(t.totals.pageViews)}
          change={<Change now={t.totals.pageViews} before={c.pageViews} />}
        />
      </div>
      <ChartCard title="Visits and page views" data={chart} kind="lines" csvName={`traffic-${range2}.csv`} />
      <div className="card-grid">
        <ChartCard
          title="Sources"
          data={keyed("Source", t.sources, (k) => SOURCE[k] ?? k)}
          kind="list"
          csvName={`sources-${range2}.csv`}
        />
        <ChartCard
          title="Referring sites"
          data={keyed("Site", t.domains)}
          kind="list"
          csvName={`referring-sites-${range2}.csv`}
        />
        <ChartCard
          title="Devices"
          data={keyed("Device", t.devices)}
          kind="list"
          csvName={`devices-${range2}.csv`}
        />
        <ChartCard
          title="UTM campaigns"
          data={keyed("Campaign", t.utmCampaigns)}
          kind="list"
          csvName={`utm-campaigns-${range2}.csv`}
        />
        <ChartCard
          title="UTM sources"
          data={keyed("UTM source", t.utmSources)}
          kind="list"
          csvName={`utm-sources-${range2}.csv`}
        />
        <ChartCard
          title="UTM mediums"
          data={keyed("UTM medium", t.utmMediums)}
          kind="list"
          csvName={`utm-mediums-${range2}.csv`}
        />
      </div>
      <div className="card-grid">
        <ChartCard
          title="Top pages"
          data={{
            rowLabel: "Page",
            rows: t.pages.map((p) => p.path || "(unknown)"),
            columns: [{ label: "Page views", values: t.pages.map((p) => p.pageViews), format: whole }],
          }}
          kind="list"
          csvName={`top-pages-${range2}.csv`}
        />
        <ChartCard
          title="Entry pages"
          data={{
            rowLabel: "Page",
            rows: t.entryPages.map((p) => p.path || "(unknown)"),
            columns: [{ label: "Visits", values: t.entryPages.map((p) => p.visits), format: whole }],
          }}
          kind="list"
          csvName={`entry-pages-${range2}.csv`}
        />
      </div>
    </>
  );
}

export function Analytics() {
  const siteId = useSiteId();
  const { tab = "sales" } = useParams();
  const [range, setRange] = useState<Range>({ preset: "30", from: "", to: "" });
  // The site's today and time zone, from the default report (the last 30 days up to today).
  const base = useQuery({
    queryKey: ["analytics", siteId, "base"],
    queryFn: () => get<Sales>(`/api/owner/sites/${siteId}/analytics/sales`),
  });
  const current = (TABS.find(([id]) => id === tab)?.[0] ?? "sales") as Tab;
  return (
    <>
      <PageHead
        title="Analytics"
        sub={
          base.data
            ? `Dates in the site's time zone (${base.data.timeZone}), amounts in ${base.data.currency}, compared with the period before.`
            : "What sold, how visitors become buyers and where they came from."
        }
      />
      <nav className="tabs" aria-label="Analytics">
        {TABS.map(([id, label]) => (
          <NavLink
            key={id}
            to={`/sites/${siteId}/analytics${id === "sales" ? "" : `/${id}`}`}
            end
            className={() => (current === id ? "active" : "")}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      {base.error ? <ErrorNotice error={base.error} /> : null}
      {base.data ? (
        <>
          <RangePicker
            range={range.from ? range : { ...range, from: base.data.from, to: base.data.to }}
            today={base.data.to}
            onChange={setRange}
          />
          {current === "sales" ? (
            <SalesTab range={range} />
          ) : current === "products" ? (
            <ProductsTab range={range} />
          ) : current === "funnel" ? (
            <FunnelTab range={range} />
          ) : (
            <TrafficTab range={range} />
          )}
        </>
      ) : (
        <Loading />
      )}
    </>
  );
}
