/**
 * The product form's rules in the browser (SPEC §4 variant picker, §5 add-to-cart): which
 * variant a selection names, what is missing, which choices are sold out, and the price to show.
 * Pure functions over the product as the page's markup carries it (`data-variants`).
 */
import {
  type SubscriptionPlan,
  findVariant,
  fractionDigitsOf,
  isMoney,
  isVariantInStock,
  legacyMoneyHtml,
  moneyToMinor,
  ProductType,
  parseSubscriptionPlan,
  selectOptionsMessage,
  subscriptionPriceText,
} from "@atelier/commerce";

export interface VariantData {
  id?: string;
  sku?: string;
  attributes?: Record<string, string>;
  price?: number;
  salePrice?: number;
  onSale?: boolean;
  priceMoney?: unknown;
  salePriceMoney?: unknown;
  qtyInStock?: number;
  unlimited?: boolean;
  [key: string]: unknown;
}

export interface ProductInfo {
  itemId: string;
  /** 1 physical, 2 digital, 3 service, 4 gift card. */
  productType: number;
  isSubscribable: boolean;
  subscriptionPlan?: SubscriptionPlan;
  variants: VariantData[];
  /** Option names in the order the page shows them. */
  optionNames: string[];
}

type Selection = Readonly<Record<string, string | undefined>>;

export interface SelectionState {
  /** Options not chosen yet, in order. */
  missing: string[];
  /** The variant the selection names, when complete and one matches. */
  variant?: VariantData;
  /** Complete, but no variant has these values. */
  unavailable: boolean;
  soldOut: boolean;
}

export function isGiftCard(p: ProductInfo): boolean {
  return p.productType === ProductType.GIFT_CARD;
}

/** A variant can be bought: digital products and gift cards always, others with stock. */
export function variantAvailable(p: ProductInfo, v: VariantData): boolean {
  return p.productType === ProductType.DIGITAL || isGiftCard(p) || isVariantInStock(v);
}

function chosen(selection: Selection, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const value = selection[n];
    if (value !== undefined && value !== "") out[n] = value;
  }
  return out;
}

/** What a selection amounts to. A product with one variant needs no choice. */
export function selectionState(p: ProductInfo, selection: Selection): SelectionState {
  if (p.variants.length === 1 && p.optionNames.length === 0) {
    const variant = p.variants[0]!;
    return { missing: [], variant, unavailable: false, soldOut: !variantAvailable(p, variant) };
  }
  const picked = chosen(selection, p.optionNames);
  const missing = p.optionNames.filter((n) => !(n in picked));
  if (missing.length > 0) return { missing, unavailable: false, soldOut: false };
  const variant = findVariant(p.variants, picked) as VariantData | undefined;
  if (!variant) return { missing: [], unavailable: true, soldOut: false };
  return { missing: [], variant, unavailable: false, soldOut: !variantAvailable(p, variant) };
}

/** The message for the options left to choose ('Please select the Size option.' …). */
export function missingMessage(state: SelectionState): string {
  return selectOptionsMessage(state.missing);
}

/**
 * Values of an option that no available variant offers together with the other options chosen
 * so far (disabled when the store disables sold-out choices).
 */
export function soldOutValues(p: ProductInfo, option: string, selection: Selection): Set<string> {
  const others = chosen(selection, p.optionNames);
  delete others[option];
  const values = new Set<string>();
  const open = new Set<string>();
  for (const v of p.variants) {
    const value = v.attributes?.[option];
    if (value === undefined) continue;
    values.add(value);
    const fits = Object.entries(others).every(([k, x]) => v.attributes?.[k] === x);
    if (fits && variantAvailable(p, v)) open.add(value);
  }
  return new Set([...values].filter((x) => !open.has(x)));
}

interface MoneyFormat {
  /** The store currency (used when a variant carries no money node). */
  currency: string;
  /** CLDR money format (website setting useCLDRMoneyFormat) instead of the legacy span. */
  cldr: boolean;
  locale?: string;
}

