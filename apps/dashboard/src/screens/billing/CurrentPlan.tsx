/** The current plan card: price, next charge with tax, auto-renew and cancel. */
import type { BillingSubscription } from "@atelier/owner-api";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { del, put } from "../../api.js";
import { CheckboxField } from "../../components/form/index.js";
import { ErrorNotice, Modal, formatDate } from "../../components/ui.js";
import {
  type Action,
  STATUS_BADGE,
  type SubscriptionState,
  amountOf,
  formatMoney,
  periodText,
} from "./model.js";

export function CurrentPlan({
  sub,
  base,
  state,
  dispatch,
  siteId,
}: {
  sub: BillingSubscription;
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
      const r = await put<{ subscription: BillingSubscription }>(
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
