import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatCents, get } from "../api.js";
import { formatDate } from "../components/ui.js";

interface Traffic {
  from: string;
  to: string;
  totals: { pageViews: number; visitors: number; visits: number };
  series: { day: string; pageViews: number; visits: number }[];
  pages: { path: string; pageViews: number }[];
}

interface SalesOverview {
  currency: string;
  totals: { revenueCents: number; orders: number };
  series: { period: string; revenueCents: number; orders: number }[];
}

interface FunnelOverview {
  steps: { key: string; count: number; fromFirst: number }[];
}

interface RecentOrder {
  id: string;
  orderNumber: number;
  email: string;
  currency: string;
  grandTotalCents: number;
  createdOn: number;
}

/** A small line of a series (no axes): the overview's glance, the Analytics screens have the charts. */
function Sparkline({ values, label }: { values: number[]; label: string }) {
  const most = Math.max(1, ...values);
  const step = values.length > 1 ? 100 / (values.length - 1) : 100;
  const points = values
    .map((v, i) => `${(i * step).toFixed(2)},${(34 - (v / most) * 32).toFixed(2)}`)
    .join(" ");
  return (
    <svg
      className="overview-spark"
      viewBox="0 0 100 36"
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <polyline points={points} vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** The business at a glance: revenue, orders, visits and conversion of the last 30 days. */
export function BusinessCard({ siteId }: { siteId: string }) {
  const base = `/api/owner/sites/${siteId}/analytics`;
  const sales = useQuery({
    queryKey: ["analytics", siteId, "overview-sales"],
    queryFn: () => get<SalesOverview>(`${base}/sales`),
  });
  const traffic = useQuery({ queryKey: ["traffic", siteId], queryFn: () => get<Traffic>(`${base}/traffic`) });
  const funnel = useQuery({
    queryKey: ["analytics", siteId, "overview-funnel"],
    queryFn: () => get<FunnelOverview>(`${base}/funnel`),
  });
  if (!sales.data || !traffic.data || !funnel.data) {
    const failed = sales.error || traffic.error || funnel.error;
    return (
      <section className="card">
        <h2>Last 30 days</h2>
        <p className="muted">{failed ? "The figures could not be loaded." : "Loading…"}</p>
      </section>
    );
  }
  const s = sales.data;
  const conversion = funnel.data.steps.at(-1)?.fromFirst ?? 0;
  const figures: [string, string, number[]][] = [
    ["Revenue", formatCents(s.totals.revenueCents, s.currency), s.series.map((d) => d.revenueCents)],
    ["Orders", s.totals.orders.toLocaleString("en-US"), s.series.map((d) => d.orders)],
    ["Visits", traffic.data.totals.visits.toLocaleString("en-US"), traffic.data.series.map((d) => d.visits)],
  ];
  return (
    <section className="card" aria-labelledby="business-title">
      <div className="card-head">
        <h2 id="business-title">Last 30 days</h2>
        <Link className="btn small" to={`/sites/${siteId}/analytics`}>
          Analytics
        </Link>
      </div>
      <div className="overview-figures">
        {figures.map(([label, value, series]) => (
          <div key={label}>
            <span className="muted small">{label}</span>
            <span className="traffic-figure">{value}</span>
            <Sparkline values={series} label={`${label} per day over the last 30 days`} />
          </div>
        ))}
        <div>
          <span className="muted small">Conversion</span>
          <span className="traffic-figure">{(conversion * 100).toFixed(1)}%</span>
          <span className="muted small">of visits bought</span>
        </div>
      </div>
    </section>
  );
}

/** Page views of anonymous visitors over the last 30 days: totals, a bar per day, the top pages. */
export function TrafficCard({ siteId }: { siteId: string }) {
  const traffic = useQuery({
    queryKey: ["traffic", siteId],
    queryFn: () => get<Traffic>(`/api/owner/sites/${siteId}/analytics/traffic`),
  });
  if (!traffic.data) {
    return (
      <section className="card traffic">
        <h2>Traffic</h2>
        <p className="muted">{traffic.error ? "Traffic could not be loaded." : "Loading…"}</p>
      </section>
    );
  }
  const t = traffic.data;
  const days = t.series;
  const most = Math.max(1, ...days.map((d) => d.pageViews));
  return (
    <section className="card traffic" aria-labelledby="traffic-title">
      <h2 id="traffic-title">Traffic</h2>
      <div className="traffic-totals">
        <div>
          <span className="traffic-figure">{t.totals.pageViews.toLocaleString("en-US")}</span>
          <span className="muted small">page views</span>
        </div>
        <div>
          <span className="traffic-figure">{t.totals.visitors.toLocaleString("en-US")}</span>
          <span className="muted small">visitors</span>
        </div>
        <span className="muted small">last {days.length} days</span>
      </div>
      <svg
        className="traffic-chart"
        viewBox={`0 0 ${days.length * 10} 60`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Page views per day over the last ${days.length} days`}
      >
        {days.map((d, i) => {
          const h = (d.pageViews / most) * 56;
          return (
            <rect key={d.day} x={i * 10 + 1} y={60 - h} width={8} height={h} rx={1.5}>
              <title>{`${d.day}: ${d.pageViews} page views`}</title>
            </rect>
          );
        })}
      </svg>
      {t.pages.length ? (
        <table className="traffic-pages">
          <caption className="muted small">Most viewed pages</caption>
          <tbody>
            {t.pages.slice(0, 5).map((p) => (
              <tr key={p.path}>
                <td>{p.path || "(unknown)"}</td>
                <td className="num">{p.pageViews.toLocaleString("en-US")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted small">
          No visits yet. Visits of signed-in owners and site users are not counted.
        </p>
      )}
    </section>
  );
}

/** The five newest orders, each a link to its detail. */
export function RecentOrdersCard({ siteId }: { siteId: string }) {
  const orders = useQuery({
    queryKey: ["orders", siteId, "recent"],
    queryFn: () => get<{ orders: RecentOrder[]; total: number }>(`/api/owner/sites/${siteId}/orders?limit=5`),
  });
  return (
    <section className="card recent-orders" aria-labelledby="recent-orders-title">
      <h2 id="recent-orders-title">Recent orders</h2>
      {!orders.data ? (
        <p className="muted">{orders.error ? "Orders could not be loaded." : "Loading…"}</p>
      ) : orders.data.orders.length === 0 ? (
        <p className="muted">No orders yet. They show here as soon as a visitor checks out.</p>
      ) : (
        <ul className="recent-orders-list">
          {orders.data.orders.map((o) => (
            <li key={o.id}>
              <Link to={`/sites/${siteId}/ops/orders/${o.id}`}>#{o.orderNumber}</Link>
              <span className="muted small">
                {o.email} · {formatDate(o.createdOn)}
              </span>
              <span className="num">{formatCents(o.grandTotalCents, o.currency)}</span>
            </li>
          ))}
        </ul>
      )}
      <Link className="btn small" to={`/sites/${siteId}/ops/orders`}>
        All orders{orders.data ? ` (${orders.data.total})` : ""}
      </Link>
    </section>
  );
}
