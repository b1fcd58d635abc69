/**
 * The product-price and subscription-price blocks.
 */
import {
  effectivePriceMoney,
  hasVariedPrices,
  highestPriceMoney,
  isOnSale,
  lowestPriceMoney,
  lowestSalePriceMoney,
  moneyAmount,
  ProductType,
  parseSubscriptionPlan,
  productTypeOf,
  subscriptionMessageArgs,
  subscriptionMessageKey,
  subscriptionPricePattern,
  type VariantLike,
  variantsOf,
} from "@atelier/commerce";
import { compareDecimal } from "@atelier/commerce";
import type { RenderContext } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { asBoolean, isObject, isTruthy } from "../util/values.js";
import { arrayOf, getPath, localized } from "./nodes.js";
import { formatMessage, type MessageArgs } from "./message.js";
import { DEFAULT_MONEY, moneyString } from "./money.js";

/** What a price block shows, already formatted; the first present part wins. */
interface PriceParts {
  /** "from $10.00" (or "Unavailable"). */
  from?: string;
  /** The sale price and the original price it replaces. */
  sale?: { price: string; original: string };
  /** The regular price. */
  normal?: string;
}

function hiddenLabel(ctx: RenderContext, key: string, fallback: string): string {
  const text = localized(ctx, key, "");
  return `<span class="visually-hidden v6-visually-hidden">${text === "" ? fallback : escapeAttr(text)}</span>`;
}

/** The `<div class="product-price">` (or subscription-price) markup of a price. */
function renderPriceBlock(cssClass: string, parts: PriceParts, ctx: RenderContext): string {
  let body = "";
  if (parts.from !== undefined) {
    body = `${parts.from}\n`;
  } else if (parts.sale !== undefined) {
    body =
      `${hiddenLabel(ctx, "salePriceText", "Sale Price:")}${parts.sale.price} ` +
      `${hiddenLabel(ctx, "originalPriceText", "Original Price:")}<span class="original-price">${parts.sale.original}</span>\n`;
  } else if (parts.normal !== undefined) {
    body = parts.normal;
  }
  // The reference template opens with two variable lines and a comment, whose line breaks
  // stay in the output before the block.
  return `\n\n\n<div class="${cssClass}">\n${body}\n</div>`;
}

function fromPattern(ctx: RenderContext): string {
  return localized(ctx, "productPriceFromText", "from {fromPrice}", false);
}

/** Price parts of a one-time-purchase product. */
function oneTimeParts(product: unknown, args: string[], ctx: RenderContext): PriceParts {
  const parts: PriceParts = {};
  const normal = moneyString(highestPriceMoney(product), args, ctx);
  if (hasVariedPrices(product)) {
    const from = moneyString(lowestPriceMoney(product), args, ctx);
    parts.from = formatMessage(ctx, fromPattern(ctx), { fromPrice: from, price: from });
  }
  if (isOnSale(product)) {
    parts.sale = { price: moneyString(lowestSalePriceMoney(product), args, ctx), original: normal };
  }
  parts.normal = normal;
  return parts;
}

/** Price parts of a subscription product: every price followed by its billing terms. */
function subscriptionParts(product: unknown, args: string[], ctx: RenderContext): PriceParts {
  const plan = parseSubscriptionPlan(getPath(product, "structuredContent", "subscriptionPlan"));
  if (plan === undefined) return { from: localized(ctx, "productPriceUnavailable", "Unavailable", false) };

  const multiple = hasVariedPrices(product);
  const pattern = localized(
    ctx,
    subscriptionMessageKey(plan, multiple),
    subscriptionPricePattern(plan, { from: multiple }),
    false,
  );
  const terms = subscriptionMessageArgs(plan);
  const text = (price: string): string => {
    const messageArgs: MessageArgs = { price, fromPrice: price, ...terms };
    return formatMessage(ctx, pattern, messageArgs);
  };

  const parts: PriceParts = {};
  const normal = text(moneyString(highestPriceMoney(product), args, ctx));
  if (multiple) parts.from = text(moneyString(lowestPriceMoney(product), args, ctx));
  if (isOnSale(product))
    parts.sale = { price: text(moneyString(lowestSalePriceMoney(product), args, ctx)), original: normal };
  parts.normal = normal;
  return parts;
}

/** The product-price markup of a product. */
export function productPriceHtml(product: unknown, args: string[], ctx: RenderContext): string {
  let parts: PriceParts = {};
  if (asBoolean(getPath(product, "structuredContent", "isSubscribable"))) {
    parts = subscriptionParts(product, args, ctx);
  } else if (productTypeOf(product) !== undefined) {
    parts = oneTimeParts(product, args, ctx);
  }
  return renderPriceBlock("product-price", parts, ctx);
}

/**
 * The pricing options (subscription prices) of the variant that sells for least, for
 * physical products and services; `undefined` otherwise.
 */
function lowestVariantPricingOptions(product: unknown): unknown[] | undefined {
  const type = productTypeOf(product);
  if (type !== ProductType.PHYSICAL && type !== ProductType.SERVICE) return undefined;
  const variants = variantsOf(product);
  if (variants.length === 0) return undefined;
  let best: VariantLike = variants[0];
  let bestAmount = moneyAmount(effectivePriceMoney(best));
  for (const v of variants.slice(1)) {
    const amount = moneyAmount(effectivePriceMoney(v));
    if (compareDecimal(amount, bestAmount) < 0) {
      best = v;
      bestAmount = amount;
    }
  }
  return arrayOf(best.pricingOptions);
}

/** The subscription-price markup: the price of the first pricing option of the cheapest variant. */
export function subscriptionPriceHtml(product: unknown, args: string[], ctx: RenderContext): string {
  const parts: PriceParts = {};
  const options = lowestVariantPricingOptions(product) ?? [];
  const first = options[0];
  if (isObject(first)) {
    if (hasVariedPrices(product)) {
      const from = moneyString(effectivePriceMoney(first) ?? DEFAULT_MONEY, args, ctx);
      parts.from = formatMessage(ctx, fromPattern(ctx), { fromPrice: from, price: from });
    }
    const normal = moneyString(first.priceMoney, args, ctx);
    if (isTruthy(first.onSale))
      parts.sale = { price: moneyString(first.salePriceMoney, args, ctx), original: normal };
    parts.normal = normal;
  }
  return renderPriceBlock("subscription-price", parts, ctx);
}
