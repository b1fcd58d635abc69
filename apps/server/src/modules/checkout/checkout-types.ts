/** What checkout takes and answers: its dependencies, inputs, results, messages and timings. */
import type { Deps } from "../../http/deps.js";
import type { orderJson } from "../orders/service.js";
import type { NextAction, PaymentEvent, PaymentMethodInput, PaymentProvider } from "../payments/provider.js";
import type { SiteReads } from "../cart/site-reads.js";
import type { SeenBeforeOrder } from "./reserve.js";
import type { Website } from "../sites/service.js";

export type CheckoutDeps = Pick<Deps, "db" | "clock" | "config"> & { payments: PaymentProvider };

export const MSG_CART_EMPTY = "Your cart is empty.";
export const MSG_EMAIL_INVALID = "Please enter a valid email address.";
export { MSG_REQUIRED } from "@atelier/forms";
export const MSG_COUNTRY_INVALID = "Please choose a country.";
export const MSG_CHOOSE_SHIPPING = "Please choose a shipping option.";
export const MSG_FIX_ADDRESS = "Please check the highlighted fields.";
export const MSG_PROVIDER_DOWN =
  "We could not reach the payment provider, and your card has not been charged by this attempt. Please try again.";
export const MSG_IN_PROGRESS = "This order is being processed. Please wait a moment.";
export const MSG_PAYMENT_ABANDONED = "The payment was not completed. Please try again.";
export const MSG_COUPON_USED_UP_NOW = "This coupon has reached its usage limit.";
export const MSG_GIFT_CARD_SPENT =
  "A gift card you used no longer has enough balance. Please review your order.";

/** A payment nobody settled within this time is asked about by the reconciler. */
export const RECONCILE_AFTER_MS = 10_000;
/** A charge the provider never saw, this old, is given up (its stock and cart given back). */
export const ABANDON_UNSEEN_AFTER_MS = 15 * 60_000;
/** A 3-D Secure challenge nobody finished within this time is cancelled. */
export const ABANDON_CHALLENGE_AFTER_MS = 60 * 60_000;

export interface Address {
  firstName: string;
  lastName: string;
  line1: string;
  line2?: string;
  city: string;
  state?: string;
  postalCode: string;
  country: string;
}

export interface PlaceOrderInput {
  email: string;
  shippingAddress?: Address;
  billingAddress?: Address;
  shippingOptionId?: string;
  couponCodes?: string[];
  payment: PaymentMethodInput;
  idempotencyKey: string;
}

export type PlaceOrderResult =
  | {
      kind: "order";
      order: ReturnType<typeof orderJson>;
      confirmationUrl: string;
      subscriptionIds: string[];
      events: PaymentEvent[];
    }
  | {
      kind: "requires_action";
      order: { id: string; orderNumber: number; grandTotalCents: number; currency: string };
      nextAction: NextAction;
      idempotencyKey: string;
      events: PaymentEvent[];
    };

export interface PlaceOrderContext {
  site: Website;
  /** The cart's token: from the cart cookie or the cartToken of an express or subscription checkout. */
  cartToken: string | undefined;
  viaCartToken: boolean;
  /** Origin of the request (links in emails and the 3-D Secure return address). */
  origin: string;
}

/**
 * A new order's context: also the site's settings, products and store rules at the version the
 * order was counted at, and what the count's statement read of its key and cart, if it did.
 */
export type NewOrderContext = PlaceOrderContext & { reads: SiteReads; seen?: SeenBeforeOrder };
