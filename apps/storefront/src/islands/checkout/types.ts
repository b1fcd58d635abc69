/** What the checkout calls answer: the quote (cart with totals and options) and the order. */
import type { CheckoutTotals, NextAction } from "@atelier/commerce";
import type { CheckoutForm } from "./form.js";

export interface Option {
  id: string;
  name: string;
  costCents: number;
}
export interface Line {
  id: string;
  title: string;
  url: string;
  imageUrl: string | null;
  attributes: Record<string, string>;
  quantity: number;
  subTotal: number;
  productType: number;
  subscriptionText: string | null;
}
export interface CheckoutCart extends CheckoutTotals {
  currencyCode: string;
  entries: Line[];
  hasSubscription: boolean;
  requiresShipping: boolean;
  shippingOptions: Option[];
  selectedShippingOption: Option | null;
  applicableTaxRules: { name: string; ratePercent: string; taxCents: number }[];
  /** Codes kept with the cart (a recovery email's code): applied when the page opens. */
  savedCouponCodes?: string[];
  validCoupons: { code: string; kind: string; discountCents: number }[];
  invalidCoupons: { code: string; reason: string }[];
  /** Each discount by name (the automatic one first, then coupons). */
  discounts: { name: string; amountCents: number; shippingCents: number }[];
  appliedGiftCards: { last4: string; amountCents: number; balanceCents: number }[];
  shippingError?: string;
}
export interface Quote {
  cart: CheckoutCart;
  shippingCountries: string[] | null;
  payment: { provider: "test" | "stripe"; testMode: boolean };
}
export interface Placed {
  order: { id: string; orderNumber: number };
  confirmationUrl: string;
  subscriptionUrls: string[];
}
export interface NeedsAction {
  requiresAction: true;
  nextAction: NextAction;
  order: { id: string; orderNumber: number; grandTotalCents: number; currency: string };
  idempotencyKey: string;
}

/** A 3-D Secure challenge the test payment provider asks the buyer to answer. */
export type { TestChallenge } from "@atelier/commerce";

/** Sets one member of the checkout form. */
export type SetFormField = <K extends keyof CheckoutForm>(k: K) => (v: CheckoutForm[K]) => void;
