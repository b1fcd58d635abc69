/**
 * Commerce formatters: prices, money, the product form (add-to-cart button, quantity
 * input, variant pickers), product marks and merchandising blocks. The store rules
 * (availability, prices, subscription terms) come from @atelier/commerce.
 */
import {
  type Decimal,
  decimalToString,
  formatLegacyAmount,
  highestPriceMoney,
  legacyMoneyHtml,
  lowestPriceMoney,
  lowestSalePriceMoney,
  movePoint,
} from "@atelier/commerce";
import { getPath } from "../commerce/nodes.js";
import { cldrFor, availableLanguages } from "../i18n/cldr.js";
import {
  quickViewHtml,
  productStatusHtml,
  restockNotificationHtml,
  scarcityHtml,
} from "../commerce/merchandising.js";
import { decimalOf, legacyCents } from "../commerce/money.js";
import { productPriceHtml, subscriptionPriceHtml } from "../commerce/price.js";
import { addToCartButtonHtml, quantityInputHtml, variantsSelectHtml } from "../commerce/product-form.js";
import type { Formatter, FormatterTable, RenderContext } from "../types.js";
import { asNumber, asString, isNumber } from "../util/values.js";

/** The CLDR data of the render locale, or `undefined` when the locale has no CLDR data (e.g. "none"). */
function localeCldr(ctx: RenderContext) {
  const locale = ctx.locale || "en-US";
  let language: string;
  try {
    language = new Intl.Locale(locale).language;
  } catch {
    return undefined;
  }
  if (!availableLanguages().includes(language)) return undefined;
  const cldr = cldrFor(locale);
  if (cldr === undefined) ctx.error(`CLDR data for locale "${locale}" is not loaded`);
  return cldr;
}

/**
 * The amount in cents of a legacy money formatter's input: JSON numbers only. Text (such
 * as the cents string the price formatters produce) is left as it is, as the published
 * reference engine does.
 */
function centsOf(value: unknown): Decimal | undefined {
  return isNumber(value) ? decimalOf(value) : undefined;
}

/** moneyFormat / money-format: an amount in cents as "1,234.56". */
const moneyFormat: Formatter = (_args, vars) => {
  const cents = centsOf(vars[0].value);
  if (cents !== undefined) vars[0].value = formatLegacyAmount(movePoint(cents, -2));
};

export const commerceFormatters: FormatterTable = {
  "add-to-cart-btn": (_args, vars, ctx) => {
    vars[0].value = addToCartButtonHtml(vars[0].value, ctx);
  },

  /** An amount in cents in the currency of the locale's region: 12345 → "$123.45" for en-US. */
  "bookkeeper-money-format": (_args, vars, ctx) => {
    const cldr = localeCldr(ctx);
    if (cldr === undefined) {
      vars[0].value = "";
      return;
    }
    const cents = decimalOf(vars[0].value) ?? { coefficient: 0n, scale: 0 };
    const amount = movePoint(cents, -2);
    const currency = cldr.Numbers.getCurrencyForRegion(cldr.General.locale().tag.region());
    vars[0].value = cldr.Numbers.formatCurrency(decimalToString(amount), currency);
  },

  "cart-quantity": (_args, vars) => {
    let count = 0;
    const entries = getPath(vars[0].value, "entries");
    if (Array.isArray(entries)) {
      for (const entry of entries) {
        const n = asNumber(getPath(entry, "quantity"));
        if (Number.isFinite(n)) count += n;
      }
    }
    vars[0].value = `<span class="sqs-cart-quantity">${count}</span>`;
  },

  /** Retired by the reference engine: it prints a notice instead of a subtotal. */
  "cart-subtotal": (_args, vars) => {
    vars[0].value = "deprecated, do not use";
  },

  "cart-url": (_args, vars) => {
    vars[0].value = "/cart";
  },

  /** The lowest selling price in cents ("1050"). */
  "from-price": (_args, vars) => {
    vars[0].value = legacyCents(lowestPriceMoney(vars[0].value));
  },

  "money-format": moneyFormat,
  moneyFormat,

  /** An amount in cents as `<span class="sqs-money-native">123.45</span>`. */
  "money-string": (_args, vars) => {
    const cents = centsOf(vars[0].value);
    if (cents !== undefined) vars[0].value = legacyMoneyHtml(movePoint(cents, -2));
  },

  /** The highest regular price in cents. */
  "normal-price": (_args, vars) => {
    vars[0].value = legacyCents(highestPriceMoney(vars[0].value));
  },

  /** A number with 2 (or, with `trim`, 0) to 3 fraction digits in the locale's format. */
  "percentage-format": (args, vars, ctx) => {
    const cldr = localeCldr(ctx);
    if (cldr === undefined) {
      vars[0].value = "";
      return;
    }
    const trim = args.includes("trim");
    const n = decimalOf(vars[0].value) ?? { coefficient: 0n, scale: 0 };
    vars[0].value = cldr.Numbers.formatDecimal(decimalToString(n), {
      minimumFractionDigits: trim ? 0 : 2,
      maximumFractionDigits: 3,
    });
  },

  /** The whole product form: variant pickers, quantity input and add-to-cart button, in that order. */
  "product-checkout": (_args, vars, ctx) => {
    const product = vars[0].value;
    vars[0].value =
      (variantsSelectHtml(product, ctx) ?? "") +
      (quantityInputHtml(product, ctx) ?? "") +
      addToCartButtonHtml(product, ctx);
  },

  "product-price": (args, vars, ctx) => {
    vars[0].value = productPriceHtml(vars[0].value, args, ctx);
  },

  "product-quick-view": (args, vars, ctx) => {
    vars[0].value = quickViewHtml(vars[0].value, args[0] ?? "", ctx);
  },

  "product-restock-notification": (_args, vars, ctx) => {
    vars[0].value = restockNotificationHtml(vars[0].value, ctx);
  },

  "product-scarcity": (_args, vars, ctx) => {
    vars[0].value = scarcityHtml(vars[0].value, ctx);
  },

  "product-status": (_args, vars, ctx) => {
    vars[0].value = productStatusHtml(vars[0].value, ctx);
  },

  "quantity-input": (_args, vars, ctx) => {
    vars[0].value = quantityInputHtml(vars[0].value, ctx);
  },

  /** The lowest sale price in cents (0 when nothing is on sale). */
  "sale-price": (_args, vars) => {
    vars[0].value = legacyCents(lowestSalePriceMoney(vars[0].value));
  },

  "subscription-price": (args, vars, ctx) => {
    vars[0].value = subscriptionPriceHtml(vars[0].value, args, ctx);
  },

  /** A variant's option values: "Large / Blue". */
  "variant-descriptor": (_args, vars) => {
    const options = getPath(vars[0].value, "optionValues");
    vars[0].value = Array.isArray(options)
      ? options.map((o) => asString(getPath(o, "value"))).join(" / ")
      : "";
  },

  "variants-select": (_args, vars, ctx) => {
    vars[0].value = variantsSelectHtml(vars[0].value, ctx);
  },
};
