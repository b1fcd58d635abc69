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
  type AppliedDiscount,
  type AutomaticDiscount,
  type DiscountCustomer,
  applicableDiscounts,
  shipsFree,
} from "./discounts.js";
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
  /** The product (for automatic discounts about chosen products or categories). */
  itemId?: string;
  categories?: readonly string[];
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
  /** The store's automatic discounts (the single best one that applies is taken). */
  automaticDiscounts?: readonly AutomaticDiscount[];
  /** The site's time zone (discount schedules), "UTC" when not given. */
  timeZone?: string;
  /** What is known of the buyer (first order, uses of each discount). */
  customer?: DiscountCustomer;
}

/** One discount of an order as its own line: an automatic discount by name, or a coupon by code. */
export interface DiscountLine {
  name: string;
  /** Taken off the goods. */
  amountCents: number;
  /** The shipping it made free (free-shipping discounts and coupons), else 0. */
  shippingCents: number;
  /** The automatic discount's id (absent for coupons). */
  discountId?: string;
  couponCode?: string;
}

/** A coupon set aside because the automatic discount that saves more does not combine with coupons. */
export const couponNotCombinableMessage = (discountName: string): string =>
  `This code cannot be combined with “${discountName}”, which saves you more.`;

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
  /** The automatic discount applied (the best that applies), if any. */
  automaticDiscount: AppliedDiscount | null;
  /** Every discount as its own line (the automatic one first, then coupons). */
  discounts: DiscountLine[];
  /** Set when the order cannot be shipped as asked (unknown option, country not served). */
  shippingError?: string;
}

function nonNegativeInt(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return n;
}

export function priceCheckout(input: CheckoutPricingInput): CheckoutPricing {
  const plain = priceWith(input, null, input.couponCodes);
  const autos = input.automaticDiscounts?.length
    ? applicableDiscounts(
        input.automaticDiscounts,
        input.lines.map((l) => ({ ...l, itemId: l.itemId ?? "" })),
        { now: input.now, timeZone: input.timeZone ?? "UTC", customer: input.customer },
      )
    : [];
  let best = plain;
  for (const auto of autos) {
    const withCoupons = auto.combinesWithCoupons || plain.validCoupons.length === 0;
    const priced = priceWith(input, auto, withCoupons ? input.couponCodes : []);
    if (!withCoupons) {
      priced.invalidCoupons = [
        ...plain.validCoupons.map((c) => ({ code: c.code, reason: couponNotCombinableMessage(auto.name) })),
        ...plain.invalidCoupons,
      ];
    }
    // The single best: what saves the buyer most (the first listed on a tie); a free-shipping
    // discount shows before a shipping option is chosen, when nothing saves more.
    const gain = saves(priced) - saves(best);
    if (gain > 0 || (gain === 0 && best === plain && withCoupons)) best = priced;
  }
  return best;
}

/** What a pricing saves the buyer: goods discounts and shipping made free. */
function saves(p: CheckoutPricing): number {
  return p.discounts.reduce((s, d) => s + d.amountCents + d.shippingCents, 0);
}

function priceWith(
  input: CheckoutPricingInput,
  auto: AppliedDiscount | null,
  couponCodes: readonly string[],
): CheckoutPricing {
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
    codes: couponCodes,
    coupons: input.coupons,
    discountableCents: discountable,
    requiresShipping,
    now: input.now,
    currency: input.currency,
  });
  const autoCents = Math.min(auto?.amountCents ?? 0, discountable);
  const couponCents = Math.min(coupons.discountCents, discountable - autoCents);
  const discount = autoCents + couponCents;

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
  // Options an automatic free-shipping discount covers cost nothing.
  const free = (o: ShippingOption) => coupons.freeShipping || shipsFree(auto, o.id);
  const options = shipping.options.map((o) => (shipsFree(auto, o.id) ? { ...o, costCents: 0 } : o));
  const chosen = shipping.ok ? (shipping.option ?? null) : null;
  const selected = chosen ? (options.find((o) => o.id === chosen.id) ?? chosen) : null;
  const shippingCost = selected && free(chosen!) ? 0 : (selected?.costCents ?? 0);
  const discounts: DiscountLine[] = [];
  const shipsFreeHere =
    !!auto?.freeShippingOptionIds && requiresShipping && (!chosen || shipsFree(auto, chosen.id));
  if (auto && (autoCents > 0 || shipsFreeHere)) {
    discounts.push({
      name: auto.name,
      amountCents: autoCents,
      shippingCents: chosen && shipsFree(auto, chosen.id) ? chosen.costCents : 0,
      discountId: auto.id,
    });
  }
  let couponLeft = couponCents;
  for (const c of coupons.validCoupons) {
    const amount = Math.min(couponLeft, c.discountCents);
    couponLeft -= amount;
    const shipFree = c.freeShipping && chosen && !shipsFree(auto, chosen.id) ? chosen.costCents : 0;
    if (amount > 0 || shipFree > 0)
      discounts.push({
        name: `Discount (${c.code})`,
        amountCents: amount,
        shippingCents: shipFree,
        couponCode: c.code,
      });
  }

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
    shippingOptions: options,
    selectedShippingOption: selected,
    applicableTaxRules: tax.applicableTaxRules,
    validCoupons: coupons.validCoupons,
    invalidCoupons: coupons.invalidCoupons,
    appliedGiftCards,
    automaticDiscount: auto,
    discounts,
    ...(shipping.ok ? {} : { shippingError: shipping.error }),
  };
}

/**
 * The automatic discount of a cart before checkout (no address, no shipping option yet): the same
 * rule as the checkout's, so the cart shows the discount, by name, that the order will be charged.
 */
export function cartDiscounts(
  lines: readonly PricedLineInput[],
  input: Pick<CheckoutPricingInput, "currency" | "now" | "timeZone" | "customer" | "automaticDiscounts">,
): { discountCents: number; discounts: DiscountLine[] } {
  if (!input.automaticDiscounts?.length || !lines.length) return { discountCents: 0, discounts: [] };
  const p = priceCheckout({ ...input, lines, shippingRules: [], taxRules: [], coupons: [], couponCodes: [] });
  return { discountCents: p.discountCents, discounts: p.discounts };
}
