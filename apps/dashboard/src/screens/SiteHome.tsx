import { Link } from "react-router";
import { KIND_LABELS } from "../api.js";
import { Card } from "../components/Card.js";
import { Can, useCan } from "../components/permissions.js";
import { ErrorNotice, Loading, PageHead, usePages, useSite } from "../components/ui.js";
import { SampleContentCard, SetupGuide } from "./SetupGuide.js";
import { BusinessCard, RecentOrdersCard, TrafficCard } from "./SiteTraffic.js";

/** A site's overview: where it is live and the shortest ways into its parts. */
export function SiteHome() {
  const site = useSite();
  const { can } = useCan();
  const pages = usePages(can("content.read"));
  if (site.isLoading) return <Loading />;
  if (site.error || !site.data) return <ErrorNotice error={site.error ?? new Error("No such site.")} />;
  const s = site.data;
  const home = pages.data?.find((p) => p.isHome);
  const stores = pages.data?.filter((p) => p.kind === "products") ?? [];
  return (
    <>
      <PageHead
        title={s.title}
        sub={
          <>
            Live at{" "}
            <a href={s.url} target="_blank" rel="noreferrer">
              {s.url.replace(/^https?:\/\//, "")}
            </a>{" "}
            · {s.websiteTypeName} · {s.timeZone}
          </>
        }
        actions={
          <>
            <a className="btn" href={s.url} target="_blank" rel="noreferrer">
              View site
            </a>
            {home && can("content.write") ? (
              <Link className="btn primary" to={`/sites/${s.id}/pages/${home.id}/edit`}>
                Edit home page
              </Link>
            ) : null}
          </>
        }
      />
      <Can permission="settings.read">
        <SetupGuide siteId={s.id} />
      </Can>
      {stores.length && can("analytics.read") ? <BusinessCard siteId={s.id} /> : null}
      <div className="overview-grid">
        <Can permission="analytics.read">
          <TrafficCard siteId={s.id} />
        </Can>
        {stores.length && can("orders.read") ? <RecentOrdersCard siteId={s.id} /> : null}
      </div>
      <div className="card-grid">
        <Can permission="content.write">
          <SampleContentCard siteId={s.id} />
        </Can>
        <Can permission="content.read">
          <Card title="Pages">
            <p className="muted">{pages.data ? `${pages.data.length} pages and collections` : "…"}</p>
            <ul className="small" style={{ paddingLeft: "1.1rem", margin: "0 0 0.8rem" }}>
              {pages.data?.slice(0, 6).map((p) => (
                <li key={p.id}>
                  <Link to={`/sites/${s.id}/pages/${p.id}`}>{p.title}</Link>{" "}
                  <span className="muted">{KIND_LABELS[p.kind]}</span>
                </li>
              ))}
            </ul>
            <Link className="btn small" to={`/sites/${s.id}/pages`}>
              Manage pages
            </Link>
          </Card>
        </Can>
        {can("products.read") || can("orders.read") || can("store.read") ? (
          <Card title="Store">
            <p className="muted">
              {stores.length
                ? `${stores.reduce((n, p) => n + p.itemCount, 0)} products in ${stores.length} store page${stores.length > 1 ? "s" : ""}`
                : "Add a store page to sell products."}
            </p>
            <div className="btn-row">
              <Can permission="products.read">
                <Link className="btn small" to={`/sites/${s.id}/products`}>
                  Products
                </Link>
              </Can>
              <Can permission="inventory.read">
                <Link className="btn small" to={`/sites/${s.id}/inventory`}>
                  Inventory
                </Link>
              </Can>
              <Can permission="orders.read">
                <Link className="btn small" to={`/sites/${s.id}/ops/orders`}>
                  Orders
                </Link>
              </Can>
            </div>
          </Card>
        ) : null}
        {can("settings.read") || can("store.read") ? (
          <Card title="Settings">
            <p className="muted">Title, time zone, domains, comments, sharing and the cookie banner.</p>
            <div className="btn-row">
              <Can permission="settings.read">
                <Link className="btn small" to={`/sites/${s.id}/settings`}>
                  Site settings
                </Link>
              </Can>
              <Can permission="store.read">
                <Link className="btn small" to={`/sites/${s.id}/store`}>
                  Store settings
                </Link>
              </Can>
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}
