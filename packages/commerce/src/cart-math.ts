/**
 * Cart totals in integer cents (SPEC §3 shopping cart fields). Never a float: percentages
 * are exact decimals and every rounding is explicit (half away from zero).
 */
import { ProductType, parseProductType } from "./availability.js";
import { parseDecimal, roundToScale } from "./decimal.js";

export interface CartEntryInput {
  /** Unit price in cents (purchasePriceCents of the entry). */
  unitPriceCents: number;
  quantity: number;
  /** Product type code, numeric string or template name. */
  productType: unknown;
}

export interface CartTotalsOptions {
  /** Shipping cost of the selected option, in cents. */
  shippingCostCents?: number;
  /** Discount of valid coupons, in cents; capped at the subtotal. */
  discountCents?: number;
  /** Tax rates in percent ("8.875", 20), each applied to the taxable amount and rounded on its own. */
  taxRatesPercent?: readonly (string | number)[];
  /** Whether shipping is taxed too. */
  taxShipping?: boolean;
}

export interface CartTotals {
  subtotalCents: number;
  taxCents: number;
  shippingCostCents: number;
  discountCents: number;
  grandTotalCents: number;
  totalQuantity: number;
  hasDigital: boolean;
  purelyDigital: boolean;
  requiresShipping: boolean;
}

function cents(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer of cents`);
  return value;
}

function isDigitalType(type: ProductType | undefined): boolean {
  return type === ProductType.DIGITAL || type === ProductType.GIFT_CARD;
}

/** The tax on an amount of cents at a percent rate, rounded half away from zero. */
export function taxOn(amountCents: number, ratePercent: string | number): number {
  const rate = parseDecimal(ratePercent);
  if (!rate || rate.coefficient < 0n) throw new RangeError(`Invalid tax rate: ${String(ratePercent)}`);
  // amount × rate / 100, kept exact until the final rounding.
  const exact = { coefficient: BigInt(amountCents) * rate.coefficient, scale: rate.scale + 2 };
  return Number(roundToScale(exact, 0));
}

/** Totals of a cart from its entries. Only physical products need shipping. */
export function computeCartTotals(
  entries: readonly CartEntryInput[],
  options: CartTotalsOptions = {},
): CartTotals {
  let subtotal = 0;
  let totalQuantity = 0;
  let hasDigital = false;
  let requiresShipping = false;
  let allDigital = entries.length > 0;
  for (const entry of entries) {
    const unit = cents("unitPriceCents", entry.unitPriceCents);
    if (!Number.isSafeInteger(entry.quantity) || entry.quantity < 0)
      throw new RangeError("quantity must be a non-negative integer");
    subtotal += unit * entry.quantity;
    totalQuantity += entry.quantity;
    const type = parseProductType(entry.productType);
    if (isDigitalType(type)) hasDigital = true;
    else allDigital = false;
    if (type === ProductType.PHYSICAL) requiresShipping = true;
  }
  if (!Number.isSafeInteger(subtotal)) throw new RangeError("Cart subtotal is too large");

  const discount = Math.min(cents("discountCents", options.discountCents ?? 0), subtotal);
  const shipping = requiresShipping ? cents("shippingCostCents", options.shippingCostCents ?? 0) : 0;
  const taxable = subtotal - discount + (options.taxShipping ? shipping : 0);
  let tax = 0;
  for (const rate of options.taxRatesPercent ?? []) tax += taxOn(taxable, rate);

  return {
    subtotalCents: subtotal,
    taxCents: tax,
    shippingCostCents: shipping,
    discountCents: discount,
    grandTotalCents: subtotal - discount + shipping + tax,
    totalQuantity,
    hasDigital,
    purelyDigital: allDigital,
    requiresShipping,
  };
}
