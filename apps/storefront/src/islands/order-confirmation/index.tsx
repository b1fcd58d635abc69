/**
 * Islands `order-confirmed` (202), `order-received` (207) and `subscription-confirmed` (206):
 * the buyer's order (number, lines, totals, addresses, digital downloads) or subscription, read
 * with the token of the confirmation link. While the payment is still settling (207) it checks
 * again every few seconds. The Order analytics payload (SPEC §3) is dispatched as the
 * `atelier:order` DOM event for the site's tracking scripts.
 * Props: { orderId?, token? } (the page's query also carries subscriptionId).
 */
import { formatMoney } from "@atelier/commerce";
import type { Order } from "@atelier/owner-api";
import { useEffect, useState } from "react";
import { apiCall } from "../../lib/api.js";
import { Totals, subtotalLines } from "../../lib/totals.js";
import { countryName } from "../checkout/countries.js";
import "../../lib/ui.css";
import "./order-confirmation.css";

interface Address {
  firstName?: string;
  lastName?: string;
  line1?: string;
  line2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
}
interface OrderView {
  order: Order;
  analytics: unknown;
  downloads: { lineId: string; productName: string; url: string; expiresOn: number }[];
  subscriptions: { id: string; productName: string | null; text: string; url: string }[];
}
interface SubscriptionView {
  subscription: {
    id: string;
    productName: string | null;
    status: string;
    text: string;
    nextBillingOn: number | null;
    email: string;
  };
}

export interface OrderConfirmationProps {
  orderId?: string;
  token?: string;
}

const POLL_MS = 3000;
const POLL_MAX = 40;

function AddressBlock({ title, a }: { title: string; a: Address | null }) {
  if (!a) return null;
  const lines = [
    [a.firstName, a.lastName].filter(Boolean).join(" "),
    a.line1,
    a.line2,
    [a.city, a.state, a.postalCode].filter(Boolean).join(" "),
    a.country ? countryName(a.country) : undefined,
  ].filter(Boolean);
  return (
    <div className="order-address">
      <h3>{title}</h3>
      <p>
        {lines.map((l) => (
          <span key={l}>
            {l}
            <br />
          </span>
        ))}
      </p>
    </div>
  );
}

