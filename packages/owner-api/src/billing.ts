import type { Money, NextAction } from "@atelier/commerce";

/** The features a plan's feature set enables, by code, and their names as owners read them. */
export const Feature = {
  COMMERCE: 10,
  COMMERCE_SUBSCRIPTIONS: 42,
  AMAZON_BLOCK: 21,
  DONATION_BLOCK: 22,
  MENU_BLOCK: 23,
  OPENTABLE_BLOCK: 24,
  MEMBER_AREAS: 50,
  CUSTOM_CODE: 30,
} as const;

export type FeatureCode = (typeof Feature)[keyof typeof Feature];

export const FEATURE_NAMES: Record<FeatureCode, string> = {
  [Feature.COMMERCE]: "Online store",
  [Feature.COMMERCE_SUBSCRIPTIONS]: "Product subscriptions",
  [Feature.AMAZON_BLOCK]: "Amazon block",
  [Feature.DONATION_BLOCK]: "Donation block",
  [Feature.MENU_BLOCK]: "Menu block",
  [Feature.OPENTABLE_BLOCK]: "OpenTable block",
  [Feature.CUSTOM_CODE]: "Custom code",
  [Feature.MEMBER_AREAS]: "Member areas",
};

/** The card the site's plan is paid with, as GET /api/owner/sites/:siteId/billing/payment-info answers it. */
export interface PaymentInfo {
  cardLast4: string;
  expMonth: number;
  expYear: number;
  /** ISO 3166 alpha-2 code of the billing address; the plan's tax follows it. */
  billingCountry: string | null;
  updatedAt: number;
}

/**
 * What saving a card answers: the saved card (null while none is kept yet), or, for a card whose
 * bank asks for 3-D Secure, the card still saved before and the step to take before confirming.
 */
export interface PaymentInfoAnswer {
  paymentInfo: PaymentInfo | null;
  authentication?: { nextAction: NextAction };
}

/*
 * The billing panel's answers (GET/PUT/POST /api/owner/sites/:siteId/billing/…). Amounts are the
 * SPEC's Money: {value, currency} when the site's CLDR money format setting is on, else
 * {decimalValue, currencyCode}. Times are epoch milliseconds.
 */

/** A plan the site can be on (GET …/plans, and a subscription's plan). */
export interface BillingPlan {
  id: string;
  planDisplayName: string;
  productLine: string;
  price: Money;
  basePrice: Money;
  /** Unit MONTH, YEAR or WEEK. */
  billingPeriod: { value: number; unit: string };
  featureSet: {
    id: string;
    name: string;
    enabledFeatures: number[];
    /** Feature limits by name; a missing limit means unlimited. */
    limits: Record<string, number>;
  } | null;
}

/** The site's subscription to a plan (GET …/subscriptions, and every change to one). */
export interface BillingSubscription {
  id: string;
  type: string;
  status: "trial" | "active" | "cancelled" | "expired";
  pastDue: boolean;
  autoRenew: boolean;
  plan: BillingPlan;
  /** A staged plan change, until it is confirmed or cancelled. */
  pendingPlan: { id: string; planDisplayName: string } | null;
  nextChargeAmount: Money;
  nextChargeTax: Money;
  /** Failed charges of the renewal due now; the next try is at retryAt. */
  renewalAttempts: number;
  /** Past due: when the renewal is tried again. */
  retryAt: number | null;
  nextChargeAt: number | null;
  creditBalance: Money;
  periodStart: number | null;
  periodEnd: number | null;
  trialEndsAt: number | null;
  cancelledAt: number | null;
  /** When the site stops being online unless something changes. */
  expiresAt: number | null;
  createdOn: number;
  billingMessageType: string | null;
  message: string | null;
  activeAndSubscribed: boolean;
  commercePlan: boolean;
  siteStatus: number;
  billingStatus: number;
  websiteType: number;
}

/** What a plan change costs now (its preview, and the invoice its confirmation records, with its id). */
export interface PlanChangeInvoice {
  /** Set once the change is confirmed. */
  id?: string;
  total: Money;
  subtotal: Money;
  tax: Money;
  creditApplied: Money;
  proration: {
    periodStart: number;
    periodEnd: number;
    remainingDays: number;
    fractionRemaining: number;
    unusedCredit: Money;
    newPlanCharge: Money;
  };
  lines: { description: string; amount: Money }[];
  fromPlan: { id: string; planDisplayName: string };
  toPlan: { id: string; planDisplayName: string; price: Money };
  nextChargeAmount: Money;
  nextChargeAt: number;
}

/** One of the site's invoices, newest first (GET …/invoices). */
export interface BillingInvoice {
  id: string;
  subscriptionId: string | null;
  description: string;
  status: string;
  subtotal: Money;
  tax: Money;
  total: Money;
  cardLast4: string | null;
  issuedAt: number;
  paidAt: number | null;
}
