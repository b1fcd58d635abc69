import type { NextAction } from "@atelier/commerce";

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
