/**
 * Operations: orders (list, detail, fulfil, refund, cancel), form submissions (list, CSV),
 * restock sign-ups (per variant, send and send all), site users and the email outbox. These
 * screens use the owner calls of the checkout, forms, restock and email modules.
 */
import { fetchAllPages, sendRestockNotifications } from "@atelier/commerce";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { ApiError, del, formatCents, get, post, textToCents } from "../api.js";
import { ErrorNotice, Loading, Modal, Notice, PageHead, formatDate, useSiteId } from "../components/ui.js";
import { CheckboxField, SelectField, TextField } from "../components/form/index.js";

export function Operations() {
  const { area = "orders", id } = useParams();
  if (area === "orders") return id ? <OrderDetail orderId={id} /> : <Orders />;
  if (area === "forms") return <FormSubmissions formId={id} />;
  if (area === "restock") return <Restock />;
  if (area === "site-users") return <SiteUsers />;
  return <Outbox />;
}

/** A screen whose owner call the server does not have (404 on the route) says so plainly. */
function Unavailable({ what, error }: { what: string; error: unknown }) {
  if (error instanceof ApiError && error.status === 404 && /No such route/.test(error.message)) {
    return <Notice kind="warn">{what} are not available on this server yet.</Notice>;
  }
  return <ErrorNotice error={error} />;
}

// ─── Orders ─────────────────────────────────────────────────────────────────────────────────

interface OrderLine {
  id: string;
  sku: string;
  productName: string;
  attributes: Record<string, string>;
  quantity: number;
  unitPriceCents: number;
  subtotalCents: number;
  restockedQuantity: number;
  imageUrl: string | null;
}
interface Order {
  id: string;
  orderNumber: number;
  status: string;
  paymentStatus?: string;
  fulfillmentStatus?: string;
  email: string;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  refundedCents: number;
  testMode: boolean;
  shippingAddress: Record<string, string> | null;
  trackingNumber: string | null;
  createdOn: number;
  lines: OrderLine[];
}

const STATUS_BADGE: Record<string, string> = {
  paid: "accent",
  fulfilled: "ok",
  refunded: "danger",
  partially_refunded: "warn",
  cancelled: "danger",
  pending: "warn",
};
const statusText = (s: string) => s.replace(/_/g, " ");

function Orders() {
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
        `/api/owner/sites/${siteId}/orders?limit=${limit}&offset=${offset}${q ? `&q=${encodeURIComponent(q)}` : ""}${status ? `&status=${status}` : ""}`,
      ),
    placeholderData: (p) => p,
  });
  return (
    <>
      <PageHead title="Orders" sub="Orders from your store, newest first." />
      <div className="toolbar">
        <div className="field">
          <label htmlFor="order-search">Search orders</label>
          <input
            id="order-search"
            type="search"
            value={q}
            placeholder="Number, email, product or SKU"
            onChange={(e) => {
              setQ(e.target.value);
              setOffset(0);
            }}
          />
        </div>
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => {
            setStatus(v);
            setOffset(0);
          }}
          options={[
            { value: "", label: "All" },
            ...["pending", "paid", "fulfilled", "partially_refunded", "refunded", "cancelled"].map((s) => ({
              value: s,
              label: statusText(s),
            })),
          ]}
        />
      </div>
      {orders.error ? <Unavailable what="Orders" error={orders.error} /> : null}
      {orders.isLoading ? <Loading /> : null}
      {orders.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Order</th>
                <th className="hide-phone">Date</th>
                <th className="hide-phone">Customer</th>
                <th>Status</th>
                <th className="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.orders.map((o) => (
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
              ))}
            </tbody>
          </table>
          {!orders.data.orders.length ? <p className="empty">No orders yet.</p> : null}
          <div className="pager" style={{ padding: "0.6rem 0.9rem" }}>
            <span className="muted small">{orders.data.total} orders</span>
            <span className="btn-row">
              <button
                type="button"
                className="btn small"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - limit))}
              >
                Previous page
              </button>
              <button
                type="button"
                className="btn small"
                disabled={offset + limit >= orders.data.total}
                onClick={() => setOffset(offset + limit)}
              >
                Next page
              </button>
            </span>
          </div>
        </div>
      ) : null}
    </>
  );
}

