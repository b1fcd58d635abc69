/**
 * The billing panel's data: the subscription store of SPEC §4 and money text. The answers it reads
 * (plans, subscription, plan-change previews, invoices) are typed in @atelier/owner-api.
 */
import type { Money } from "@atelier/commerce";
import {
  type BillingPlan,
  type BillingSubscription,
  FEATURE_NAMES,
  type FeatureCode,
} from "@atelier/owner-api";

// ─── The subscription store (SPEC §4) ───────────────────────────────────────────────────────

export interface SubscriptionState {
  subscriptions: BillingSubscription[];
  loading: boolean;
  updating: boolean;
  cancelling: boolean;
  completedCancel: boolean;
  fetchError: string | null;
  iapCancellationError: string | null;
  cancelMessage: string | null;
}

export type Action =
  | { type: "fetch" }
  | { type: "fetched"; subscriptions: BillingSubscription[] }
  | { type: "fetchFailed"; error: string }
  | { type: "update" }
  | { type: "updated"; subscription: BillingSubscription }
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

export function amountOf(m: Money | undefined): { n: number; currency: string } {
  if (!m) return { n: 0, currency: "USD" };
  return "value" in m
    ? { n: Number(m.value), currency: m.currency }
    : { n: Number(m.decimalValue), currency: m.currencyCode };
}

export function formatMoney(m: Money | undefined): string {
  const { n, currency } = amountOf(m);
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(n);
}

const PERIOD: Record<string, string> = { MONTH: "month", YEAR: "year", WEEK: "week" };
export const periodText = (p: BillingPlan["billingPeriod"]) =>
  p.value === 1 ? PERIOD[p.unit] : `${p.value} ${PERIOD[p.unit]}s`;

export function featureList(plan: BillingPlan): string[] {
  const set = plan.featureSet;
  if (!set) return [];
  const names = set.enabledFeatures
    .map((f) => FEATURE_NAMES[f as FeatureCode])
    .filter((n): n is string => Boolean(n));
  const pages = set.limits.pages;
  return [pages ? `Up to ${pages} pages` : "Unlimited pages", ...names];
}

export const STATUS_BADGE: Record<BillingSubscription["status"], [string, string]> = {
  trial: ["warn", "Trial"],
  active: ["ok", "Active"],
  cancelled: ["danger", "Cancelled"],
  expired: ["danger", "Expired"],
};

export const INVOICE_CSS =
  ".billing-invoices .show-phone{display:none}@media (max-width:520px){.billing-invoices .show-phone{display:block}}";

export const INVOICE_BADGE: Record<string, string> = { paid: "ok", credited: "accent", failed: "danger" };
