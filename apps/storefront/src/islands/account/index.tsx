/**
 * Island `account`: the site user's pages (SPEC §6, §7 site-user calls), one island for every
 * path under /account: sign in, register, forgotten and new password, the account overview,
 * orders and addresses. Props: { view?, token? }; without a view the path decides.
 */
import { formatMoney, parseSubscriptionPlan, subscriptionPriceText } from "@atelier/commerce";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { send } from "../form/http.js";
import { afterSignIn, failure, keepXsrfToken, signOut, signedIn, userCall } from "./session.js";
import { Alert, Page, TextInput } from "./ui.js";
import "./account.css";

export type View =
  | "login"
  | "register"
  | "forgot-password"
  | "reset-password"
  | "overview"
  | "orders"
  | "addresses";

const VIEWS: Record<string, View> = {
  "/account": "overview",
  "/account/login": "login",
  "/account/register": "register",
  "/account/forgot-password": "forgot-password",
  "/account/reset-password": "reset-password",
  "/account/orders": "orders",
  "/account/addresses": "addresses",
};

export function viewOf(path: string): View {
  return VIEWS[path.replace(/\/+$/, "") || "/account"] ?? "overview";
}

export interface AccountProps {
  view?: View;
  token?: string;
}

export default function AccountIsland(props: AccountProps) {
  const view = props.view ?? viewOf(window.location.pathname);
  switch (view) {
    case "login":
      return <SignIn />;
    case "register":
      return <Register />;
    case "forgot-password":
      return <ForgotPassword />;
    case "reset-password":
      return (
        <ResetPassword
          token={props.token ?? new URLSearchParams(window.location.search).get("token") ?? ""}
        />
      );
    default:
      return <Account view={view} />;
  }
}

function useBusy() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [fields, setFields] = useState<Record<string, string>>({});
  return { busy, setBusy, message, setMessage, fields, setFields };
}

function SignIn() {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    s.setBusy(true);
    s.setMessage(undefined);
    const answer = await send("/api/site-users/account/session", {
      method: "POST",
      body: { email, password, rememberMe },
    });
    if (answer.status === 200) {
      keepXsrfToken((answer.body as { xsrfToken: string }).xsrfToken);
      window.location.assign(afterSignIn());
      return;
    }
    s.setMessage(failure(answer).message);
    s.setBusy(false);
  }
  return (
    <Page title="Sign in">
      <form className="account-form" onSubmit={submit} noValidate>
        {s.message && <Alert>{s.message}</Alert>}
        <TextInput label="Email" type="email" autoComplete="email" value={email} onChange={setEmail} />
        <TextInput
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <label className="account-check">
          <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />{" "}
          Keep me signed in
        </label>
        <button className="button button-primary" type="submit" disabled={s.busy}>
          {s.busy ? "Signing in…" : "Sign in"}
        </button>
        <p className="account-links">
          <a href="/account/forgot-password">Forgot your password?</a>
          <a href={`/account/register${window.location.search}`}>Create an account</a>
        </p>
      </form>
    </Page>
  );
}

function Register() {
  const [form, setForm] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const s = useBusy();
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  async function submit(e: FormEvent) {
    e.preventDefault();
    s.setBusy(true);
    s.setMessage(undefined);
    const answer = await send("/api/site-users/account", { method: "POST", body: form });
    if (answer.status === 201) {
      keepXsrfToken((answer.body as { xsrfToken: string }).xsrfToken);
      window.location.assign(afterSignIn());
      return;
    }
    const f = failure(answer);
    s.setFields(f.fields);
    s.setMessage(f.message);
    s.setBusy(false);
  }
  return (
    <Page title="Create an account">
      <form className="account-form" onSubmit={submit} noValidate>
        {s.message && <Alert>{s.message}</Alert>}
        <div className="account-pair">
          <TextInput
            label="First name"
            autoComplete="given-name"
            required
            value={form.firstName}
            onChange={set("firstName")}
            error={s.fields.firstName}
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            required
            value={form.lastName}
            onChange={set("lastName")}
            error={s.fields.lastName}
          />
        </div>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set("email")}
          error={s.fields.email}
        />
        <TextInput
          label="Password (8 or more characters)"
          type="password"
          autoComplete="new-password"
          required
          value={form.password}
          onChange={set("password")}
          error={s.fields.password}
        />
        <button className="button button-primary" type="submit" disabled={s.busy}>
          {s.busy ? "Creating your account…" : "Create account"}
        </button>
        <p className="account-links">
          <a href={`/account/login${window.location.search}`}>Already have an account? Sign in</a>
        </p>
      </form>
    </Page>
  );
}

