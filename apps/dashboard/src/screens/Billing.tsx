/**
 * The billing panel (SPEC §2): the site's plan and its price, the billing message, the next
 * charge with tax, auto-renew, cancel, plan change (with a prorated preview), payment info and
 * invoices. The subscription store flags of SPEC §4 (loading, updating, cancelling, completed
 * cancel, fetch error, in-app-purchase cancellation error) drive what the panel shows.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { ApiError, del, get, post, put } from "../api.js";
import {
  ErrorNotice,
  Loading,
  Modal,
  Notice,
  PageHead,
  formatDate,
  useSite,
  useSiteId,
} from "../components/ui.js";
import { CheckboxField, errorText } from "../components/form/index.js";
import { PaymentInfoCard } from "./billing/PaymentInfoCard.js";

type Money = {
  value?: string | number;
  currency?: string;
  decimalValue?: string | number;
  currencyCode?: string;
};

interface PlanView {
  id: string;
  planDisplayName: string;
  price: Money;
  basePrice: Money;
  billingPeriod: { value: number; unit: string };
  featureSet: { id: string; name: string; enabledFeatures: number[]; limits: Record<string, number> } | null;
}

export interface Subscription {
  id: string;
  type: string;
  status: "trial" | "active" | "cancelled" | "expired";
  pastDue: boolean;
  autoRenew: boolean;
  plan: PlanView;
  pendingPlan: { id: string; planDisplayName: string } | null;
  nextChargeAmount: Money;
  nextChargeTax: Money;
  nextChargeAt: number | null;
  creditBalance: Money;
  trialEndsAt: number | null;
  expiresAt: number | null;
  billingMessageType: string | null;
  message: string | null;
  /** Past due: when the renewal is tried again. */
  retryAt?: number | null;
}

interface Preview {
  total: Money;
  subtotal: Money;
  tax: Money;
  creditApplied: Money;
  proration: { remainingDays: number; unusedCredit: Money; newPlanCharge: Money };
  lines: { description: string; amount: Money }[];
  toPlan: { id: string; planDisplayName: string };
  nextChargeAmount: Money;
  nextChargeAt: number;
}

interface Invoice {
  id: string;
  description: string;
  status: string;
  subtotal: Money;
  tax: Money;
  total: Money;
  cardLast4: string | null;
  issuedAt: number;
}

// ─── The subscription store (SPEC §4) ───────────────────────────────────────────────────────

export interface SubscriptionState {
  subscriptions: Subscription[];
  loading: boolean;
  updating: boolean;
  cancelling: boolean;
  completedCancel: boolean;
  fetchError: string | null;
  iapCancellationError: string | null;
  cancelMessage: string | null;
}

type Action =
  | { type: "fetch" }
  | { type: "fetched"; subscriptions: Subscription[] }
  | { type: "fetchFailed"; error: string }
  | { type: "update" }
  | { type: "updated"; subscription: Subscription }
  | { type: "updateFailed" }
  | { type: "cancel" }
  | { type: "cancelled"; id: string; message: string }
  | { type: "cancelFailed" }
  | { type: "iapFailed"; error: string }
  | { type: "dismissIap" };

export const initialSubscriptionState: SubscriptionState = {
  subscriptions: [],
  loading: true,
  updating: false,
  cancelling: false,
  completedCancel: false,
  fetchError: null,
  iapCancellationError: null,
  cancelMessage: null,
};