export default function OrderConfirmation(props: OrderConfirmationProps) {
  const params = new URLSearchParams(window.location.search);
  const orderId = props.orderId ?? params.get("orderId") ?? undefined;
  const subscriptionId = params.get("subscriptionId") ?? undefined;
  const token = props.token ?? params.get("token") ?? undefined;
  // The subscription page names its order too, with the order's own token.
  const orderToken = params.get("orderToken") ?? (subscriptionId ? undefined : token);
  const [view, setView] = useState<OrderView>();
  const [sub, setSub] = useState<SubscriptionView["subscription"]>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!token || (!orderId && !subscriptionId)) {
      setError("This link is missing its order details. Please use the link from your confirmation email.");
      return;
    }
    let stopped = false;
    let tries = 0;
    let announced = false;
    const load = async () => {
      try {
        if (subscriptionId) {
          const s = await apiCall<SubscriptionView>(
            `/api/commerce/subscriptions/${encodeURIComponent(subscriptionId)}?token=${encodeURIComponent(token)}`,
          );
          if (!stopped) setSub(s.subscription);
        }
        if (orderId && orderToken) {
          const o = await apiCall<OrderView>(
            `/api/commerce/orders/${encodeURIComponent(orderId)}?token=${encodeURIComponent(orderToken)}`,
          );
          if (stopped) return;
          setView(o);
          if (o.order.status === "pending" && ++tries < POLL_MAX) setTimeout(() => void load(), POLL_MS);
          else if (!announced) {
            announced = true;
            window.dispatchEvent(new CustomEvent("atelier:order", { detail: o.analytics }));
          }
        }
      } catch (err) {
        if (!stopped) setError((err as Error).message);
      }
    };
    void load();
    return () => {
      stopped = true;
    };
  }, [orderId, orderToken, subscriptionId, token]);

  if (error) return <p role="alert">{error}</p>;
  if (!view && !sub)
    return (
      <p className="order-muted" aria-busy="true">
        Loading your order…
      </p>
    );
  const o = view?.order;
  const money = (c: number) => formatMoney(c, o?.currency ?? "USD");
  return (
    <div className="order-confirmation">
      {sub ? (
        <section className="order-card" aria-labelledby="subscription-title">
          <h2 id="subscription-title">{sub.productName ?? "Your subscription"}</h2>
          <p className="order-big">{sub.text}</p>
          <p>
            Status: <strong>{sub.status === "active" ? "Active" : sub.status.replace("_", " ")}</strong>
            {sub.nextBillingOn
              ? ` · next payment on ${new Date(sub.nextBillingOn).toLocaleDateString("en-US", { dateStyle: "long" })}`
              : ""}
          </p>
        </section>
      ) : null}
      {o ? (
        <section className="order-card" aria-labelledby="order-title">
          <h2 id="order-title">Order #{o.orderNumber}</h2>
          {o.status === "pending" ? (
            <p className="order-pending" role="status">
              Your payment is being confirmed. This page updates by itself.
            </p>
          ) : (
            <p>
              A confirmation was sent to <strong>{o.email}</strong>.
              {o.testMode ? " This was a test order: no money was taken." : ""}
            </p>
          )}
          <ul className="order-lines">
            {o.lines.map((l) => (
              <li key={l.id}>
                <span>
                  {l.quantity} × {l.productName}
                  {Object.values(l.attributes).length ? (
                    <span className="order-muted"> ({Object.values(l.attributes).join(", ")})</span>
                  ) : null}
                </span>
                <span>{money(l.subtotalCents)}</span>
              </li>
            ))}
          </ul>
          <Totals
            className="order-totals"
            lines={[
              ...subtotalLines(
                o,
                (o.coupons ?? []).map((c) => c.code),
                money,
              ),
              !!(o.shippingOption || o.shippingCents) && {
                key: "shipping",
                label: (
                  <>
                    Shipping
                    {o.shippingOption ? (
                      <span className="order-muted"> · {o.shippingOption.name}</span>
                    ) : null}
                  </>
                ),
                amount: o.shippingCents ? money(o.shippingCents) : "Free",
              },
              ...(o.taxRules?.length
                ? o.taxRules.map((t) => ({
                    key: `tax:${t.name}`,
                    label: `${t.name} (${t.ratePercent}%)`,
                    amount: money(t.taxCents),
                  }))
                : [{ key: "tax", label: "Tax", amount: money(o.taxCents) }]),
              { key: "total", label: "Total", amount: money(o.grandTotalCents), className: "order-total" },
              !!o.giftCardCents && {
                key: "gift-cards",
                label: "Paid with gift cards",
                amount: money(o.giftCardCents),
              },
            ]}
          />
          {view?.downloads.length ? (
            <div className="order-downloads">
              <h3>Your downloads</h3>
              <ul>
                {view.downloads.map((d) => (
                  <li key={d.lineId}>
                    <a className="atelier-button" href={d.url}>
                      Download {d.productName}
                    </a>
                  </li>
                ))}
              </ul>
              <p className="order-muted">Links stay valid for 72 hours; this page always has fresh ones.</p>
            </div>
          ) : null}
          {!sub && view?.subscriptions.length ? (
            <p>
              {view.subscriptions.map((s) => (
                <a key={s.id} href={s.url}>
                  Your subscription: {s.productName}, {s.text}
                </a>
              ))}
            </p>
          ) : null}
          <div className="order-addresses">
            <AddressBlock title="Shipping to" a={o.shippingAddress} />
            <AddressBlock title="Billing address" a={o.billingAddress} />
          </div>
        </section>
      ) : null}
    </div>
  );
}
