/**
 * The price of an order at checkout: lines → subtotal → coupons → shipping → tax → gift cards
 * → amount due. One pure function, used by the server when it quotes and when it takes the
 * order, so the buyer is charged exactly what the checkout page showed.
 *
 * Rules: coupons discount everything but gift cards; "free above an amount" shipping compares
 * the discounted subtotal; tax is on the discounted taxable goods (gift cards are not taxable)
 * plus shipping where the rule says so; gift cards pay the grand total in the order given and
 * never more than their balance. A store without shipping rules ships for free.
 */
import { ProductType, parseProductType } from "./availability.js";
import { type Coupon, type InvalidCoupon, type ValidCoupon, applyCoupons } from "./coupons.js";
import {
  type ShippingLocation,
  type ShippingOption,
  type ShippingRule,
  chooseShipping,
  normalizeCountry,
} from "./shipping.js";
import { type AppliedTaxRule, type TaxRule, computeTax } from "./tax.js";

export interface PricedLineInput {
  unitPriceCents: number;
  quantity: number;
  /** Product type code or template name. */
  productType: unknown;
  /** Weight of one unit in grams (physical goods). */
  weightGrams?: number;
}

export interface GiftCardBalance {
  id: string;
  balanceCents: number;
}

export interface CheckoutPricingInput {
  lines: readonly PricedLineInput[];
  currency: string;
  now: Date;
  location?: ShippingLocation;
  shippingRules: readonly ShippingRule[];
  shippingOptionId?: string;
  taxRules: readonly TaxRule[];
  coupons: readonly Coupon[];
  couponCodes: readonly string[];
  giftCards?: readonly GiftCardBalance[];
}

/** A checkout's totals, as priced here and as the quote answers them to the storefront. */
export interface CheckoutTotals {
  subtotalCents: number;
  discountCents: number;
  shippingCostCents: number;
  taxCents: number;
  grandTotalCents: number;
  /** Paid by gift cards. */
  giftCardCents: number;
  /** What the card is charged: grand total less gift cards. */
  amountDueCents: number;
}

export interface CheckoutPricing extends CheckoutTotals {
  totalQuantity: number;
  totalWeightGrams: number;
  hasDigital: boolean;
  purelyDigital: boolean;
  requiresShipping: boolean;
  shippingLocation: ShippingLocation | null;
  shippingOptions: ShippingOption[];
  selectedShippingOption: ShippingOption | null;
  applicableTaxRules: AppliedTaxRule[];
  validCoupons: ValidCoupon[];
  invalidCoupons: InvalidCoupon[];
  appliedGiftCards: { id: string; amountCents: number }[];
  /** Set when the order cannot be shipped as asked (unknown option, country not served). */
  shippingError?: string;
}

function nonNegativeInt(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return n;
}

export function priceCheckout(input: CheckoutPricingInput): CheckoutPricing {
  let subtotal = 0;
  let discountable = 0;
  let totalQuantity = 0;
  let weight = 0;
  let hasDigital = false;
  let requiresShipping = false;
  let allDigital = input.lines.length > 0;
  for (const line of input.lines) {
    const unit = nonNegativeInt("unitPriceCents", line.unitPriceCents);
    const qty = nonNegativeInt("quantity", line.quantity);
    const type = parseProductType(line.productType);
    const amount = unit * qty;
    subtotal += amount;
    totalQuantity += qty;
    if (type !== ProductType.GIFT_CARD) discountable += amount;
    if (type === ProductType.DIGITAL || type === ProductType.GIFT_CARD) hasDigital = true;
    else allDigital = false;
    if (type === ProductType.PHYSICAL) {
      requiresShipping = true;
      weight += nonNegativeInt("weightGrams", line.weightGrams ?? 0) * qty;
    }
  }
  if (!Number.isSafeInteger(subtotal)) throw new RangeError("Order subtotal is too large");

  const coupons = applyCoupons({
    codes: input.couponCodes,
    coupons: input.coupons,
    discountableCents: discountable,
    requiresShipping,
    now: input.now,
    currency: input.currency,
  });
  const discount = Math.min(coupons.discountCents, discountable);

  // A store without shipping rules ships everything for free, everywhere.
  const shipping =
    input.shippingRules.length === 0
      ? { ok: true as const, option: undefined, options: [] }
      : chooseShipping(input.shippingRules, {
          requiresShipping,
          subtotalCents: subtotal - discount,
          weightGrams: weight,
          location: input.location,
          optionId: input.shippingOptionId,
        });
  const selected = shipping.ok ? (shipping.option ?? null) : null;
  const shippingCost = coupons.freeShipping ? 0 : (selected?.costCents ?? 0);

  const tax = computeTax(input.taxRules, {
    taxableCents: discountable - discount,
    shippingCents: shippingCost,
    country: input.location?.country,
    state: input.location?.state,
  });
  const grandTotal = subtotal - discount + shippingCost + tax.taxCents;

  let remaining = grandTotal;
  const appliedGiftCards: { id: string; amountCents: number }[] = [];
  for (const card of input.giftCards ?? []) {
    if (remaining <= 0) break;
    const amount = Math.min(remaining, Math.max(0, card.balanceCents));
    if (amount <= 0) continue;
    appliedGiftCards.push({ id: card.id, amountCents: amount });
    remaining -= amount;
  }

  const location = input.location
    ? {
        ...input.location,
        ...(input.location.country !== undefined
          ? { country: normalizeCountry(input.location.country) }
          : {}),
      }
    : null;
  return {
    subtotalCents: subtotal,
    discountCents: discount,
    shippingCostCents: shippingCost,
    taxCents: tax.taxCents,
    grandTotalCents: grandTotal,
    giftCardCents: grandTotal - remaining,
    amountDueCents: remaining,
    totalQuantity,
    totalWeightGrams: weight,
    hasDigital,
    purelyDigital: allDigital,
    requiresShipping,
    shippingLocation: location,
    shippingOptions: shipping.options,
    selectedShippingOption: selected,
    applicableTaxRules: tax.applicableTaxRules,
    validCoupons: coupons.validCoupons,
    invalidCoupons: coupons.invalidCoupons,
    appliedGiftCards,
    ...(shipping.ok ? {} : { shippingError: shipping.error }),
  };
}
