/**
 * Product availability rules (SPEC §4): variants, sale, sold out, varied prices, stock.
 * Products are read loosely (they come from JSON): productType may be a number, a numeric
 * string or the template name ("physical", "digital", "service", "gift-card").
 */
import { compareDecimal, type Decimal, parseDecimal } from "./decimal.js";
import { isRecord } from "./is-record.js";

export enum ProductType {
  PHYSICAL = 1,
  DIGITAL = 2,
  SERVICE = 3,
  GIFT_CARD = 4,
  PAYWALL = 5,
}

/** The names product types have in templates. */
export const PRODUCT_TYPE_TEMPLATE_NAMES: Readonly<Record<ProductType, string>> = {
  [ProductType.PHYSICAL]: "physical",
  [ProductType.DIGITAL]: "digital",
  [ProductType.SERVICE]: "service",
  [ProductType.GIFT_CARD]: "gift-card",
  [ProductType.PAYWALL]: "paywall",
};

export interface VariantLike {
  id?: string;
  sku?: string;
  attributes?: Record<string, unknown>;
  price?: unknown;
  salePrice?: unknown;
  onSale?: unknown;
  priceMoney?: unknown;
  salePriceMoney?: unknown;
  qtyInStock?: unknown;
  unlimited?: unknown;
  [key: string]: unknown;
}

export interface StructuredContentLike {
  productType?: unknown;
  variants?: unknown;
  onSale?: unknown;
  isSubscribable?: unknown;
  [key: string]: unknown;
}

/** A product, or just its structured content. */
export interface ProductLike {
  structuredContent?: StructuredContentLike;
  [key: string]: unknown;
}

/**
 * Unwraps a boxed number (an object whose `valueOf()` is a number, such as a JSON parser's
 * exact-number wrapper); anything else is returned as is.
 */
export function unboxNumber(value: unknown): unknown {
  if (isRecord(value)) {
    const primitive = (value as { valueOf(): unknown }).valueOf();
    if (typeof primitive === "number") return primitive;
  }
  return value;
}

/** JSON-ish truthiness: false, 0, "", null, undefined, NaN, empty arrays and objects are false. */
export function truthy(input: unknown): boolean {
  const value = unboxNumber(input);
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  if (typeof value === "number") return value !== 0 && !Number.isNaN(value);
  return Boolean(value);
}

/** Numeric value of a JSON value, 0 when it is not a number. */
export function toNumber(input: unknown): number {
  const value = unboxNumber(input);
  if (typeof value === "number") return Number.isFinite(value) ? value : 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string") {
    const n = Number(value.trim());
    return value.trim() !== "" && Number.isFinite(n) ? n : 0;
  }
  return 0;
}

/** Boolean value of a JSON value as Jackson reads it: true, "true" or a non-zero number. */
export function toBoolean(input: unknown): boolean {
  const value = unboxNumber(input);
  if (typeof value === "boolean") return value;
  if (typeof value === "number") return value !== 0;
  if (typeof value === "string") return value.trim().toLowerCase() === "true";
  return false;
}

/** The structured content of a product (or the object itself when it already is one). */
export function contentOf(product: unknown): StructuredContentLike {
  if (!isRecord(product)) return {};
  const content = product.structuredContent;
  if (isRecord(content)) return content as StructuredContentLike;
  return "structuredContent" in product ? {} : (product as StructuredContentLike);
}

/** Parses a product type: 1..5, "1".."5", or a template name. Unknown gives `undefined`. */
export function parseProductType(value: unknown): ProductType | undefined {
  if (typeof value === "string") {
    const name = value.trim().toLowerCase();
    for (const [code, templateName] of Object.entries(PRODUCT_TYPE_TEMPLATE_NAMES)) {
      if (templateName === name) return Number(code) as ProductType;
    }
  }
  const code = Math.trunc(toNumber(value));
  return code >= 1 && code <= 5 ? (code as ProductType) : undefined;
}

export function productTypeOf(product: unknown): ProductType | undefined {
  return parseProductType(contentOf(product).productType);
}

/** The template name of a product type ("physical", "digital", "service", "gift-card", "paywall"). */
export function productTypeName(type: ProductType | undefined): string | undefined {
  return type === undefined ? undefined : PRODUCT_TYPE_TEMPLATE_NAMES[type];
}

export function variantsOf(product: unknown): VariantLike[] {
  const variants = contentOf(product).variants;
  return Array.isArray(variants) ? variants.filter(isRecord) : [];
}

/** More than one variant, and not a digital product. */
export function hasVariants(product: unknown): boolean {
  const type = productTypeOf(product);
  return type !== ProductType.DIGITAL && variantsOf(product).length > 1;
}

/** Any variant on sale (physical, service); the product's own flag for digital products. */
export function isOnSale(product: unknown): boolean {
  switch (productTypeOf(product)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
      return variantsOf(product).some((v) => truthy(v.onSale));
    case ProductType.DIGITAL:
      return truthy(contentOf(product).onSale);
    default:
      return false;
  }
}

/**
 * Physical products and services are sold from stock (an add is checked against each variant's
 * quantity unless it is unlimited); digital products, gift cards and paywalls are not.
 */
export function tracksStock(type: ProductType | undefined): boolean {
  return type === ProductType.PHYSICAL || type === ProductType.SERVICE;
}

/** A variant can be bought: unlimited stock or a positive quantity. */
export function isVariantInStock(variant: VariantLike): boolean {
  return truthy(variant.unlimited) || Math.trunc(toNumber(variant.qtyInStock)) > 0;
}

