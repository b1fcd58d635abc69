/**
 * Money strings of the commerce formatters: the legacy `<span class="sqs-money-native">`
 * form (`legacyMoneyHtml`, @atelier/commerce), or the CLDR currency form when the website's
 * `useCLDRMoneyFormat` is on.
 */
import {
  type Decimal,
  decimalToString,
  fractionDigitsOf,
  isSupportedCurrency,
  legacyMoneyHtml,
  moneyAmount,
  movePoint,
  parseDecimal,
} from "@atelier/commerce";
import type { CurrencyType } from "@phensley/cldr";
import { i18nFormatters } from "../formatters/i18n.js";
import { cldrFor } from "../i18n/cldr.js";
import type { RenderContext } from "../types.js";
import { asString, isObject, isTruthy } from "../util/values.js";

/** The default money node: 0 USD. */
export const DEFAULT_MONEY = Object.freeze({ value: "0", currency: "USD" });

/** Whether money prints in the CLDR form (`website.useCLDRMoneyFormat`). */
function useCldrMoneyFormat(ctx: RenderContext): boolean {
  return isTruthy(ctx.resolve(["website", "useCLDRMoneyFormat"]));
}

/** A decimal of a scalar's text; `undefined` when it is not a number. */
export function decimalOf(value: unknown): Decimal | undefined {
  const text = asString(value).trim();
  return text === "" ? undefined : parseDecimal(text);
}

/** The price of a money node in cents as plain text ("1050", "50"), as the legacy price formatters print it. */
export function legacyCents(moneyNode: unknown): string {
  return decimalToString(movePoint(moneyAmount(moneyNode), 2));
}

/** The currency of a money node ({currency} or {currencyCode}), USD when absent. */
function currencyOf(moneyNode: unknown): string {
  if (!isObject(moneyNode)) return "USD";
  const code = asString(moneyNode.currency ?? moneyNode.currencyCode).trim();
  return code === "" ? "USD" : code;
}

const DIGIT_ARG = /^(min|max)(frac|Frac|imumFractionDigits)\b/;

/**
 * The site's prices keep the SPEC's fraction digits for its currencies (COP and IDR have 2 where
 * CLDR data has 0), unless the template asks for other digits.
 */
function siteCurrencyArgs(currency: string, args: string[]): string[] {
  if (!isSupportedCurrency(currency) || args.some((a) => DIGIT_ARG.test(a))) return args;
  const digits = fractionDigitsOf(currency);
  return [...args, `minimumFractionDigits:${digits}`, `maximumFractionDigits:${digits}`];
}

/** Formats an amount with the CLDR currency format of the render locale. */
function cldrMoney(amount: Decimal, currency: string, templateArgs: string[], ctx: RenderContext): string {
  const node = { decimalValue: decimalToString(amount), currencyCode: currency };
  const args = siteCurrencyArgs(currency.toUpperCase(), templateArgs);
  const money = i18nFormatters.money ?? i18nFormatters["i18n-money-format"];
  if (money !== undefined) {
    const v = { value: node as unknown };
    money(args, [v], ctx);
    return asString(v.value);
  }
  const cldr = cldrFor(ctx.locale || "en-US");
  if (cldr === undefined) {
    ctx.error(`CLDR data for locale "${ctx.locale}" is not loaded`);
    return "";
  }
  return cldr.Numbers.formatCurrency(node.decimalValue, currency as CurrencyType);
}

/** The display string of a money node for the product and subscription price formatters. */
export function moneyString(moneyNode: unknown, args: string[], ctx: RenderContext): string {
  const amount = moneyAmount(moneyNode);
  if (useCldrMoneyFormat(ctx)) return cldrMoney(amount, currencyOf(moneyNode), args, ctx);
  return legacyMoneyHtml(amount, currencyOf(moneyNode));
}
