import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatCents, get } from "../api.js";
import { formatDate } from "../components/ui.js";

interface Traffic {
  days: number;
  pageViews: number;
  visitors: number;
  perDay: { day: string; pageViews: number; visitors: number }[];
  topPages: { path: string; pageViews: number }[];
}

interface RecentOrder {
  id: string;
  orderNumber: number;
  email: string;
  currency: string;
  grandTotalCents: number;
  createdOn: number;
}

/** The last `days` days as YYYY-MM-DD (UTC), oldest first, so days without visits show as gaps. */
function lastDays(days: number, now = Date.now()): string[] {
  return Array.from({ length: days }, (_, i) =>
    new Date(now - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Page views of anonymous visitors over the last 30 days: totals, a bar per day, the top pages. */
export function TrafficCard({ siteId }: { siteId: string }) {
  const traffic = useQuery({
    queryKey: ["traffic", siteId],
    queryFn: () => get<Traffic>(`/api/owner/sites/${siteId}/analytics/traffic?days=30`),
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
  const byDay = new Map(t.perDay.map((d) => [d.day, d.pageViews]));
  const days = lastDays(t.days);
  const most = Math.max(1, ...days.map((d) => byDay.get(d) ?? 0));
  return (
    <section className="card traffic" aria-labelledby="traffic-title">
      <h2 id="traffic-title">Traffic</h2>
      <div className="traffic-totals">
        <div>
          <span className="traffic-figure">{t.pageViews.toLocaleString("en-US")}</span>
          <span className="muted small">page views</span>
        </div>
        <div>
          <span className="traffic-figure">{t.visitors.toLocaleString("en-US")}</span>
          <span className="muted small">visitors</span>
        </div>
        <span className="muted small">last {t.days} days</span>
      </div>
      <svg
        className="traffic-chart"
        viewBox={`0 0 ${days.length * 10} 60`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Page views per day over the last ${t.days} days`}
      >
        {days.map((d, i) => {
          const h = ((byDay.get(d) ?? 0) / most) * 56;
          return (
            <rect key={d} x={i * 10 + 1} y={60 - h} width={8} height={h} rx={1.5}>
              <title>{`${d}: ${byDay.get(d) ?? 0} page views`}</title>
            </rect>
          );
        })}
      </svg>
      {t.topPages.length ? (
        <table className="traffic-pages">
          <caption className="muted small">Most viewed pages</caption>
          <tbody>
            {t.topPages.slice(0, 5).map((p) => (
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
