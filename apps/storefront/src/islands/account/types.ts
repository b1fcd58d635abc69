/** The account pages and what the site-user account calls answer. */
import type { SavedAddress } from "@atelier/commerce";

/** An account page. */
export type View =
  | "login"
  | "register"
  | "forgot-password"
  | "reset-password"
  | "overview"
  | "orders"
  | "addresses";

export type Address = SavedAddress;

export interface Order {
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
  trackingNumber: string | null;
  lines: {
    productName: string;
    sku: string;
    quantity: number;
    unitPriceCents: number;
    attributes: Record<string, string>;
  }[];
}

export interface Subscription {
  id: string;
  sku: string;
  priceCents: number;
  currencyCode: string;
  billingPeriod: { value: number; unit: string };
  numBillingCycles: number;
  status: string;
  nextBillingOn: number | null;
}

export interface AccountData {
  account: { email: string; firstName: string; lastName: string };
  orders: Order[];
  addresses: Address[];
  subscriptions: Subscription[];
}