function OrderDetail({ orderId }: { orderId: string }) {
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
        actions={
          <>
            <Link className="btn" to={`/sites/${siteId}/ops/orders`}>
              All orders
            </Link>
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
          </>
        }
      />
      <div className="split">
        <div className="card">
          <h2>Items</h2>
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
              <tr>
                <td>Subtotal</td>
                <td className="num">{money(o.subtotalCents)}</td>
              </tr>
              {o.discountCents ? (
                <tr>
                  <td>Discount</td>
                  <td className="num">−{money(o.discountCents)}</td>
                </tr>
              ) : null}
              <tr>
                <td>Shipping</td>
                <td className="num">{money(o.shippingCents)}</td>
              </tr>
              <tr>
                <td>Tax</td>
                <td className="num">{money(o.taxCents)}</td>
              </tr>
              <tr>
                <td>
                  <strong>Total</strong>
                </td>
                <td className="num">
                  <strong>{money(o.grandTotalCents)}</strong>
                </td>
              </tr>
              {o.refundedCents ? (
                <tr>
                  <td>Refunded</td>
                  <td className="num">−{money(o.refundedCents)}</td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
        <div className="card">
          <h2>Customer</h2>
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
        </div>
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

function OrderAction({
  kind,
  order,
  url,
  onClose,
  onDone,
}: {
  kind: "fulfil" | "refund" | "cancel";
  order: Order;
  url: string;
  onClose: () => void;
  onDone: () => void;
}) {
  const [carrier, setCarrier] = useState("");
  const [tracking, setTracking] = useState("");
  const [notify, setNotify] = useState(true);
  const left = order.grandTotalCents - order.refundedCents;
  const [amount, setAmount] = useState(
    (left / (order.currency === "JPY" ? 1 : 100)).toFixed(order.currency === "JPY" ? 0 : 2),
  );
  const [restock, setRestock] = useState(true);
  const [reason, setReason] = useState("");
  const act = useMutation({
    mutationFn: () => {
      if (kind === "fulfil")
        return post(`${url}/fulfil`, {
          carrier: carrier || undefined,
          trackingNumber: tracking || undefined,
          notifyCustomer: notify,
        });
      if (kind === "cancel")
        return post(`${url}/cancel`, { restock, reason: reason || undefined, notifyCustomer: notify });
      const cents = textToCents(amount, order.currency);
      if (cents === undefined) throw new Error("Enter the amount to refund.");
      return post(`${url}/refund`, { amountCents: cents, restock, reason: reason || undefined });
    },
    onSuccess: () => {
      onDone();
      onClose();
    },
  });
  const title = kind === "fulfil" ? "Fulfil order" : kind === "refund" ? "Refund order" : "Cancel order";
  return (
    <Modal
      title={`${title} #${order.orderNumber}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Back
          </button>
          <button
            type="button"
            className={`btn ${kind === "fulfil" ? "primary" : "danger"}`}
            onClick={() => act.mutate()}
            disabled={act.isPending}
          >
            {title}
          </button>
        </>
      }
    >
      <ErrorNotice error={act.error} />
      {kind === "fulfil" ? (
        <>
          <TextField label="Carrier" value={carrier} onChange={(v) => setCarrier(v)} />
          <TextField label="Tracking number" value={tracking} onChange={(v) => setTracking(v)} />
        </>
      ) : null}
      {kind === "refund" ? (
        <TextField
          label={`Amount to refund (${order.currency})`}
          inputMode="decimal"
          value={amount}
          onChange={(v) => setAmount(v)}
          help={`Up to ${formatCents(left, order.currency)}`}
        />
      ) : null}
      {kind !== "fulfil" ? (
        <>
          <CheckboxField label="Put the items back in stock" value={restock} onChange={setRestock} />
          <TextField label="Reason" value={reason} onChange={(v) => setReason(v)} />
        </>
      ) : null}
      {kind !== "refund" ? (
        <CheckboxField label="Email the customer" value={notify} onChange={setNotify} />
      ) : null}
    </Modal>
  );
}

// ─── Form submissions ───────────────────────────────────────────────────────────────────────

interface FormSummary {
  id: string;
  name: string;
  submissions: number;
}
interface Submission {
  id: string;
  createdOn: number;
  pagePath: string | null;
  summary: { title: string; value: string }[];
}

function FormSubmissions({ formId }: { formId?: string }) {
  const siteId = useSiteId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [q, setQ] = useState("");
  const forms = useQuery({
    queryKey: ["forms", siteId],
    queryFn: () => get<{ forms: FormSummary[] }>(`/api/owner/sites/${siteId}/forms`).then((r) => r.forms),
  });
  const current = formId ?? forms.data?.[0]?.id;
  const subs = useQuery({
    queryKey: ["submissions", siteId, current, q],
    queryFn: () =>
      get<{ submissions: Submission[]; total: number }>(
        `/api/owner/sites/${siteId}/forms/${current}/submissions?limit=100${q ? `&q=${encodeURIComponent(q)}` : ""}`,
      ),
    enabled: Boolean(current),
  });
  const remove = useMutation({
    mutationFn: (id: string) => del(`/api/owner/sites/${siteId}/forms/${current}/submissions/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["submissions", siteId, current] }),
  });
  if (forms.isLoading) return <Loading />;
  if (!forms.data) return <Unavailable what="Form submissions" error={forms.error} />;
  return (
    <>
      <PageHead
        title="Form submissions"
        sub="What visitors sent through your forms."
        actions={
          current ? (
            <a
              className="btn"
              href={`/api/owner/sites/${siteId}/forms/${current}/submissions.csv${q ? `?q=${encodeURIComponent(q)}` : ""}`}
              download
            >
              Download CSV
            </a>
          ) : null
        }
      />
      <div className="toolbar">
        <SelectField
          label="Form"
          value={current ?? ""}
          onChange={(v) => navigate(`/sites/${siteId}/ops/forms/${v}`)}
          options={forms.data.map((f) => ({ value: f.id, label: `${f.name} (${f.submissions})` }))}
        />
        <div className="field">
          <label htmlFor="submission-search">Search answers</label>
          <input id="submission-search" type="search" value={q} onChange={(e) => setQ(e.target.value)} />
        </div>
      </div>
      <ErrorNotice error={subs.error ?? remove.error} />
      {subs.data ? (
        <>
          <p className="muted small">{subs.data.total} submissions</p>
          {subs.data.submissions.map((s) => (
            <div className="card" key={s.id}>
              <div className="btn-row" style={{ justifyContent: "space-between" }}>
                <strong>{formatDate(s.createdOn, true)}</strong>
                <span className="btn-row">
                  {s.pagePath ? <span className="muted small">from {s.pagePath}</span> : null}
                  <button type="button" className="btn small danger" onClick={() => remove.mutate(s.id)}>
                    Delete submission
                  </button>
                </span>
              </div>
              <dl
                style={{
                  margin: "0.6rem 0 0",
                  display: "grid",
                  gridTemplateColumns: "minmax(100px, 180px) 1fr",
                  gap: "0.3rem 1rem",
                }}
              >
                {s.summary.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: summary rows are positional
                  <div key={i} style={{ display: "contents" }}>
                    <dt className="muted">{row.title}</dt>
                    <dd style={{ margin: 0, whiteSpace: "pre-wrap" }}>{row.value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
          {!subs.data.submissions.length ? <p className="empty card">No submissions yet.</p> : null}
        </>
      ) : null}
    </>
  );
}

// ─── Restock sign-ups ───────────────────────────────────────────────────────────────────────

interface SignUpGroup {
  productId: string;
  variantId: string;
  productTitle: string;
  productUrl: string;
  sku: string;
  attributes: Record<string, string>;
  signUpCount: number;
  qtyInStock: number;
  unlimited: boolean;
  inStock: boolean;
}
const RESTOCK = "/api/site-users/account/notifications/restock";

interface SignUp {
  id: string;
  email: string;
  isJoinMailingList: boolean;
  createdOn: number;
}

/** Everyone waiting for one variant: every page of the list, fetched in a loop (SPEC §7). */
function SignUps({ siteId, group }: { siteId: string; group: SignUpGroup }) {
  const list = useQuery({
    queryKey: ["restock", siteId, group.variantId],
    queryFn: () =>
      fetchAllPages(
        (cursor) =>
          get<{ signUps: SignUp[]; hasNextPage: boolean; nextPageCursor: string | null }>(
            `${RESTOCK}?siteId=${siteId}&productId=${group.productId}&variantId=${group.variantId}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          ),
        (p) => p.signUps,
      ),
  });
  if (list.isLoading) return <Loading what="Loading sign-ups" />;
  if (list.error) return <ErrorNotice error={list.error} />;
  return (
    <ul className="small" style={{ margin: 0, paddingLeft: "1.1rem" }}>
      {list.data?.map((s) => (
        <li key={s.id}>
          {s.email} <span className="muted">· {formatDate(s.createdOn)}</span>
          {s.isJoinMailingList ? <span className="badge"> Mailing list</span> : null}
        </li>
      ))}
    </ul>
  );
}

function Restock() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<string | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const groups = useQuery({
    queryKey: ["restock", siteId],
    // Every page, as SPEC §7 says: looped until the last.
    queryFn: () =>
      fetchAllPages(
        (cursor) =>
          get<{ signUpGroups: SignUpGroup[]; hasNextPage: boolean; nextPageCursor: string | null }>(
            `${RESTOCK}/groups?siteId=${siteId}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          ),
        (p) => p.signUpGroups,
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["restock", siteId] });
  const sendOne = useMutation({
    mutationFn: (g: SignUpGroup) =>
      post<{ count: number }>(`${RESTOCK}/send?siteId=${siteId}`, {
        productId: g.productId,
        variantId: g.variantId,
      }),
    onSuccess: (r) => {
      setSent(`Sent ${r.count} email${r.count === 1 ? "" : "s"}.`);
      void refresh();
    },
  });
  const ready = (groups.data ?? []).filter((g) => g.inStock);
  const sendAll = useMutation({
    mutationFn: () =>
      sendRestockNotifications(ready, (sendRequests) =>
        post<{ count: number }>(`${RESTOCK}/send/all?siteId=${siteId}`, { sendRequests }),
      ),
    onSuccess: (r) => {
      setSent(`Sent ${r.count} email${r.count === 1 ? "" : "s"}.`);
      void refresh();
    },
  });
  const total = (groups.data ?? []).reduce((n, g) => n + g.signUpCount, 0);
  return (
    <>
      <PageHead
        title="Restock requests"
        sub={
          groups.data
            ? `${total} shopper${total === 1 ? " is" : "s are"} waiting for sold-out variants.`
            : undefined
        }
        actions={
          <button
            type="button"
            className="btn primary"
            onClick={() => sendAll.mutate()}
            disabled={sendAll.isPending}
          >
            Send all back-in-stock emails
          </button>
        }
      />
      {sent ? <Notice kind="ok">{sent}</Notice> : null}
      <ErrorNotice error={sendOne.error ?? sendAll.error} />
      {groups.error ? <Unavailable what="Restock requests" error={groups.error} /> : null}
      {groups.isLoading ? <Loading /> : null}
      {groups.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Product and variant</th>
                <th className="num">Waiting</th>
                <th className="num">Stock</th>
                <th>
                  <span className="sr-only">Send</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {groups.data.map((g) => [
                <tr key={g.variantId}>
                  <td>
                    <Link to={`/sites/${siteId}/products/${g.productId}`}>{g.productTitle}</Link>
                    <div className="muted small">
                      {Object.values(g.attributes).join(" / ") || "Default"} · {g.sku}
                    </div>
                  </td>
                  <td className="num">
                    <button
                      type="button"
                      className="btn ghost small"
                      aria-expanded={open === g.variantId}
                      onClick={() => setOpen(open === g.variantId ? undefined : g.variantId)}
                    >
                      {g.signUpCount} waiting
                    </button>
                  </td>
                  <td className="num">{g.unlimited ? "Unlimited" : g.qtyInStock}</td>
                  <td className="num">
                    <button
                      type="button"
                      className="btn small"
                      disabled={!g.inStock || sendOne.isPending}
                      onClick={() => sendOne.mutate(g)}
                    >
                      Send to {g.signUpCount}
                    </button>
                  </td>
                </tr>,
                open === g.variantId ? (
                  <tr key={`${g.variantId}-list`}>
                    <td colSpan={4}>
                      <SignUps siteId={siteId} group={g} />
                    </td>
                  </tr>
                ) : null,
              ])}
            </tbody>
          </table>
          {!groups.data.length ? <p className="empty">Nobody is waiting for a restock.</p> : null}
        </div>
      ) : null}
      <p className="muted small" style={{ marginTop: "0.8rem" }}>
        Emails go only for variants back in stock. Restock a variant in{" "}
        <Link to={`/sites/${siteId}/inventory`}>Inventory</Link> first.
      </p>
    </>
  );
}

// ─── Site users ─────────────────────────────────────────────────────────────────────────────

interface SiteUserRow {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdOn: number;
  orderCount: number;
}

function SiteUsers() {
  const siteId = useSiteId();
  const [q, setQ] = useState("");
  // Cursors of the pages before the current one ("" = the first page), for "Previous page".
  const [cursors, setCursors] = useState<string[]>([]);
  const [cursor, setCursor] = useState("");
  const limit = 25;
  const users = useQuery({
    queryKey: ["site-users", siteId, q, cursor],
    queryFn: () =>
      get<{ siteUsers: SiteUserRow[]; nextCursor: string | null }>(
        `/api/owner/sites/${siteId}/site-users?limit=${limit}${q.trim() ? `&q=${encodeURIComponent(q.trim())}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      ),
    placeholderData: (p) => p,
  });
  const nextCursor = users.data?.nextCursor ?? null;
  return (
    <>
      <PageHead title="Site users" sub="Visitors who created an account on your site, newest first." />
      <div className="toolbar">
        <div className="field">
          <label htmlFor="site-user-search">Search site users</label>
          <input
            id="site-user-search"
            type="search"
            value={q}
            maxLength={200}
            placeholder="Email or name"
            onChange={(e) => {
              setQ(e.target.value);
              setCursor("");
              setCursors([]);
            }}
          />
        </div>
      </div>
      {users.error ? <Unavailable what="Site users" error={users.error} /> : null}
      {users.isLoading ? <Loading /> : null}
      {users.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th className="num">Orders</th>
                <th className="hide-phone">Joined</th>
              </tr>
            </thead>
            <tbody>
              {users.data.siteUsers.map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.firstName} {u.lastName}
                  </td>
                  <td>{u.email}</td>
                  <td className="num">{u.orderCount}</td>
                  <td className="hide-phone">{formatDate(u.createdOn)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!users.data.siteUsers.length ? (
            <p className="empty">{q.trim() ? "No site users match this search." : "No site users yet."}</p>
          ) : null}
          {cursors.length || nextCursor ? (
            <div className="pager" style={{ padding: "0.6rem 0.9rem" }}>
              <span className="muted small">Page {cursors.length + 1}</span>
              <span className="btn-row">
                <button
                  type="button"
                  className="btn small"
                  disabled={!cursors.length}
                  onClick={() => {
                    setCursor(cursors[cursors.length - 1] ?? "");
                    setCursors(cursors.slice(0, -1));
                  }}
                >
                  Previous page
                </button>
                <button
                  type="button"
                  className="btn small"
                  disabled={!nextCursor}
                  onClick={() => {
                    if (!nextCursor) return;
                    setCursors([...cursors, cursor]);
                    setCursor(nextCursor);
                  }}
                >
                  Next page
                </button>
              </span>
            </div>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

// ─── Outbox ─────────────────────────────────────────────────────────────────────────────────

interface Email {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  status: string;
  attempts: number;
  lastError: string | null;
  createdOn: number;
  sentOn: number | null;
}

function Outbox() {
  const siteId = useSiteId();
  const [status, setStatus] = useState("");
  const [open, setOpen] = useState<Email | undefined>();
  const emails = useQuery({
    queryKey: ["outbox", siteId, status],
    queryFn: () =>
      get<{ emails: Email[]; total: number }>(
        `/api/owner/sites/${siteId}/outbox?limit=100${status ? `&status=${status}` : ""}`,
      ),
  });
  return (
    <>
      <PageHead
        title="Email outbox"
        sub="Every email the site sent: order confirmations, form notifications, restock emails."
      />
      <div className="toolbar">
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => setStatus(v)}
          options={[
            { value: "", label: "All" },
            { value: "sent", label: "Sent" },
            { value: "kept", label: "Kept (no mail server)" },
            { value: "queued", label: "Queued" },
            { value: "failed", label: "Failed" },
          ]}
        />
      </div>
      {emails.error ? <Unavailable what="The outbox" error={emails.error} /> : null}
      {emails.isLoading ? <Loading /> : null}
      {emails.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Subject</th>
                <th className="hide-phone">To</th>
                <th>Status</th>
                <th className="hide-phone">When</th>
              </tr>
            </thead>
            <tbody>
              {emails.data.emails.map((e) => (
                <tr key={e.id}>
                  <td>
                    <button
                      type="button"
                      className="btn ghost small"
                      style={{ padding: 0, textAlign: "left", whiteSpace: "normal" }}
                      onClick={() => setOpen(e)}
                    >
                      {e.subject}
                    </button>
                  </td>
                  <td className="hide-phone">{e.to}</td>
                  <td>
                    <span
                      className={`badge ${e.status === "failed" ? "danger" : e.status === "sent" ? "ok" : ""}`}
                    >
                      {e.status}
                    </span>
                  </td>
                  <td className="hide-phone">{formatDate(e.sentOn ?? e.createdOn, true)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!emails.data.emails.length ? <p className="empty">No emails yet.</p> : null}
        </div>
      ) : null}
      {open ? (
        <Modal title={open.subject} onClose={() => setOpen(undefined)} wide>
          <p className="muted small">
            To {open.to} · {open.status}
            {open.lastError ? ` · ${open.lastError}` : ""}
          </p>
          {open.html ? (
            <iframe
              title="Email"
              sandbox=""
              srcDoc={open.html}
              style={{ width: "100%", height: 420, border: "1px solid var(--line)", borderRadius: 8 }}
            />
          ) : (
            <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit" }}>{open.text}</pre>
          )}
        </Modal>
      ) : null}
    </>
  );
}
