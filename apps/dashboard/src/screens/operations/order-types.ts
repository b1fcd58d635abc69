/** Orders as the owner API sends them, and how a status reads. */
export interface OrderLine {
  id: string;
  sku: string;
  productName: string;
  attributes: Record<string, string>;
  quantity: number;
  unitPriceCents: number;
  subtotalCents: number;
  restockedQuantity: number;
  imageUrl: string | null;
}
export interface Order {
  id: string;
  orderNumber: number;
  status: string;
  paymentStatus?: string;
  fulfillmentStatus?: string;
  email: string;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  refundedCents: number;
  testMode: boolean;
  shippingAddress: Record<string, string> | null;
  trackingNumber: string | null;
  createdOn: number;
  lines: OrderLine[];
}

export const STATUS_BADGE: Record<string, string> = {
  paid: "accent",
  fulfilled: "ok",
  refunded: "danger",
  partially_refunded: "warn",
  cancelled: "danger",
  pending: "warn",
};
export const statusText = (s: string) => s.replace(/_/g, " ");
