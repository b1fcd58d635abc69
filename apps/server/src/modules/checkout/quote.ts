/** Quotes: the checkout page's cart with shipping options, tax, coupons, gift cards and totals. */
import { type ShippingLocation, formatMoney, subscriptionPriceText } from "@atelier/commerce";
import type { SiteReads } from "../cart/site-reads.js";
import { type CheckoutQuote, keptStoreRules, priceLines, shippingCountries } from "./pricing.js";
import { type CheckoutLine, loadCheckoutCart } from "./store.js";
import type { CheckoutDeps } from "./checkout-types.js";

interface QuoteInput {
  location?: ShippingLocation;
  shippingOptionId?: string;
  couponCodes?: string[];
  email?: string;
}

function quoteJson(quote: CheckoutQuote) {
  const {
    couponRows: _rows,
    discountPerCustomerLimit: _limit,
    automaticDiscount: _auto,
    appliedGiftCards,
    ...rest
  } = quote;
  return { ...rest, appliedGiftCards: appliedGiftCards.map(({ id: _id, ...g }) => g) };
}

function lineJson(l: CheckoutLine, currency: string) {
  return {
    id: l.entryId,
    itemId: l.itemId,
    variantId: l.variantId,
    sku: l.sku,
    title: l.title,
    url: l.url,
    imageUrl: l.imageUrl,
    productType: l.productType,
    attributes: l.attributes,
    quantity: l.quantity,
    purchasePriceCents: l.unitPriceCents,
    subTotal: l.unitPriceCents * l.quantity,
    currencyCode: currency,
    isSubscription: l.isSubscription,
    subscriptionPlan: l.subscriptionPlan ?? null,
    subscriptionText: l.subscriptionPlan
      ? subscriptionPriceText(formatMoney(l.unitPriceCents * l.quantity, currency), l.subscriptionPlan)
      : null,
  };
}

/** The checkout page's cart: lines, shipping options, tax, coupons, gift cards, totals. */
export async function quote(
  deps: CheckoutDeps,
  reads: SiteReads,
  token: string | undefined,
  input: QuoteInput,
) {
  const { db, clock } = deps;
  const site = reads.site;
  const [settings, loaded, rules] = await Promise.all([
    reads.settings(db),
    loadCheckoutCart(db, reads, token),
    keptStoreRules(db, reads),
  ]);
  const currency = settings.store.currency;
  const lines = loaded?.lines ?? [];
  const priced = await priceLines(db, site.id, lines, {
    rules,
    reads,
    location: input.location,
    shippingOptionId: input.shippingOptionId,
    codes: input.couponCodes,
    now: clock.now(),
    currency,
    timeZone: site.timeZone,
    email: input.email,
  });
  return {
    cart: {
      id: loaded?.cart.id ?? null,
      websiteId: site.id,
      currencyCode: currency,
      isPurchased: false,
      entries: lines.map((l) => lineJson(l, currency)),
      unavailableEntries: (loaded?.unavailable ?? []).map((e) => e.id),
      hasSubscription: lines.some((l) => l.isSubscription),
      ...quoteJson(priced),
      /** Codes kept with the cart (a recovery link's code): the checkout page starts with them. */
      savedCouponCodes: loaded?.cart.couponCodes ?? [],
    },
    shippingCountries: shippingCountries(rules.shippingRules),
    payment: { provider: deps.payments.name, testMode: deps.payments.testMode },
  };
}
