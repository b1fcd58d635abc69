/**
 * Add-to-cart validation and the labels of the product form (SPEC §2, §4, §5), with the
 * SPEC's messages word for word.
 */
import {
  contentOf,
  isVariantInStock,
  ProductType,
  productTypeOf,
  toNumber,
  totalStock,
  tracksStock,
  truthy,
  type VariantLike,
  variantsOf,
} from "./availability.js";

export const MSG_VARIANT_UNAVAILABLE =
  "Sorry, that item variant is unavailable. Please select another variant.";
export const MSG_NOT_ENOUGH_STOCK = "Sorry, we do not have enough of that item available.";
export const MSG_QUANTITY_NOT_A_NUMBER = "Quantity must be a number.";
export const MSG_QUANTITY_NOT_WHOLE = "Quantity must be a whole number";
export const MSG_GIFT_CARD_DENOMINATION = "Select a denomination for the Gift Card";

export const QUANTITY_MIN = 1;
export const QUANTITY_MAX = 9999;
export const QUANTITY_DEFAULT = 1;
export const MSG_QUANTITY_OUT_OF_RANGE = `Quantity must be between ${QUANTITY_MIN} and ${QUANTITY_MAX}.`;

/** The cart count shown in the header is capped at this number, shown as "100+" above it. */
export const CART_COUNT_CAP = 100;

export const DEFAULT_ADD_TO_CART_LABEL = "Add To Cart";
export const DEFAULT_SUBSCRIBE_LABEL = "Subscribe";
export const DEFAULT_QUANTITY_LABEL = "Quantity";

/**
 * The message for options left unselected: "Please select the Size option.",
 * "Please select the Size and Color options.", "Please select the Size, Color and Fit options."
 * Empty string when none is missing.
 */
export function selectOptionsMessage(missing: readonly string[]): string {
  if (missing.length === 0) return "";
  if (missing.length === 1) return `Please select the ${missing[0]} option.`;
  const head = missing.slice(0, -1).join(", ");
  return `Please select the ${head} and ${missing[missing.length - 1]} options.`;
}

export type QuantityResult = { ok: true; quantity: number } | { ok: false; error: string };

/** Validates a quantity typed by a visitor: a number, whole, from 1 to 9999. */
export function validateQuantity(input: unknown): QuantityResult {
  const text = typeof input === "number" ? String(input) : typeof input === "string" ? input.trim() : "";
  const n = typeof input === "number" ? input : text === "" ? Number.NaN : Number(text);
  if (!Number.isFinite(n)) return { ok: false, error: MSG_QUANTITY_NOT_A_NUMBER };
  if (!Number.isInteger(n)) return { ok: false, error: MSG_QUANTITY_NOT_WHOLE };
  if (n < QUANTITY_MIN || n > QUANTITY_MAX) return { ok: false, error: MSG_QUANTITY_OUT_OF_RANGE };
  return { ok: true, quantity: n };
}

/** The header cart count: the number up to 100, "100+" above. */
export function cartCountLabel(totalQuantity: number): string {
  return totalQuantity > CART_COUNT_CAP
    ? `${CART_COUNT_CAP}+`
    : String(Math.max(0, Math.trunc(totalQuantity)));
}

/** The cart pill is hidden while the cart is empty. */
export function isCartPillVisible(totalQuantity: number): boolean {
  return totalQuantity > 0;
}

export interface AddButtonLabelInput {
  useCustomAddButtonText?: unknown;
  customAddButtonText?: unknown;
  isSubscribable?: unknown;
  /** Localized "Add To Cart" (localizedStrings.productAddToCartText). */
  addToCartText?: unknown;
  /** Localized "Subscribe" (localizedStrings.productSubscribeText). */
  subscribeText?: unknown;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * The add button's label: the custom text when the product uses one, else the localized
 * Subscribe / Add To Cart text, falling back to "Subscribe" or "Add To Cart".
 */
export function addToCartButtonLabel(input: AddButtonLabelInput): string {
  if (truthy(input.useCustomAddButtonText)) {
    const custom = nonEmpty(input.customAddButtonText);
    if (custom !== undefined) return custom;
  }
  if (isTrue(input.isSubscribable)) return nonEmpty(input.subscribeText) ?? DEFAULT_SUBSCRIBE_LABEL;
  return nonEmpty(input.addToCartText) ?? DEFAULT_ADD_TO_CART_LABEL;
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === "string" && value.trim().toLowerCase() === "true");
}