export function subscriptionReducer(state: SubscriptionState, action: Action): SubscriptionState {
  switch (action.type) {
    case "fetch":
      return { ...state, loading: true, fetchError: null };
    case "fetched":
      return { ...state, loading: false, subscriptions: action.subscriptions };
    case "fetchFailed":
      return { ...state, loading: false, fetchError: action.error };
    case "update":
      return { ...state, updating: true };
    case "updated":
      return {
        ...state,
        updating: false,
        subscriptions: state.subscriptions.map((s) =>
          s.id === action.subscription.id ? action.subscription : s,
        ),
      };
    case "updateFailed":
      return { ...state, updating: false };
    // Cancel starts cancelling; success completes it and removes the subscription; failure resets it.
    case "cancel":
      return { ...state, cancelling: true, completedCancel: false };
    case "cancelled":
      return {
        ...state,
        cancelling: false,
        completedCancel: true,
        cancelMessage: action.message,
        subscriptions: state.subscriptions.filter((s) => s.id !== action.id),
      };
    case "cancelFailed":
      return { ...state, cancelling: false };
    case "iapFailed":
      return { ...state, iapCancellationError: action.error };
    case "dismissIap":
      return { ...state, iapCancellationError: null };
  }
}

// ─── Formatting ─────────────────────────────────────────────────────────────────────────────

function amountOf(m: Money | undefined): { n: number; currency: string } {
  const raw = m?.decimalValue ?? m?.value ?? 0;
  return { n: Number(raw), currency: m?.currencyCode ?? m?.currency ?? "USD" };
}

export function formatMoney(m: Money | undefined): string {
  const { n, currency } = amountOf(m);
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(n);
}

const PERIOD: Record<string, string> = { MONTH: "month", YEAR: "year", WEEK: "week" };
const periodText = (p: PlanView["billingPeriod"]) =>
  p.value === 1 ? PERIOD[p.unit] : `${p.value} ${PERIOD[p.unit]}s`;

const FEATURE_NAMES: Record<number, string> = {
  10: "Online store",
  42: "Product subscriptions",
  21: "Amazon block",
  22: "Donation block",
  23: "Menu block",
  24: "OpenTable block",
  30: "Custom code",
  50: "Member areas",
};

function featureList(plan: PlanView): string[] {
  const set = plan.featureSet;
  if (!set) return [];
  const names = set.enabledFeatures.map((f) => FEATURE_NAMES[f]).filter((n): n is string => Boolean(n));
  const pages = set.limits.pages;
  return [pages ? `Up to ${pages} pages` : "Unlimited pages", ...names];
}

const STATUS_BADGE: Record<Subscription["status"], [string, string]> = {
  trial: ["warn", "Trial"],
  active: ["ok", "Active"],
  cancelled: ["danger", "Cancelled"],
  expired: ["danger", "Expired"],
};

const INVOICE_CSS =
  ".billing-invoices .show-phone{display:none}@media (max-width:520px){.billing-invoices .show-phone{display:block}}";

const INVOICE_BADGE: Record<string, string> = { paid: "ok", credited: "accent", failed: "danger" };

// ─── The screen ─────────────────────────────────────────────────────────────────────────────