function minorOf(
  moneyNode: unknown,
  cents: unknown,
  fallbackCurrency: string,
): { minor: number; currency: string } {
  if (isMoney(moneyNode)) {
    try {
      return moneyToMinor(moneyNode);
    } catch {
      // fall back to the cents
    }
  }
  return {
    minor: typeof cents === "number" && Number.isSafeInteger(cents) ? cents : 0,
    currency: fallbackCurrency,
  };
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** A money amount as the page shows it: the legacy `sqs-money-native` span, or CLDR text. */
export function moneyHtml(minor: number, currency: string, format: MoneyFormat): string {
  const digits = fractionDigitsOf(currency);
  if (format.cldr) {
    try {
      const text = new Intl.NumberFormat(format.locale ?? "en-US", {
        style: "currency",
        currency,
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      }).format(minor / 10 ** digits);
      return escapeHtml(text);
    } catch {
      // unknown currency code: fall through to the legacy form
    }
  }
  // The legacy span of the server's template formatters, of the major amount: ¥1000 is "1,000",
  // never the minor units read as cents.
  return legacyMoneyHtml({ coefficient: BigInt(Math.trunc(minor)), scale: digits }, currency);
}

interface PriceOptions extends MoneyFormat {
  soldOutText: string;
  unavailableText?: string;
}

/**
 * The price block of a selected variant (SPEC §4): the sale price with the struck-through
 * original when on sale, the subscription text when subscribable, 'Unavailable' when no variant
 * matches; plus the sold-out note when it is out of stock.
 */
export function variantPriceHtml(p: ProductInfo, state: SelectionState, opts: PriceOptions): string {
  const v = state.variant;
  if (!v) return escapeHtml(opts.unavailableText ?? "Unavailable");
  const regular = minorOf(v.priceMoney, v.price, opts.currency);
  const sale = minorOf(v.salePriceMoney, v.salePrice, opts.currency);
  let html: string;
  const onSale = v.onSale === true;
  const price = moneyHtml(onSale ? sale.minor : regular.minor, regular.currency, opts);
  if (p.isSubscribable && p.subscriptionPlan) {
    html = escapeHtmlExceptPrice(subscriptionPriceText("\u0000", p.subscriptionPlan), price);
  } else if (onSale) {
    html =
      `<span class="visually-hidden v6-visually-hidden">Sale Price:</span>${price} ` +
      `<span class="visually-hidden v6-visually-hidden">Original Price:</span>` +
      `<span class="original-price">${moneyHtml(regular.minor, regular.currency, opts)}</span>`;
  } else {
    html = price;
  }
  // A product sold out as a whole is marked by the page already; the note is for one variant.
  const wholeProductSoldOut = p.variants.every((x) => !variantAvailable(p, x));
  if (state.soldOut && !wholeProductSoldOut) {
    html += ` <span class="product-sold-out-note">${escapeHtml(opts.soldOutText)}</span>`;
  }
  return html;
}

function escapeHtmlExceptPrice(text: string, priceHtml: string): string {
  return text
    .split("\u0000")
    .map((part) => escapeHtml(part))
    .join(priceHtml);
}

/** Reads a product's plan from the markup's JSON (data-subscription-plan). */
export function planOf(json: unknown): SubscriptionPlan | undefined {
  return parseSubscriptionPlan(json);
}

/** Every variant is sold out. */
export function productSoldOut(p: ProductInfo): boolean {
  return p.variants.length > 0 && p.variants.every((x) => !variantAvailable(p, x));
}

/** The price of the variant (or the lowest of all) in minor units, for the instalments line. */
export function priceMinorOf(v: VariantData | undefined, currency: string): number {
  if (!v) return 0;
  const node = v.onSale === true ? v.salePriceMoney : v.priceMoney;
  return minorOf(node, v.onSale === true ? v.salePrice : v.price, currency).minor;
}
