import type { BillingSubscription } from "@atelier/owner-api";
import { useCallback, useEffect, useReducer } from "react";
import { Link, useLocation } from "react-router";
import { get } from "../api.js";
import { errorText } from "../components/form/index.js";
import { Loading, Notice, PageHead, formatDate, useSite, useSiteId } from "../components/ui.js";
import { SampleProductsWarning } from "./SetupGuide.js";
import { PaymentInfoCard } from "./billing/PaymentInfoCard.js";
import { ChangePlan } from "./billing/ChangePlan.js";
import { CurrentPlan } from "./billing/CurrentPlan.js";
import { Invoices } from "./billing/Invoices.js";
import { initialSubscriptionState, subscriptionReducer } from "./billing/model.js";

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
      const r = await get<{ results: BillingSubscription[] }>(`${base}/subscriptions?type=website`);
      dispatch({ type: "fetched", subscriptions: r.results });
    } catch (err) {
      dispatch({ type: "fetchFailed", error: errorText(err) });
    }
  }, [base]);
  useEffect(() => {
    void load();
  }, [load]);

  const sub = state.subscriptions[0];
  const onChanged = (s: BillingSubscription) => dispatch({ type: "updated", subscription: s });

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
      <SampleProductsWarning siteId={siteId} />
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

function StatusMessage({ sub, siteId }: { sub: BillingSubscription; siteId: string }) {
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