export function Billing() {
  const siteId = useSiteId();
  const site = useSite();
  const location = useLocation();
  const base = `/api/owner/sites/${siteId}/billing`;
  const [state, dispatch] = useReducer(subscriptionReducer, initialSubscriptionState);
  const mode = location.pathname.endsWith("/billing/upgrade")
    ? "upgrade"
    : location.pathname.endsWith("/website/change-plan")
      ? "change-plan"
      : null;

  const load = useCallback(async () => {
    dispatch({ type: "fetch" });
    try {
      const r = await get<{ results: Subscription[] }>(`${base}/subscriptions?type=website`);
      dispatch({ type: "fetched", subscriptions: r.results });
    } catch (err) {
      dispatch({ type: "fetchFailed", error: errorText(err) });
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const sub = state.subscriptions[0];
  const onChanged = (s: Subscription) => dispatch({ type: "updated", subscription: s });

  return (
    <>
      <PageHead
        title="Billing"
        sub={site.data?.title}
        actions={
          sub && (sub.status === "trial" || sub.status === "expired") && mode !== "upgrade" ? (
            <Link className="btn accent" to={`/sites/${siteId}/settings/billing/billing/upgrade`}>
              Upgrade
            </Link>
          ) : null
        }
      />
      {state.loading && !state.subscriptions.length ? <Loading what="Loading your subscription" /> : null}
      {state.fetchError ? (
        <Notice kind="error">
          Your subscription could not be loaded: {state.fetchError}{" "}
          <button type="button" className="btn small" onClick={() => void load()}>
            Try again
          </button>
        </Notice>
      ) : null}
      {state.completedCancel ? (
        <Notice kind="ok">
          <strong>Subscription cancelled.</strong> {state.cancelMessage}
        </Notice>
      ) : null}
      {state.iapCancellationError ? (
        <Notice kind="error">
          {state.iapCancellationError}{" "}
          <button type="button" className="btn small" onClick={() => dispatch({ type: "dismissIap" })}>
            Dismiss
          </button>
        </Notice>
      ) : null}
      {sub ? (
        <>
          <StatusMessage sub={sub} siteId={siteId} />
          <CurrentPlan sub={sub} base={base} state={state} dispatch={dispatch} siteId={siteId} />
          {mode || sub.pendingPlan ? (
            <ChangePlan sub={sub} base={base} mode={mode} onChanged={onChanged} reload={load} />
          ) : null}
        </>
      ) : null}
      <PaymentInfoCard base={base} />
      <Invoices base={base} />
    </>
  );
}

function StatusMessage({ sub, siteId }: { sub: Subscription; siteId: string }) {
  if (sub.status === "trial") {
    return (
      <Notice kind="warn">
        <strong>Your free trial ends on {formatDate(sub.trialEndsAt)}.</strong> {sub.message}{" "}
        <Link to={`/sites/${siteId}/settings/billing/billing/upgrade`}>Upgrade now</Link>
      </Notice>
    );
  }
  if (!sub.message) return null;
  const kind = sub.status === "expired" || sub.pastDue ? "error" : sub.status === "cancelled" ? "warn" : "ok";
  return (
    <Notice kind={kind}>
      {sub.message}
      {sub.status === "cancelled" && sub.expiresAt
        ? ` It was cancelled and stays online until ${formatDate(sub.expiresAt)}.`
        : ""}
      {sub.pastDue && sub.status !== "expired"
        ? ` We could not charge your card for the renewal${
            sub.retryAt ? `; we will try again on ${formatDate(sub.retryAt)}` : ""
          }. Update your card in Payment info to pay now.`
        : ""}
    </Notice>
  );
}

function CurrentPlan({
  sub,
  base,
  state,
  dispatch,
  siteId,
}: {
  sub: Subscription;
  base: string;
  state: SubscriptionState;
  dispatch: (a: Action) => void;
  siteId: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const queryClient = useQueryClient();
  const [badgeKind, badgeText] = STATUS_BADGE[sub.status];
  const discounted = amountOf(sub.plan.basePrice).n > amountOf(sub.plan.price).n;

  const toggle = async (on: boolean) => {
    dispatch({ type: "update" });
    setError(null);
    try {
      const r = await put<{ subscription: Subscription }>(
        `${base}/subscriptions/${sub.id}/auto-renew/${on ? "enable" : "disable"}`,
      );
      dispatch({ type: "updated", subscription: r.subscription });
    } catch (err) {
      dispatch({ type: "updateFailed" });
      setError(err);
    }
  };
  const cancel = async () => {
    dispatch({ type: "cancel" });
    setError(null);
    try {
      const r = await del<{ message: string }>(`${base}/subscriptions/${sub.id}`);
      setConfirming(false);
      dispatch({ type: "cancelled", id: sub.id, message: r.message });
      void queryClient.invalidateQueries({ queryKey: ["billing-invoices", base] });
    } catch (err) {
      dispatch({ type: "cancelFailed" });
      setError(err);
    }
  };
  const ended = sub.status === "expired";

  return (
    <section className="card" aria-labelledby="plan-title">
      <div className="btn-row" style={{ justifyContent: "space-between", alignItems: "flex-start" }}>
        <div>
          <p className="muted small" style={{ margin: 0 }}>
            Current plan
          </p>
          <h2 id="plan-title" style={{ margin: "0.15rem 0 0.3rem" }}>
            {sub.plan.planDisplayName} <span className={`badge ${badgeKind}`}>{badgeText}</span>
          </h2>
          <p style={{ margin: 0, fontSize: "1.25rem", fontWeight: 600 }} data-testid="plan-price">
            {formatMoney(sub.plan.price)}
            <span className="muted" style={{ fontSize: "0.95rem", fontWeight: 400 }}>
              {" "}
              / {periodText(sub.plan.billingPeriod)}
            </span>
            {discounted ? (
              <s className="muted" style={{ fontSize: "0.95rem", fontWeight: 400, marginLeft: 8 }}>
                {formatMoney(sub.plan.basePrice)}
              </s>
            ) : null}
          </p>
        </div>
        <div className="btn-row">
          <Link className="btn" to={`/sites/${siteId}/settings/billing/billing/website/change-plan`}>
            Change plan
          </Link>
          {sub.status === "active" || sub.status === "trial" ? (
            <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
              Cancel subscription
            </button>
          ) : null}
        </div>
      </div>
      <dl className="grid-2" style={{ margin: "1rem 0 0.6rem" }}>
        <div>
          <dt className="muted small">Next charge</dt>
          <dd style={{ margin: 0 }} data-testid="next-charge">
            {sub.nextChargeAt
              ? `${formatMoney(sub.nextChargeAmount)} + ${formatMoney(sub.nextChargeTax)} tax on ${formatDate(sub.nextChargeAt)}`
              : sub.expiresAt && !ended
                ? `None: the ${sub.status === "trial" ? "trial" : "plan"} ends on ${formatDate(sub.expiresAt)}`
                : "None"}
          </dd>
        </div>
        {amountOf(sub.creditBalance).n > 0 ? (
          <div>
            <dt className="muted small">Credit balance</dt>
            <dd style={{ margin: 0 }}>{formatMoney(sub.creditBalance)}, taken off your next charges</dd>
          </div>
        ) : null}
      </dl>
      {!ended ? (
        <CheckboxField
          label={state.updating ? "Auto-renew (saving…)" : "Auto-renew"}
          help={
            sub.autoRenew
              ? "The plan renews automatically at the end of each period."
              : sub.status === "trial"
                ? "Choose a plan to keep the site online after the trial."
                : "The plan will not renew: the site expires at the end of the period."
          }
          value={sub.autoRenew}
          disabled={state.updating || (sub.status === "trial" && !sub.autoRenew)}
          onChange={(on) => void toggle(on)}
        />
      ) : null}
      <ErrorNotice error={error} />
      {confirming ? (
        <Modal
          title="Cancel subscription?"
          onClose={() => (state.cancelling ? undefined : setConfirming(false))}
          footer={
            <div className="btn-row">
              <button
                type="button"
                className="btn danger"
                disabled={state.cancelling}
                onClick={() => void cancel()}
              >
                {state.cancelling ? "Cancelling…" : "Yes, cancel subscription"}
              </button>
              <button
                type="button"
                className="btn"
                onClick={() => setConfirming(false)}
                disabled={state.cancelling}
              >
                Keep subscription
              </button>
            </div>
          }
        >
          <p>
            Your {sub.plan.planDisplayName} plan will not renew. Nothing is refunded: the site stays online
            until <strong>{formatDate(sub.expiresAt ?? sub.nextChargeAt)}</strong>, then it expires and
            visitors no longer see it.
          </p>
          <p className="muted">You can turn auto-renew back on before then to keep the subscription.</p>
          <ErrorNotice error={error} />
        </Modal>
      ) : null}
    </section>
  );
}

function ChangePlan({
  sub,
  base,
  mode,
  onChanged,
  reload,
}: {
  sub: Subscription;
  base: string;
  mode: "upgrade" | "change-plan" | null;
  onChanged: (s: Subscription) => void;
  reload: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const siteId = useSiteId();
  const plans = useQuery({
    queryKey: ["billing-plans", base],
    queryFn: () => get<{ plans: PlanView[] }>(`${base}/plans`).then((r) => r.plans),
  });
  const chosen = sub.pendingPlan?.id ?? null;
  const preview = useQuery({
    queryKey: ["billing-preview", base, sub.id, chosen],
    queryFn: () =>
      get<{ invoice: Preview }>(`${base}/subscriptions/${sub.id}/plan-change/${chosen}/preview`).then(
        (r) => r.invoice,
      ),
    enabled: Boolean(chosen),
    staleTime: 0,
  });
  const stage = useMutation({
    mutationFn: (planId: string) =>
      put<{ subscription: Subscription }>(`${base}/subscriptions/${sub.id}/plan-change/${planId}`),
    onSuccess: (r) => onChanged(r.subscription),
  });
  const drop = useMutation({
    mutationFn: () =>
      post<{ subscription: Subscription }>(`${base}/subscriptions/${sub.id}/plan-change/cancel`),
    onSuccess: (r) => onChanged(r.subscription),
  });
  const confirm = useMutation({
    mutationFn: () =>
      post<{ subscription: Subscription }>(`${base}/subscriptions/${sub.id}/plan-change/${chosen}/confirm`),
    onSuccess: (r) => {
      onChanged(r.subscription);
      void queryClient.invalidateQueries({ queryKey: ["billing-invoices", base] });
      void queryClient.invalidateQueries({ queryKey: ["site", siteId] });
      navigate(`/sites/${siteId}/settings/billing`);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) void reload();
    },
  });
  const busy = stage.isPending || drop.isPending || confirm.isPending;

  return (
    <section className="card" aria-labelledby="change-title">
      <h2 id="change-title">{mode === "upgrade" ? "Upgrade your site" : "Change plan"}</h2>
      {mode === "upgrade" && sub.status === "trial" ? (
        <p className="muted">
          Choose the plan to keep your site online after the trial ends on {formatDate(sub.trialEndsAt)}. The
          new period starts today.
        </p>
      ) : (
        <p className="muted">
          Plans change at once. You are charged for the rest of this period on the new plan, minus what is
          left of the current one; a cheaper plan leaves a credit for the next charges.
        </p>
      )}
      {plans.isLoading ? <Loading what="Loading plans" /> : null}
      <ErrorNotice error={plans.error} />
      <div className="card-grid" style={{ marginBottom: "1rem" }}>
        {plans.data?.map((p) => {
          const current = p.id === sub.plan.id;
          const picked = p.id === chosen;
          return (
            <article
              key={p.id}
              className="card"
              aria-label={`${p.planDisplayName} plan`}
              style={{
                margin: 0,
                display: "flex",
                flexDirection: "column",
                borderColor: picked ? "var(--accent)" : undefined,
                boxShadow: picked ? "0 0 0 2px var(--accent)" : undefined,
              }}
            >
              <h3 style={{ margin: "0 0 0.3rem" }}>
                {p.planDisplayName} {current ? <span className="badge ok">Current</span> : null}
              </h3>
              <p style={{ margin: "0 0 0.6rem", fontSize: "1.15rem", fontWeight: 600 }}>
                {formatMoney(p.price)}
                <span className="muted" style={{ fontWeight: 400, fontSize: "0.9rem" }}>
                  {" "}
                  / {periodText(p.billingPeriod)}
                </span>
              </p>
              <ul style={{ paddingLeft: "1.1rem", margin: "0 0 0.9rem", flex: 1 }}>
                {featureList(p).map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
              {current ? (
                <button type="button" className="btn" disabled>
                  Your plan
                </button>
              ) : (
                <button
                  type="button"
                  className={picked ? "btn primary" : "btn"}
                  disabled={busy || picked}
                  onClick={() => stage.mutate(p.id)}
                >
                  {picked ? "Selected" : `Choose ${p.planDisplayName}`}
                </button>
              )}
            </article>
          );
        })}
      </div>
      <ErrorNotice error={stage.error ?? drop.error} />
      {chosen ? (
        <div aria-live="polite">
          <h3>Change to {sub.pendingPlan?.planDisplayName}</h3>
          {preview.isLoading ? <Loading what="Calculating" /> : null}
          <ErrorNotice error={preview.error} />
          {preview.data ? (
            <div className="table-wrap" style={{ marginBottom: "0.8rem" }}>
              <table className="data">
                <tbody>
                  {preview.data.lines.map((l) => (
                    <tr key={l.description}>
                      <td>{l.description}</td>
                      <td className="num">{formatMoney(l.amount)}</td>
                    </tr>
                  ))}
                  <tr>
                    <td>Tax</td>
                    <td className="num">{formatMoney(preview.data.tax)}</td>
                  </tr>
                  <tr>
                    <td>
                      <strong>
                        {amountOf(preview.data.total).n < 0 ? "Credit to your account" : "Due today"}
                      </strong>
                    </td>
                    <td className="num" data-testid="preview-total">
                      <strong>{formatMoney(preview.data.total)}</strong>
                    </td>
                  </tr>
                </tbody>
              </table>
            </div>
          ) : null}
          {preview.data ? (
            <p className="muted small">
              Then {formatMoney(preview.data.nextChargeAmount)} on {formatDate(preview.data.nextChargeAt)}.
              {amountOf(preview.data.total).n > 0
                ? " The amount due today is charged to your saved card."
                : ""}
            </p>
          ) : null}
          <ErrorNotice error={confirm.error} />
          <div className="btn-row">
            <button
              type="button"
              className="btn primary"
              disabled={busy || !preview.data}
              onClick={() => confirm.mutate()}
            >
              {confirm.isPending ? "Confirming…" : "Confirm plan change"}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => drop.mutate()}>
              Keep {sub.plan.planDisplayName}
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

function Invoices({ base }: { base: string }) {
  const invoices = useQuery({
    queryKey: ["billing-invoices", base],
    queryFn: () => get<{ invoices: Invoice[] }>(`${base}/invoices`).then((r) => r.invoices),
  });
  return (
    <section className="card" aria-labelledby="invoices-title">
      <h2 id="invoices-title">Invoices</h2>
      {invoices.isLoading ? <Loading /> : null}
      <ErrorNotice error={invoices.error} />
      {invoices.data && !invoices.data.length ? <p className="muted">No invoices yet.</p> : null}
      {invoices.data?.length ? (
        <div className="table-wrap billing-invoices">
          {/* On phones the date goes under the description, so the totals stay in view. */}
          <style>{INVOICE_CSS}</style>
          <table className="data">
            <thead>
              <tr>
                <th className="hide-phone">Date</th>
                <th>Description</th>
                <th>Status</th>
                <th className="num hide-phone">Tax</th>
                <th className="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.map((i) => (
                <tr key={i.id}>
                  <td className="nowrap hide-phone">{formatDate(i.issuedAt)}</td>
                  <td>
                    <span className="muted small show-phone">{formatDate(i.issuedAt)}</span>
                    {i.description}
                    {i.cardLast4 ? (
                      <span className="muted small hide-phone"> · card •••• {i.cardLast4}</span>
                    ) : null}
                  </td>
                  <td>
                    <span className={`badge ${INVOICE_BADGE[i.status] ?? ""}`}>
                      {i.status.charAt(0).toUpperCase() + i.status.slice(1)}
                    </span>
                  </td>
                  <td className="num hide-phone">{formatMoney(i.tax)}</td>
                  <td className="num nowrap">{formatMoney(i.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
