/** Store pages: cart, checkout and the order and subscription confirmations (SPEC §2 page types). */
import { PageType } from "../../db/enums.js";
import type { SystemPage } from "./shared.js";

/** Cart, checkout and order pages: path → page type, template and title. */
export const COMMERCE_PAGES: Record<string, SystemPage> = {
  cart: { pageType: PageType.SHOW_CART, template: "cart", title: "Your Cart", cacheable: true },
  checkout: { pageType: PageType.CHECKOUT, template: "checkout", title: "Checkout", cacheable: true },
  "checkout/gift-card": {
    pageType: PageType.CHECKOUT,
    template: "checkout",
    title: "Send a Gift Card",
    cacheable: true,
  },
  "checkout/order-confirmed": {
    pageType: PageType.ORDER_CONFIRMED,
    template: "system",
    title: "Thank you for your order",
  },
  "checkout/order-received": {
    pageType: PageType.ORDER_RECEIVED,
    template: "system",
    title: "We received your order",
  },
  "checkout/subscription-confirmed": {
    pageType: PageType.SUBSCRIPTION_CONFIRMED,
    template: "system",
    title: "Your subscription is confirmed",
  },
  "commerce/cart": {
    pageType: PageType.COMMERCE_CART_V2,
    template: "cart",
    title: "Your Cart",
    cacheable: true,
  },
};

/** The island an order or subscription confirmation hands over to, and its message. */
export const COMMERCE_ISLANDS: Record<number, { island: string; message: string }> = {
  [PageType.ORDER_CONFIRMED]: {
    island: "order-confirmed",
    message: "Your order is confirmed. We have sent a receipt to your email address.",
  },
  [PageType.ORDER_RECEIVED]: {
    island: "order-received",
    message: "We received your order and will email you as soon as it is on its way.",
  },
  [PageType.SUBSCRIPTION_CONFIRMED]: {
    island: "subscription-confirmed",
    message: "Your subscription is active. You can manage it from your account at any time.",
  },
};
