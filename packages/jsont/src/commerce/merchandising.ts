/**
 * Product marks and merchandising blocks: status (sold out / sale), quick view, scarcity
 * alerts and restock sign-up forms. Per-product settings come from
 * `productMerchandisingContext.<productId>`, store settings from `websiteSettings.storeSettings`.
 */
import { isOnSale, isSoldOut } from "@atelier/commerce";
import type { RenderContext } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { stringifyJson } from "../util/json.js";
import { asBoolean, asString, isObject, isTruthy, toDisplayString } from "../util/values.js";
import { formatMessage } from "./message.js";
import { arrayOf, getPath, localized } from "./nodes.js";

/** The merchandising settings of a product, or `undefined`. */
function merchandisingContext(product: unknown, ctx: RenderContext): Record<string, unknown> | undefined {
  const id = asString(getPath(product, "id"));
  if (id === "") return undefined;
  const all = ctx.resolve("productMerchandisingContext");
  const settings = getPath(all, id);
  return isObject(settings) ? settings : undefined;
}

/** The store setting `name`, looked up under websiteSettings.storeSettings, then storeSettings. */
function storeSetting(ctx: RenderContext, name: string): unknown {
  const fromWebsite = ctx.resolve(["websiteSettings", "storeSettings", name]);
  return fromWebsite !== undefined ? fromWebsite : ctx.resolve(["storeSettings", name]);
}

/**
 * The product mark: "sold out" (the product's custom sold-out text, else the store's, else
 * the localized text) when sold out, "sale" when on sale, `undefined` otherwise.
 */
export function productStatusHtml(product: unknown, ctx: RenderContext): string | undefined {
  if (isSoldOut(product)) {
    const custom = asString(merchandisingContext(product, ctx)?.customSoldOutText);
    const store = asString(storeSetting(ctx, "customSoldOutText"));
    const text = custom || store || localized(ctx, "productSoldOutText", "sold out");
    return `<div class="product-mark sold-out">${escapeAttr(text)}</div>`;
  }
  if (isOnSale(product)) {
    return `<div class="product-mark sale">${localized(ctx, "productSaleText", "sale")}</div>`;
  }
  return undefined;
}

/**
 * The quick-view button. The group argument names a field of the item or a variable in
 * scope whose value is the group; otherwise it is the group itself.
 */
export function quickViewHtml(item: unknown, group: string, ctx: RenderContext): string {
  let groupText = group;
  if (group !== "") {
    const own = getPath(item, group);
    const found = own !== undefined ? own : ctx.resolve(group);
    if (found !== undefined) groupText = asString(found);
  }
  const textNode = ctx.resolve(["localizedStrings", "productQuickViewText"]);
  const text = textNode === undefined ? "Quick View" : asString(textNode);
  return (
    `<span class="sqs-product-quick-view-button" role="button" tabindex="0" data-id="${escapeAttr(asString(getPath(item, "id")))}"` +
    ` data-group="${escapeAttr(groupText)}">${text}</span>`
  );
}

/**
 * Scarcity alerts ("Only 3 left!") for the variants the merchandising context lists, or
 * `undefined` when scarcity is off for the product. Alerts tied to variant attributes start
 * hidden; the variant picker shows the one matching the selection.
 */
export function scarcityHtml(product: unknown, ctx: RenderContext): string | undefined {
  const settings = merchandisingContext(product, ctx);
  if (settings === undefined || !asBoolean(settings.scarcityEnabled)) return undefined;
  const pattern = asString(settings.scarcityText);
  let out = "";
  for (const view of arrayOf(settings.scarcityTemplateViews)) {
    const attributes = getPath(view, "attributes");
    const attrs = isTruthy(attributes)
      ? ` data-variant-attributes="${escapeAttr(stringifyJson(attributes) ?? "")}" hidden`
      : "";
    const qty = getPath(view, "qtyInStock");
    const text = formatMessage(ctx, pattern, { qtyInStock: toDisplayString(qty) });
    out += `\n  <div class="product-scarcity"${attrs}>\n    ${escapeAttr(text)}\n  </div>\n`;
  }
  return out;
}

/**
 * Restock sign-up forms, one per variant view of the merchandising context (hidden until
 * the visitor picks that sold-out variant), with the mailing-list opt-in and the captcha
 * container when configured. Nothing when the store turned restock notifications off.
 */
export function restockNotificationHtml(product: unknown, ctx: RenderContext): string {
  const enabled = storeSetting(ctx, "restockNotificationsEnabled");
  if (enabled !== undefined && enabled !== null && !asBoolean(enabled)) return "";
  const settings = merchandisingContext(product, ctx) ?? {};
  const messages = settings.restockNotificationMessages;
  const message = (key: string): string => asString(getPath(messages, key));
  const productId = escapeAttr(asString(getPath(product, "id")));
  // Text is escaped as the references' htmltag does (quotes too); the whitespace is theirs to the
  // byte: the lines of their template's variables, a blank line, then each view.
  const mailingList = isTruthy(settings.mailingListSignUpEnabled)
    ? '  <label class="product-restock-mailing-list"><input type="checkbox" name="isJoinMailingList"' +
      `${isTruthy(settings.mailingListOptInByDefault) ? " checked" : ""}>${escapeAttr(message("mailingListDescription"))}</label>`
    : "";
  const captcha = isTruthy(ctx.resolve(["website", "captchaSettings", "siteKey"]))
    ? '  <div class="captcha-container"></div>'
    : "";

  const views = arrayOf(settings.restockNotificationViews)
    .map((view) => {
      const variantId = escapeAttr(toDisplayString(getPath(view, "variantId")));
      const hidden = isTruthy(getPath(view, "hiddenByDefault")) ? " hidden" : "";
      return (
        `\n<div class="product-restock-notification" data-product-id="${productId}" data-variant-id="${variantId}"${hidden}>\n` +
        `  <span class="product-restock-cta">${escapeAttr(message("CTAText"))}</span>\n` +
        '  <form class="product-restock-form" action="#">\n' +
        `    <input type="text" x-autocompletetype="email" spellcheck="false" name="email" placeholder="${escapeAttr(message("placeholderText"))}">\n` +
        `    <input class="sqs-editable-button" type="submit" value="${escapeAttr(message("buttonText"))}">\n` +
        "  </form>\n" +
        `${mailingList}\n${captcha}\n</div>\n`
      );
    })
    .join("");
  return `\n\n\n\n\n\n${views}\n`;
}
