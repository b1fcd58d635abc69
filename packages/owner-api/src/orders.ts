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
  additionalFields: unknown;
  isSubscription: boolean;
  restockedQuantity: number;
  url: string | null;
  imageUrl: string | null;
}

/** The fields of an owner API order that its clients read; the server answers these and more. */
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
