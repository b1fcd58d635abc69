/** An order line as the owner API answers it (GET /api/owner/sites/:siteId/orders…). */
export interface OrderLine {
  id: string;
  itemId: string;
  variantId: string | null;
  sku: string;
  productName: string;
  productType: number;
  attributes: Record<string, string>;
  quantity: number;
  unitPriceCents: number;
  subtotalCents: number;
  /** The line's share of the order's discount (pro rata to what the lines cost): refunds of the line give back what it paid. */
  discountCents: number;
  additionalFields: unknown;
  isSubscription: boolean;
  restockedQuantity: number;
  /** Units refunded by refunds that named the line. */
  refundedQuantity: number;
  url: string | null;
  imageUrl: string | null;
}

/**
 * The fields of an order that its clients read: the owner API's orders (dashboard) and the buyer's
 * order view (storefront confirmation) both answer this shape, and more.
 */
export interface Order {
  id: string;
  orderNumber: number;
  status: string;
  paymentStatus: string;
  fulfillmentStatus: string;
  email: string;
  currency: string;
  subtotalCents: number;
  discountCents: number;
  /** Each discount as its own line: automatic discounts by name, coupons by code; shippingCents: shipping it made free. */
  discounts: { name: string; amountCents: number; shippingCents: number }[];
  shippingCents: number;
  taxCents: number;
  grandTotalCents: number;
  giftCardCents: number;
  /** What the card paid. */
  chargedCents: number;
  refundedCents: number;
  testMode: boolean;
  shippingAddress: Record<string, string> | null;
  billingAddress: Record<string, string> | null;
  shippingOption: { name: string } | null;
  coupons: { code: string; discountCents: number }[];
  taxRules: { name: string; ratePercent: string; taxCents: number }[];
  trackingNumber: string | null;
  createdOn: number;
  lines: OrderLine[];
}
