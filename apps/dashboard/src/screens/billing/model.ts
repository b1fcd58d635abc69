/** The billing panel's data: plans, subscription, previews and invoices, the subscription store of SPEC §4, and money text. */
import { FEATURE_NAMES, type FeatureCode } from "@atelier/owner-api";
export type Money = {
  value?: string | number;
  currency?: string;
  decimalValue?: string | number;
  currencyCode?: string;
};

export interface PlanView {
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

export interface Preview {
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

export interface Invoice {
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

export type Action =
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

export function amountOf(m: Money | undefined): { n: number; currency: string } {
  const raw = m?.decimalValue ?? m?.value ?? 0;
  return { n: Number(raw), currency: m?.currencyCode ?? m?.currency ?? "USD" };
}

export function formatMoney(m: Money | undefined): string {
  const { n, currency } = amountOf(m);
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(n);
}

const PERIOD: Record<string, string> = { MONTH: "month", YEAR: "year", WEEK: "week" };
export const periodText = (p: PlanView["billingPeriod"]) =>
  p.value === 1 ? PERIOD[p.unit] : `${p.value} ${PERIOD[p.unit]}s`;

export function featureList(plan: PlanView): string[] {
  const set = plan.featureSet;
  if (!set) return [];
  const names = set.enabledFeatures
    .map((f) => FEATURE_NAMES[f as FeatureCode])
    .filter((n): n is string => Boolean(n));
  const pages = set.limits.pages;
  return [pages ? `Up to ${pages} pages` : "Unlimited pages", ...names];
}

export const STATUS_BADGE: Record<Subscription["status"], [string, string]> = {
  trial: ["warn", "Trial"],
  active: ["ok", "Active"],
  cancelled: ["danger", "Cancelled"],
  expired: ["danger", "Expired"],
};

export const INVOICE_CSS =
  ".billing-invoices .show-phone{display:none}@media (max-width:520px){.billing-invoices .show-phone{display:block}}";

export const INVOICE_BADGE: Record<string, string> = { paid: "ok", credited: "accent", failed: "danger" };
