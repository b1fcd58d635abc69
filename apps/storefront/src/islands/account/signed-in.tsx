/** The signed-in account pages: overview, orders (with subscriptions) and addresses. */
import { formatMoney, parseSubscriptionPlan, subscriptionPriceText } from "@atelier/commerce";
import { useCallback, useEffect, useState } from "react";
import { Addresses } from "./addresses.js";
import { failure, keepXsrfToken, signOut, signedIn, userCall } from "./session.js";
import type { AccountData, Order, Subscription, View } from "./types.js";
import { Alert, Page } from "./ui.js";

const STATUS_TEXT: Record<string, string> = {
  pending: "Pending",
  paid: "Paid",
  fulfilled: "Shipped",
  refunded: "Refunded",
  partially_refunded: "Partly refunded",
  cancelled: "Cancelled",
};

const dateText = (ms: number) =>
  new Date(ms).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });

function toSignIn() {
  keepXsrfToken(null);
  window.location.assign(`/account/login?redirect=${encodeURIComponent(window.location.pathname)}`);
}

export function Account({ view }: { view: View }) {
  const [data, setData] = useState<AccountData | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [signingOut, setSigningOut] = useState(false);

  const load = useCallback(async () => {
    if (!signedIn()) return toSignIn();
    const answer = await userCall("/api/site-users/account");
    if (answer.status === 401 || answer.status === 403) return toSignIn();
    if (answer.status !== 200) return setError(failure(answer).message);
    setData(answer.body as AccountData);
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  async function out() {
    setSigningOut(true);
    const answer = await signOut(false);
    if (answer.status === 200) window.location.assign("/");
    else {
      setError(failure(answer).message);
      setSigningOut(false);
    }
  }

  const title = view === "orders" ? "Orders" : view === "addresses" ? "Addresses" : "My account";
  const nav = (
    <nav className="account-nav" aria-label="Account">
      <a href="/account" aria-current={view === "overview" ? "page" : undefined}>
        Overview
      </a>
      <a href="/account/orders" aria-current={view === "orders" ? "page" : undefined}>
        Orders
      </a>
      <a href="/account/addresses" aria-current={view === "addresses" ? "page" : undefined}>
        Addresses
      </a>
      <button
        type="button"
        className="button button-secondary account-signout"
        onClick={out}
        disabled={signingOut}
      >
        {signingOut ? "Signing out…" : "Sign out"}
      </button>
    </nav>
  );
  if (error)
    return (
      <Page title={title} nav={nav}>
        <Alert>{error}</Alert>
      </Page>
    );
  if (!data)
    return (
      <Page title={title}>
        <p aria-busy="true">Loading your account…</p>
      </Page>
    );

  return (
    <Page title={title} nav={nav}>
      {view === "overview" && (
        <>
          <p className="account-greeting">
            Signed in as {data.account.firstName} {data.account.lastName} ({data.account.email}).
          </p>
          <h2>Recent orders</h2>
          <Orders orders={data.orders.slice(0, 3)} />
          {data.orders.length > 3 && (
            <p>
              <a href="/account/orders">See all {data.orders.length} orders</a>
            </p>
          )}
          {data.subscriptions.length > 0 && (
            <>
              <h2>Subscriptions</h2>
              <Subscriptions list={data.subscriptions} />
            </>
          )}
          <h2>Addresses</h2>
          <p>
            {data.addresses.length === 0
              ? "You have no saved addresses."
              : `${data.addresses.length} saved ${data.addresses.length === 1 ? "address" : "addresses"}.`}{" "}
            <a href="/account/addresses">Manage addresses</a>
          </p>
        </>
      )}
      {view === "orders" && <Orders orders={data.orders} />}
      {view === "addresses" && (
        <Addresses
          list={data.addresses}
          onChange={(addresses) => setData({ ...data, addresses })}
          onSignedOut={toSignIn}
        />
      )}
    </Page>
  );
}

function Orders({ orders }: { orders: Order[] }) {
  if (!orders.length)
    return (
      <p className="account-empty">
        You have no orders yet. <a href="/shop">Visit the shop</a>
      </p>
    );
  return (
    <ul className="account-orders">
      {orders.map((o) => (
        <li key={o.id} className="account-order">
          <div className="account-order-head">
            <strong>Order #{o.orderNumber}</strong>
            <span>{dateText(o.createdOn)}</span>
            <span className="account-order-status">{STATUS_TEXT[o.status] ?? o.status}</span>
            <strong>{formatMoney(o.grandTotalCents, o.currencyCode)}</strong>
          </div>
          <ul className="account-order-lines">
            {o.lines.map((l) => (
              <li key={`${l.sku}-${l.productName}`}>
                {l.quantity} × {l.productName}
                {Object.keys(l.attributes).length > 0 && ` (${Object.values(l.attributes).join(", ")})`} —{" "}
                {formatMoney(l.unitPriceCents * l.quantity, o.currencyCode)}
              </li>
            ))}
          </ul>
          <p className="account-order-totals">
            Subtotal {formatMoney(o.subtotalCents, o.currencyCode)}
            {o.discountCents > 0 && ` · Discount −${formatMoney(o.discountCents, o.currencyCode)}`}
            {` · Shipping ${formatMoney(o.shippingCents, o.currencyCode)}`}
            {o.taxCents > 0 && ` · Tax ${formatMoney(o.taxCents, o.currencyCode)}`}
          </p>
          {o.trackingNumber && <p className="account-order-tracking">Tracking number: {o.trackingNumber}</p>}
        </li>
      ))}
    </ul>
  );
}

function Subscriptions({ list }: { list: Subscription[] }) {
  return (
    <ul className="account-orders">
      {list.map((s) => {
        const plan = parseSubscriptionPlan(s);
        const price = formatMoney(s.priceCents, s.currencyCode);
        return (
          <li key={s.id} className="account-order">
            <div className="account-order-head">
              <strong>{s.sku}</strong>
              <span>{plan ? subscriptionPriceText(price, plan) : price}</span>
              <span className="account-order-status">{s.status}</span>
              {s.nextBillingOn && <span>Next charge {dateText(s.nextBillingOn)}</span>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
