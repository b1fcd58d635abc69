/** One order: lines, totals, addresses, history, and the fulfil, refund and cancel actions. */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatCents, get } from "../../api.js";
import { Card } from "../../components/Card.js";
import { Loading, PageHead, formatDate, useSiteId } from "../../components/ui.js";
import { Can } from "../../components/permissions.js";
import { Unavailable } from "./shared.js";
import { type Order, STATUS_BADGE, statusText } from "./order-types.js";
import { OrderAction } from "./OrderAction.js";

export function OrderDetail({ orderId }: { orderId: string }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const url = `/api/owner/sites/${siteId}/orders/${orderId}`;
  const detail = useQuery({
    queryKey: ["order", siteId, orderId],
    queryFn: () => get<{ order: Order; refunds?: { amountCents: number; createdAt?: string }[] }>(url),
  });
  const [dialog, setDialog] = useState<"fulfil" | "refund" | "cancel" | undefined>();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["order", siteId, orderId] });
    void queryClient.invalidateQueries({ queryKey: ["orders", siteId] });
  };
  if (detail.isLoading) return <Loading />;
  if (!detail.data) return <Unavailable what="Orders" error={detail.error} />;
  const o = detail.data.order;
  const money = (c: number) => formatCents(c, o.currency);
  /** The order's totals, a discount and a refund only when there is one. */
  const totals = [
    { label: "Subtotal", amount: money(o.subtotalCents) },
    ...(o.discountCents ? [{ label: "Discount", amount: `−${money(o.discountCents)}` }] : []),
    { label: "Shipping", amount: money(o.shippingCents) },
    { label: "Tax", amount: money(o.taxCents) },
    { label: "Total", amount: money(o.grandTotalCents), strong: true },
    ...(o.refundedCents ? [{ label: "Refunded", amount: `−${money(o.refundedCents)}` }] : []),
  ];
  const addr = o.shippingAddress;
  return (
    <>
      <PageHead
        title={`Order #${o.orderNumber}`}
        sub={
          <>
            {formatDate(o.createdOn, true)} ·{" "}
            <span className={`badge ${STATUS_BADGE[o.status] ?? ""}`}>{statusText(o.status)}</span>
            {o.testMode ? <span className="badge"> Test order</span> : null}
          </>
        }
        back={{ to: `/sites/${siteId}/ops/orders`, label: "All orders" }}
        actions={
          <Can permission="orders.write">
            {o.status === "paid" ? (
              <button type="button" className="btn primary" onClick={() => setDialog("fulfil")}>
                Fulfil order
              </button>
            ) : null}
            {["paid", "fulfilled", "partially_refunded"].includes(o.status) ? (
              <button type="button" className="btn" onClick={() => setDialog("refund")}>
                Refund
              </button>
            ) : null}
            {o.status === "paid" || o.status === "pending" ? (
              <button type="button" className="btn danger" onClick={() => setDialog("cancel")}>
                Cancel order
              </button>
            ) : null}
          </Can>
        }
      />
      <div className="split">
        <Card title="Items">
          <table className="data">
            <tbody>
              {o.lines.map((l) => (
                <tr key={l.id}>
                  <td style={{ width: 56 }}>
                    {l.imageUrl ? <img className="thumb" src={l.imageUrl} alt="" /> : null}
                  </td>
                  <td>
                    {l.productName}
                    <div className="muted small">
                      {Object.values(l.attributes).join(" / ")} · {l.sku}
                      {l.restockedQuantity ? ` · ${l.restockedQuantity} restocked` : ""}
                    </div>
                  </td>
                  <td className="num">
                    {l.quantity} × {money(l.unitPriceCents)}
                  </td>
                  <td className="num">{money(l.subtotalCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="data" style={{ marginTop: "0.8rem" }}>
            <tbody>
              {totals.map((t) => (
                <tr key={t.label}>
                  <td>{t.strong ? <strong>{t.label}</strong> : t.label}</td>
                  <td className="num">{t.strong ? <strong>{t.amount}</strong> : t.amount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="Customer">
          <p>
            <a href={`mailto:${o.email}`}>{o.email}</a>
          </p>
          {addr ? (
            <address style={{ fontStyle: "normal" }}>
              {[addr.firstName, addr.lastName].filter(Boolean).join(" ")}
              <br />
              {addr.line1}
              {addr.line2 ? (
                <>
                  <br />
                  {addr.line2}
                </>
              ) : null}
              <br />
              {[addr.city, addr.state, addr.postalCode].filter(Boolean).join(", ")}
              <br />
              {addr.country}
            </address>
          ) : (
            <p className="muted">No shipping address (digital order).</p>
          )}
          {o.trackingNumber ? <p>Tracking: {o.trackingNumber}</p> : null}
        </Card>
      </div>
      {dialog ? (
        <OrderAction
          kind={dialog}
          order={o}
          url={url}
          onClose={() => setDialog(undefined)}
          onDone={refresh}
        />
      ) : null}
    </>
  );
}
