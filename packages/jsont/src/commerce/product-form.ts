/**
 * The product form pieces: add-to-cart button, quantity input and variant pickers.
 */
import { ProductType, productTypeOf, totalStock, variantsOf } from "@atelier/commerce";
import type { RenderContext } from "../types.js";
import { escapeAttr } from "../util/html.js";
import { stringifyJson } from "../util/json.js";
import { asBoolean, asString, isObject, isTruthy, toDisplayString } from "../util/values.js";
import { formatMessage } from "./message.js";
import { arrayOf, getPath, localized } from "./nodes.js";

function jsonAttr(value: unknown): string {
  return escapeAttr(stringifyJson(value) ?? "");
}

/** The add button's label: custom text, else the localized Subscribe / Add To Cart, else the defaults. */
function addButtonLabel(content: unknown, ctx: RenderContext): string {
  const custom = getPath(content, "customAddButtonText");
  if (isTruthy(getPath(content, "useCustomAddButtonText")) && isTruthy(custom)) return asString(custom);
  if (isTruthy(getPath(content, "isSubscribable")))
    return localized(ctx, "productSubscribeText", "Subscribe");
  return localized(ctx, "productAddToCartText", "Add To Cart");
}

/** The add-to-cart button of a product item. */
export function addToCartButtonHtml(item: unknown, ctx: RenderContext): string {
  const content = getPath(item, "structuredContent");
  const form = getPath(content, "additionalFieldsForm");
  const useForm = isTruthy(getPath(content, "additionalFieldsFormId")) && isTruthy(form);
  const subscribable = getPath(content, "isSubscribable");
  const label = addButtonLabel(content, ctx);

  let subscriptionOption = "";
  if (isTruthy(subscribable)) {
    const first = arrayOf(getPath(content, "productSubscriptionOptions"))[0];
    const id = asString(getPath(first, "id"));
    if (id !== "") subscriptionOption = `data-subscription-option-id="${escapeAttr(id)}"`;
  }

  return (
    '<div class="sqs-add-to-cart-button-wrapper" data-animation-role="button">\n' +
    '  <div class="sqs-add-to-cart-button sqs-suppress-edit-mode sqs-editable-button sqs-button-element--primary ' +
    `${useForm ? "use-form" : ""}" role="button" tabindex="0" data-dynamic-strings` +
    ` data-collection-id="${escapeAttr(toDisplayString(getPath(item, "collectionId")))}"` +
    ` data-item-id="${escapeAttr(toDisplayString(getPath(item, "id")))}"` +
    ` data-product-type="${escapeAttr(toDisplayString(getPath(content, "productType")))}"` +
    ` data-use-custom-label="${escapeAttr(toDisplayString(getPath(content, "useCustomAddButtonText")))}" ` +
    (isTruthy(subscribable) ? `data-is-subscription="${escapeAttr(toDisplayString(subscribable))}" ` : "") +
    `data-original-label="${escapeAttr(label)}" ` +
    (useForm ? `data-form="${jsonAttr(form)}"` : "") +
    `${subscriptionOption}>\n` +
    `    <div class="sqs-add-to-cart-button-inner">${escapeAttr(label)}</div>\n` +
    "  </div>\n" +
    "</div>"
  );
}

/** Services allow several units unless the store settings say otherwise. */
function multipleQuantityAllowedForServices(websiteSettings: unknown): boolean {
  const storeSettings = getPath(websiteSettings, "storeSettings");
  if (!isObject(storeSettings)) return true;
  const value = storeSettings.multipleQuantityAllowedForServices;
  return value === undefined || value === null ? true : asBoolean(value);
}

/**
 * The quantity input of a product item, or `undefined` when it is hidden: only physical
 * products (and services when allowed) that are not subscriptions, with more than one
 * unit in stock.
 */