function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    s.setBusy(true);
    s.setMessage(undefined);
    const answer = await send("/api/site-users/account/password-reset", { method: "POST", body: { email } });
    s.setBusy(false);
    if (answer.status === 200) setSent(true);
    else {
      const f = failure(answer);
      s.setFields(f.fields);
      s.setMessage(f.fields.email ? undefined : f.message);
    }
  }
  return (
    <Page title="Reset your password">
      {sent ? (
        <Alert kind="success">
          If an account exists for {email}, we have emailed it a link to choose a new password.
        </Alert>
      ) : (
        <form className="account-form" onSubmit={submit} noValidate>
          <p>Enter the email of your account and we will send you a link to choose a new password.</p>
          {s.message && <Alert>{s.message}</Alert>}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={setEmail}
            error={s.fields.email}
          />
          <button className="button button-primary" type="submit" disabled={s.busy}>
            {s.busy ? "Sending…" : "Send reset link"}
          </button>
        </form>
      )}
      <p className="account-links">
        <a href="/account/login">Back to sign in</a>
      </p>
    </Page>
  );
}

function ResetPassword({ token }: { token: string }) {
  const [password, setPassword] = useState("");
  const [done, setDone] = useState(false);
  const s = useBusy();
  async function submit(e: FormEvent) {
    e.preventDefault();
    s.setBusy(true);
    s.setMessage(undefined);
    const answer = await send("/api/site-users/account/password-reset/confirm", {
      method: "POST",
      body: { token, password },
    });
    s.setBusy(false);
    if (answer.status === 200) {
      keepXsrfToken(null);
      setDone(true);
    } else {
      const f = failure(answer);
      s.setFields(f.fields);
      s.setMessage(f.fields.password ? undefined : f.message);
    }
  }
  return (
    <Page title="Choose a new password">
      {done ? (
        <>
          <Alert kind="success">Your password is changed. Sign in with your new password.</Alert>
          <p className="account-links">
            <a href="/account/login">Sign in</a>
          </p>
        </>
      ) : (
        <form className="account-form" onSubmit={submit} noValidate>
          {s.message && <Alert>{s.message}</Alert>}
          <TextInput
            label="New password (8 or more characters)"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={setPassword}
            error={s.fields.password}
          />
          <button className="button button-primary" type="submit" disabled={s.busy || !token}>
            {s.busy ? "Saving…" : "Save new password"}
          </button>
        </form>
      )}
    </Page>
  );
}

// ─── Signed in ───────────────────────────────────────────────────────────────────────────────

interface Address {
  id: string;
  firstName: string;
  lastName: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  phone: string;
}

interface Order {
  id: string;
  orderNumber: number;
  createdOn: number;
  status: string;
  currencyCode: string;
  subtotalCents: number;
  taxCents: number;
  shippingCents: number;
  discountCents: number;
  grandTotalCents: number;
  trackingNumber: string | null;
  lines: {
    productName: string;
    sku: string;
    quantity: number;
    unitPriceCents: number;
    attributes: Record<string, string>;
  }[];
}

interface Subscription {
  id: string;
  sku: string;
  priceCents: number;
  currencyCode: string;
  billingPeriod: { value: number; unit: string };
  numBillingCycles: number;
  status: string;
  nextBillingOn: number | null;
}

interface AccountData {
  account: { email: string; firstName: string; lastName: string };
  orders: Order[];
  addresses: Address[];
  subscriptions: Subscription[];
}

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

