/**
 * What `GET /api/site-users/account` answers about a site user's orders and subscriptions: one
 * shape for the server (which writes it) and the storefront's account pages (which read it).
 */

/** An order of the signed-in user, amounts in minor units. */
export interface AccountOrder {
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
  refundedCents: number;
  trackingNumber: string | null;
  lines: {
    productName: string;
    sku: string;
    quantity: number;
    unitPriceCents: number;
    attributes: Record<string, string>;
  }[];
}

/** A subscription of the signed-in user. */
export interface AccountSubscription {
  id: string;
  sku: string;
  quantity: number;
  priceCents: number;
  currencyCode: string;
  billingPeriod: { value: number; unit: string };
  numBillingCycles: number;
  cyclesBilled: number;
  status: string;
  nextBillingOn: number | null;
  createdOn: number;
}