export function quantityInputHtml(item: unknown, ctx: RenderContext): string | undefined {
  const type = productTypeOf(item);
  const allowed =
    (type === ProductType.PHYSICAL ||
      (type === ProductType.SERVICE && multipleQuantityAllowedForServices(ctx.resolve("websiteSettings")))) &&
    !asBoolean(getPath(item, "structuredContent", "isSubscribable"));
  if (!allowed || totalStock(item) <= 1) return undefined;
  const label = escapeAttr(localized(ctx, "productQuantityInputLabel", "Quantity"));
  return (
    `<div class="product-quantity-input" data-item-id="${escapeAttr(toDisplayString(getPath(item, "id")))}" data-animation-role="content">\n` +
    `  <div class="quantity-label">${label}:</div>\n` +
    `  <input aria-label="${label}" size="4" max="9999" min="1" value="1" type="number" step="1"></input>\n` +
    "</div>"
  );
}

interface VariantOption {
  name: string;
  values: string[];
}

/**
 * The variant options of a product with more than one variant: the names of
 * variantOptionOrdering, each with the distinct values its variants use, in order of
 * appearance.
 */
function variantOptions(item: unknown): VariantOption[] {
  const variants = variantsOf(item);
  if (variants.length <= 1) return [];
  const options: VariantOption[] = arrayOf(getPath(item, "structuredContent", "variantOptionOrdering")).map(
    (n) => ({
      name: asString(n),
      values: [],
    }),
  );
  for (const variant of variants) {
    const attributes = variant.attributes;
    if (!isObject(attributes)) continue;
    for (const field of Object.keys(attributes)) {
      const option = options.find((o) => o.name === field);
      if (option === undefined) continue;
      const value = asString(attributes[field]);
      if (!option.values.includes(value)) option.values.push(value);
    }
  }
  return options;
}

/** The variant pickers (a select and radio buttons per option), or `undefined` when there is nothing to pick. */
export function variantsSelectHtml(item: unknown, ctx: RenderContext): string | undefined {
  const options = variantOptions(item);
  if (options.length === 0) return undefined;
  const giftCard = productTypeOf(item) === ProductType.GIFT_CARD;
  const displayPattern = giftCard ? localized(ctx, "giftCardValueDisplayText", "Value") : "{name}";
  const selectPattern = giftCard
    ? localized(ctx, "giftCardVariantSelectText", "Select Value")
    : localized(ctx, "productVariantSelectText", "Select {variantName}");

  const content = getPath(item, "structuredContent");
  const subscribable = isTruthy(getPath(content, "isSubscribable"))
    ? ` data-is-subscribable="true" data-subscription-plan="${jsonAttr(getPath(content, "subscriptionPlan"))}"`
    : "";
  let out =
    `<div class="product-variants" data-item-id="${escapeAttr(toDisplayString(getPath(item, "id")))}"` +
    ` data-variants="${jsonAttr(getPath(content, "variants"))}"${subscribable} data-animation-role="content">`;

  for (const { name, values } of options) {
    const n = escapeAttr(name);
    const select = escapeAttr(formatMessage(ctx, selectPattern, { variantName: name }));
    // As the references do (htmltag): quotes escaped in the title too.
    const display = escapeAttr(formatMessage(ctx, displayPattern, { name }));
    out +=
      '\n    <div class="variant-option">\n' +
      `    <div class="variant-option-title">${display}: </div>\n` +
      '    <div class="variant-select-wrapper">\n' +
      `      <select aria-label="${select}" data-variant-option-name="${n}">\n` +
      `        <option value="">${select}</option>\n` +
      `        ${values.map((v) => `<option value="${escapeAttr(v)}">${escapeAttr(v)}</option>`).join("")}\n` +
      "      </select>\n" +
      "    </div>\n" +
      `    <div class="variant-radiobtn-wrapper" data-variant-option-name="${n}">`;
    for (const value of values) {
      const v = escapeAttr(value);
      out +=
        `\n      <input type="radio" class="variant-radiobtn" value="${v}" name="variant-option-${n}" id="variant-option-${n}-${v}"/>` +
        `\n      <label class="sqs-button-element--secondary" role="button" tabindex="0" for="variant-option-${n}-${v}">${v}</label>`;
    }
    out += "\n    </div>\n    </div>";
  }
  return `${out}\n  </div>\n`;
}
