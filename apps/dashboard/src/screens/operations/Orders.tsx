/** Operations › Orders: the list of the site's orders, by status. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { formatCents, get, withQuery } from "../../api.js";
import { SearchField, SelectField } from "../../components/form/index.js";
import { LoadedTable, PageHead, Pager, formatDate, useSiteId } from "../../components/ui.js";
import { Unavailable } from "./shared.js";
import { type Order, STATUS_BADGE, statusText } from "./order-types.js";

export function Orders() {
  const siteId = useSiteId();
  const navigate = useNavigate();
  const [q, setQ] = useState("");
  const [status, setStatus] = useState("");
  const [offset, setOffset] = useState(0);
  const limit = 25;
  const orders = useQuery({
    queryKey: ["orders", siteId, q, status, offset],
    queryFn: () =>
      get<{ orders: Order[]; total: number }>(
        withQuery(`/api/owner/sites/${siteId}/orders`, { limit, offset, q, status }),
      ),
    placeholderData: (p) => p,
  });
  /** A filter that changes starts the list again from its first page. */
  const refilter = (setFilter: (value: string) => void) => (value: string) => {
    setFilter(value);
    setOffset(0);
  };
  return (
    <>
      <PageHead
        title="Orders"
        sub="Orders from your store, newest first."
        actions={
          <a className="btn" href={`/api/owner/sites/${siteId}/export/shopify-orders.csv`} download>
            Export CSV (Shopify format)
          </a>
        }
      />
      <div className="toolbar">
        <SearchField
          label="Search orders"
          value={q}
          placeholder="Number, email, product or SKU"
          onChange={refilter(setQ)}
        />
        <SelectField
          label="Status"
          value={status}
          onChange={refilter(setStatus)}
          options={[
            { value: "", label: "All" },
            ...["pending", "paid", "fulfilled", "partially_refunded", "refunded", "cancelled"].map((s) => ({
              value: s,
              label: statusText(s),
            })),
          ]}
        />
      </div>
      <LoadedTable
        query={orders}
        failed={(e) => <Unavailable what="Orders" error={e} />}
        rows={(data) => data.orders}
        columns={[
          { label: "Order" },
          { label: "Date", className: "hide-phone" },
          { label: "Customer", className: "hide-phone" },
          { label: "Status" },
          { label: "Total", className: "num" },
        ]}
        empty="No orders yet."
        footer={(data) => (
          <Pager
            status={`${data.total} orders`}
            canPrev={offset !== 0}
            canNext={offset + limit < data.total}
            onPrev={() => setOffset(Math.max(0, offset - limit))}
            onNext={() => setOffset(offset + limit)}
          />
        )}
        row={(o) => (
          <tr
            key={o.id}
            className="clickable"
            onClick={() => navigate(`/sites/${siteId}/ops/orders/${o.id}`)}
          >
            <td>
              <Link to={`/sites/${siteId}/ops/orders/${o.id}`} onClick={(e) => e.stopPropagation()}>
                #{o.orderNumber}
              </Link>
              {o.testMode ? <span className="badge"> Test</span> : null}
            </td>
            <td className="hide-phone">{formatDate(o.createdOn, true)}</td>
            <td className="hide-phone">{o.email}</td>
            <td>
              <span className={`badge ${STATUS_BADGE[o.status] ?? ""}`}>{statusText(o.status)}</span>
            </td>
            <td className="num">{formatCents(o.grandTotalCents, o.currency)}</td>
          </tr>
        )}
      />
    </>
  );
}
