/**
 * The store settings screens' answers (/api/owner/sites/:siteId/store…). Shipping and tax rules
 * are answered as @atelier/commerce's `ShippingRule` and `TaxRule`, the shapes that price an order.
 */
import type { CurrencyRecord } from "@atelier/commerce";

/** The store's own settings (GET and PATCH /store answer `{ settings }`). */
export interface StoreSettings {
  /** ISO 4217 code of the store's prices. */
  currency: string;
  /** SPEC §3: money as {value, currency} when on, else {decimalValue, currencyCode}. */
  useCLDRMoneyFormat: boolean;
  multipleQuantityAllowedForServices: boolean;
  customSoldOutText: string;
  restockNotificationsEnabled: boolean;
  restockNotificationsSuccessText: string;
  soldOutVariantsDropdownDisabled: boolean;
  /** "imperial" or "metric". */
  measurementStandard: string;
}

/** GET /store: the settings and the currencies a store may use. */
export interface StoreSettingsAnswer {
  settings: StoreSettings;
  currencies: readonly CurrencyRecord[];
}

/** A coupon as the owner API answers it (GET /store/coupons answers `{ rules }`, one change `{ rule }`). */
export interface OwnerCoupon {
  id: string;
  /** Upper case, 3 to 40 letters, digits, - or _. */
  code: string;
  /** percent, fixed or free_shipping. */
  kind: string;
  /** percent: whole percent 1–100; fixed: cents; free_shipping: 0. */
  amount: number;
  minSubtotalCents: number;
  startsAt: number | null;
  endsAt: number | null;
  usageLimit: number | null;
  timesUsed: number;
  active: boolean;
}

/** An automatic discount as the owner API answers it (GET|POST /discounts, GET|PATCH /discounts/:id). */
export interface OwnerDiscount {
  id: string;
  name: string;
  /** order_percentage, order_amount, product_percentage, product_amount, free_shipping, buy_x_get_y */
  kind: string;
  /** A whole percent 0–100 (percentage kinds, buy X get Y: off the given units), or minor units. */
  value: number;
  appliesTo: { productIds: string[]; categoryIds: string[]; shippingOptionIds: string[] };
  conditions: { minSubtotalCents: number; minQuantity: number; firstOrderOnly: boolean };
  buyXGetY: {
    buyQuantity: number;
    getQuantity: number;
    getProductIds: string[];
    getCategoryIds: string[];
  } | null;
  /** Wall-clock times in the site's time zone, "YYYY-MM-DDTHH:mm", or null. */
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  timesUsed: number;
  combinesWithCoupons: boolean;
  active: boolean;
}