function Account({ view }: { view: View }) {
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

const ADDRESS_INPUTS: { key: keyof Omit<Address, "id">; label: string; auto: string; required?: boolean }[] =
  [
    { key: "firstName", label: "First name", auto: "given-name", required: true },
    { key: "lastName", label: "Last name", auto: "family-name", required: true },
    { key: "address1", label: "Address 1", auto: "address-line1", required: true },
    { key: "address2", label: "Address 2", auto: "address-line2" },
    { key: "city", label: "City", auto: "address-level2", required: true },
    { key: "state", label: "State/Province", auto: "address-level1" },
    { key: "postalCode", label: "ZIP/Postal code", auto: "postal-code", required: true },
    { key: "country", label: "Country", auto: "country-name", required: true },
    { key: "phone", label: "Phone", auto: "tel" },
  ];

const emptyAddress = (): Omit<Address, "id"> => ({
  firstName: "",
  lastName: "",
  address1: "",
  address2: "",
  city: "",
  state: "",
  postalCode: "",
  country: "",
  phone: "",
});

function Addresses({
  list,
  onChange,
  onSignedOut,
}: {
  list: Address[];
  onChange(list: Address[]): void;
  onSignedOut(): void;
}) {
  const [editing, setEditing] = useState<string | "new" | undefined>();
  const [draft, setDraft] = useState(emptyAddress);
  const s = useBusy();

  function edit(a?: Address) {
    setEditing(a ? a.id : "new");
    setDraft(a ? { ...a } : emptyAddress());
    s.setFields({});
    s.setMessage(undefined);
  }

  async function call(path: string, method: "POST" | "PUT" | "DELETE", body?: unknown) {
    s.setBusy(true);
    s.setMessage(undefined);
    const answer = await userCall(path, { method, body });
    s.setBusy(false);
    if (answer.status === 401 || answer.status === 403) return onSignedOut();
    if (answer.status >= 300) {
      const f = failure(answer);
      s.setFields(f.fields);
      s.setMessage(f.message);
      return;
    }
    onChange((answer.body as { addresses: Address[] }).addresses);
    setEditing(undefined);
  }

  function save(e: FormEvent) {
    e.preventDefault();
    const { id: _id, ...body } = draft as Address;
    if (editing === "new") void call("/api/site-users/account/addresses", "POST", body);
    else void call(`/api/site-users/account/addresses/${encodeURIComponent(editing!)}`, "PUT", body);
  }

  return (
    <div className="account-addresses">
      {list.length === 0 && !editing && <p className="account-empty">You have no saved addresses.</p>}
      <ul className="account-address-list">
        {list.map((a) => (
          <li key={a.id} className="account-address">
            <address>
              {a.firstName} {a.lastName}
              <br />
              {a.address1}
              {a.address2 && (
                <>
                  <br />
                  {a.address2}
                </>
              )}
              <br />
              {[a.city, a.state].filter(Boolean).join(", ")} {a.postalCode}
              <br />
              {a.country}
              {a.phone && (
                <>
                  <br />
                  {a.phone}
                </>
              )}
            </address>
            <div className="account-address-actions">
              <button type="button" className="button button-secondary" onClick={() => edit(a)}>
                Edit<span className="visually-hidden"> address {a.address1}</span>
              </button>
              <button
                type="button"
                className="button button-secondary"
                disabled={s.busy}
                onClick={() =>
                  call(`/api/site-users/account/addresses/${encodeURIComponent(a.id)}`, "DELETE")
                }
              >
                Remove<span className="visually-hidden"> address {a.address1}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {editing ? (
        <form className="account-form" onSubmit={save} noValidate>
          <h2>{editing === "new" ? "New address" : "Edit address"}</h2>
          {s.message && <Alert>{s.message}</Alert>}
          <div className="account-grid">
            {ADDRESS_INPUTS.map((i) => (
              <TextInput
                key={i.key}
                label={i.label}
                autoComplete={i.auto}
                required={i.required}
                value={draft[i.key]}
                onChange={(v) => setDraft((d) => ({ ...d, [i.key]: v }))}
                error={s.fields[i.key]}
              />
            ))}
          </div>
          <div className="account-actions">
            <button className="button button-primary" type="submit" disabled={s.busy}>
              {s.busy ? "Saving…" : "Save address"}
            </button>
            <button className="button button-secondary" type="button" onClick={() => setEditing(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="button button-primary" onClick={() => edit()}>
          Add an address
        </button>
      )}
    </div>
  );
}