/** The quantity input's label: the localized text or "Quantity". */
export function quantityLabel(localized?: unknown): string {
  return nonEmpty(localized) ?? DEFAULT_QUANTITY_LABEL;
}

/** The quantity input is hidden when the product has 1 or fewer units in stock in all. */
export function isQuantityInputHidden(product: unknown): boolean {
  return totalStock(product) <= 1;
}

/** Option names of a product: its variantOptionOrdering, else the attribute names of its variants. */
export function optionNames(product: unknown): string[] {
  const ordering = (product as { variantOptionOrdering?: unknown } | undefined)?.variantOptionOrdering;
  const fromContent = contentOf(product).variantOptionOrdering;
  const list = Array.isArray(ordering) ? ordering : Array.isArray(fromContent) ? fromContent : undefined;
  if (list) return list.filter((x): x is string => typeof x === "string");
  const names: string[] = [];
  for (const v of variantsOf(product)) {
    for (const name of Object.keys(v.attributes ?? {})) if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The variant whose attributes equal the selection on every option it has. */
export function findVariant(
  variants: readonly VariantLike[],
  selection: Readonly<Record<string, string>>,
): VariantLike | undefined {
  return variants.find((v) => {
    const attrs = v.attributes ?? {};
    const names = Object.keys(attrs);
    if (names.length !== Object.keys(selection).length) return false;
    return names.every((name) => Object.hasOwn(selection, name) && String(attrs[name]) === selection[name]);
  });
}

export interface AddToCartRequest {
  product: unknown;
  /** Option name → chosen value; unselected options are absent or empty. */
  selection?: Readonly<Record<string, string | undefined>>;
  quantity?: unknown;
  /** Units of the same variant already in the cart. */
  alreadyInCart?: number;
  /** Chosen gift card denomination (a variant id or sku). */
  giftCardDenomination?: string;
}

export type AddToCartResult =
  | { ok: true; variant: VariantLike; quantity: number }
  | { ok: false; error: string };

/** Applies every add-to-cart rule in the order a visitor meets them. */
export function validateAddToCart(request: AddToCartRequest): AddToCartResult {
  const { product } = request;
  const variants = variantsOf(product);
  const type = productTypeOf(product);
  const quantityCheck = validateQuantity(request.quantity ?? QUANTITY_DEFAULT);

  if (type === ProductType.GIFT_CARD) {
    const chosen = request.giftCardDenomination;
    const variant = chosen ? variants.find((v) => v.id === chosen || v.sku === chosen) : undefined;
    if (!variant) return { ok: false, error: MSG_GIFT_CARD_DENOMINATION };
    if (!quantityCheck.ok) return quantityCheck;
    return { ok: true, variant, quantity: quantityCheck.quantity };
  }

  const selection: Record<string, string> = {};
  const missing: string[] = [];
  const names = variants.length > 1 ? optionNames(product) : [];
  for (const name of names) {
    const value = request.selection?.[name];
    if (value === undefined || value === "") missing.push(name);
    else selection[name] = value;
  }
  if (missing.length > 0) return { ok: false, error: selectOptionsMessage(missing) };

  const variant =
    variants.length === 1 && names.length === 0 ? variants[0] : findVariant(variants, selection);
  if (!variant) return { ok: false, error: MSG_VARIANT_UNAVAILABLE };
  if (!quantityCheck.ok) return quantityCheck;

  if (tracksStock(type) && !truthy(variant.unlimited)) {
    const stock = Math.trunc(toNumber(variant.qtyInStock));
    if (!isVariantInStock(variant) || quantityCheck.quantity + (request.alreadyInCart ?? 0) > stock) {
      return { ok: false, error: MSG_NOT_ENOUGH_STOCK };
    }
  }
  return { ok: true, variant, quantity: quantityCheck.quantity };
}
