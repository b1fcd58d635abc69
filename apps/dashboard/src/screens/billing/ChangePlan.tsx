/** Changing plan: the plans side by side and a prorated preview before the owner confirms. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { ApiError, get, post, put } from "../../api.js";
import { ErrorNotice, Loading, formatDate, useSiteId } from "../../components/ui.js";
import type { BillingPlan, BillingSubscription, PlanChangeInvoice } from "@atelier/owner-api";
import { amountOf, featureList, formatMoney, periodText } from "./model.js";

export function ChangePlan({
  sub,
  base,
  mode,
  onChanged,
  reload,
}: {
  sub: BillingSubscription;
  base: string;
  mode: "upgrade" | "change-plan" | null;
  onChanged: (s: BillingSubscription) => void;
  reload: () => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const siteId = useSiteId();
  const plans = useQuery({
    queryKey: ["billing-plans", base],
    queryFn: () => get<{ plans: BillingPlan[] }>(`${base}/plans`).then((r) => r.plans),
  });
  const chosen = sub.pendingPlan?.id ?? null;
  const preview = useQuery({
    queryKey: ["billing-preview", base, sub.id, chosen],
    queryFn: () =>
      get<{ invoice: PlanChangeInvoice }>(
        `${base}/subscriptions/${sub.id}/plan-change/${chosen}/preview`,
      ).then((r) => r.invoice),
    enabled: Boolean(chosen),
    staleTime: 0,
  });
  const stage = useMutation({
    mutationFn: (planId: string) =>
      put<{ subscription: BillingSubscription }>(`${base}/subscriptions/${sub.id}/plan-change/${planId}`),
    onSuccess: (r) => onChanged(r.subscription),
  });
  const drop = useMutation({
    mutationFn: () =>
      post<{ subscription: BillingSubscription }>(`${base}/subscriptions/${sub.id}/plan-change/cancel`),
    onSuccess: (r) => onChanged(r.subscription),
  });
  const confirm = useMutation({
    mutationFn: () =>
      post<{ subscription: BillingSubscription }>(
        `${base}/subscriptions/${sub.id}/plan-change/${chosen}/confirm`,
      ),
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