/**
 * Physical and service products are sold out when no variant is unlimited or has stock;
 * digital products and gift cards never are; unknown types count as sold out.
 */
export function isSoldOut(product: unknown): boolean {
  switch (productTypeOf(product)) {
    case ProductType.PHYSICAL:
    case ProductType.SERVICE:
      return !variantsOf(product).some(isVariantInStock);
    case ProductType.DIGITAL:
    case ProductType.GIFT_CARD:
      return false;
    default:
      return true;
  }
}

/** Deep equality of JSON values (missing equals missing). */
export function jsonEquals(x: unknown, y: unknown): boolean {
  const a = unboxNumber(x);
  const b = unboxNumber(y);
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEquals(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => k in b && jsonEquals(a[k], b[k]));
  }
  return false;
}

/**
 * Variants of a physical, service or gift card product differ in price: a different sale
 * flag, a different sale price while the first is on sale, or a different regular price.
 */
export function hasVariedPrices(product: unknown): boolean {
  const type = productTypeOf(product);
  if (type !== ProductType.PHYSICAL && type !== ProductType.SERVICE && type !== ProductType.GIFT_CARD) {
    return false;
  }
  const [first, ...rest] = variantsOf(product);
  if (!first) return false;
  return rest.some(
    (v) =>
      !jsonEquals(v.onSale, first.onSale) ||
      (truthy(first.onSale) && !jsonEquals(v.salePrice, first.salePrice)) ||
      !jsonEquals(v.price, first.price),
  );
}

/**
 * Units in stock over all variants; `Infinity` for digital products, gift cards and when
 * any variant is unlimited.
 */
export function totalStock(product: unknown): number {
  const type = productTypeOf(product);
  if (type === ProductType.DIGITAL || type === ProductType.GIFT_CARD) return Number.POSITIVE_INFINITY;
  let total = 0;
  for (const v of variantsOf(product)) {
    if (truthy(v.unlimited)) return Number.POSITIVE_INFINITY;
    total += Math.trunc(toNumber(v.qtyInStock));
  }
  return total;
}

/** The amount of a {value} Money node as an exact decimal (missing or invalid: 0). */
export function moneyAmount(money: unknown): Decimal {
  const zero = { coefficient: 0n, scale: 0 };
  if (!isRecord(money)) return zero;
  const raw = money.value ?? money.decimalValue;
  if (typeof raw === "string" || typeof raw === "number") return parseDecimal(raw) ?? zero;
  // A boxed number prints as written in its source ("100.0"), which parses exactly.
  if (typeof unboxNumber(raw) === "number") return parseDecimal(String(raw)) ?? zero;
  return zero;
}

/** The price a variant sells at: its sale money when on sale, else its regular money. */
export function effectivePriceMoney(variant: VariantLike): unknown {
  return truthy(variant.onSale) ? variant.salePriceMoney : variant.priceMoney;
}

/** The default money node: 0 USD. */
export const ZERO_MONEY = Object.freeze({ value: "0", currency: "USD" });

/**
 * The money of the variant whose amount `wins` against every other's (`compareDecimal` of
 * the two), each variant's money read with `priceOf`; the product's price for digital
 * products, 0 USD for products with no variants or of other types.
 */
function variantPriceMoney(
  product: unknown,
  priceOf: (variant: VariantLike) => unknown,
  wins: (comparison: number) => boolean,
): unknown {
  const type = productTypeOf(product);
  if (type === ProductType.DIGITAL) return contentOf(product).priceMoney ?? ZERO_MONEY;
  if (type !== ProductType.PHYSICAL && type !== ProductType.SERVICE && type !== ProductType.GIFT_CARD) {
    return ZERO_MONEY;
  }
  const variants = variantsOf(product);
  if (variants.length === 0) return ZERO_MONEY;
  let best = priceOf(variants[0]);
  let bestAmount = moneyAmount(best);
  for (const v of variants.slice(1)) {
    const money = priceOf(v);
    const amount = moneyAmount(money);
    if (wins(compareDecimal(amount, bestAmount))) {
      best = money;
      bestAmount = amount;
    }
  }
  return best;
}

/**
 * The lowest selling price among variants (sale price for variants on sale); the product's
 * price for digital products. Money nodes as found in the product.
 */
export function lowestPriceMoney(product: unknown): unknown {
  return variantPriceMoney(product, effectivePriceMoney, (comparison) => comparison < 0);
}

/** The highest regular price among variants; the product's price for digital products. */
export function highestPriceMoney(product: unknown): unknown {
  return variantPriceMoney(
    product,
    (v) => v.priceMoney,
    (comparison) => comparison > 0,
  );
}

/** The lowest sale price among variants on sale (physical, service); digital: its sale price. */
export function lowestSalePriceMoney(product: unknown): unknown {
  const type = productTypeOf(product);
  if (type === ProductType.DIGITAL) return contentOf(product).salePriceMoney ?? ZERO_MONEY;
  if (type !== ProductType.PHYSICAL && type !== ProductType.SERVICE) return ZERO_MONEY;
  let best: unknown;
  let bestAmount: Decimal | undefined;
  for (const v of variantsOf(product)) {
    if (!truthy(v.onSale)) continue;
    const amount = moneyAmount(v.salePriceMoney);
    if (bestAmount === undefined || compareDecimal(amount, bestAmount) < 0) {
      best = v.salePriceMoney;
      bestAmount = amount;
    }
  }
  return bestAmount === undefined ? ZERO_MONEY : best;
}
