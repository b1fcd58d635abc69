/**
 * The shapes of the cart calls' answers (SPEC §3 shopping cart and cart entry), shared by the
 * server that builds them and the storefront that reads them. Amounts are integer minor units.
 */
import type { CartTotals } from "./cart-math.js";
import type { DiscountLine } from "./checkout-pricing.js";

export interface CartEntryJson {
  id: string;
  itemId: string;
  variantId: string | null;
  sku: string;
  chosenVariant: {
    id: string | null;
    sku: string;
    attributes: Record<string, string>;
    qtyInStock: number;
    unlimited: boolean;
  };
  quantity: number;
  additionalFields: unknown;
  title: string;
  /** The product page. */
  url: string;
  imageUrl: string | null;
  productType: number;
  /** Unit price paid, in minor units (the sale price when the variant is on sale). */
  purchasePriceCents: number;
  /** The regular unit price, in minor units. */
  unitPriceCents: number;
  onSale: boolean;
  /** purchasePriceCents × quantity. */
  subTotal: number;
  currencyCode: string;
  isSubscription: boolean;
  /** False when the variant no longer exists; such lines count for nothing. */
  available: boolean;
}

/** A cart as the API answers it: its entries, shipping and coupons, and its {@link CartTotals}. */
export interface CartJson extends CartTotals {
  id: string | null;
  websiteId: string;
  orderId: string | null;
  created: number | null;
  isPurchased: boolean;
  currencyCode: string;
  entries: CartEntryJson[];
  shippingOptions: unknown[];
  selectedShippingOption: string | null;
  shippingLocation: Record<string, string>;
  applicableTaxRules: unknown[];
  coupons: string[];
  validCoupons: unknown[];
  invalidCoupons: unknown[];
  /** The automatic discount that applies, as its own line (its amount is in discountCents). */
  discounts: DiscountLine[];
}

/** The answer of POST /api/commerce/shopping-cart/entries. */
export interface AddEntryAnswer {
  shoppingCart: CartJson;
  newlyAdded: CartEntryJson;
  updatedEntry?: CartEntryJson;
  /** Express purchases only: the token of the cart made for them, for the checkout page. */
  cartToken?: string;
}

/** The answer of the calls that change one entry. */
export interface EntryAnswer {
  shoppingCart: CartJson;
  updatedEntry: CartEntryJson;
}

/** Where the storefront goes after an express purchase or a subscription. */
export function checkoutUrl(cartToken?: string): string {
  return cartToken ? `/checkout?cartToken=${encodeURIComponent(cartToken)}` : "/checkout";
}

/** The gift card page, with the item and the chosen denomination (its variant's sku). */
export function giftCardUrl(itemId: string, sku: string): string {
  return `/checkout/gift-card?itemId=${encodeURIComponent(itemId)}&sku=${encodeURIComponent(sku)}`;
}
