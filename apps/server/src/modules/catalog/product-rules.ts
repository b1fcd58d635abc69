/**
 * The rules of a product as the editor sends it: its limits, its field errors (keyed as the form
 * names them) and the product-only settings it keeps in `structuredContent`.
 */
import { ProductType, canBeSubscription } from "@atelier/commerce";
import { htmlToText } from "../../lib/sanitize-html.js";
import { taxonomyErrors } from "../content-admin/item-store.js";
import { seoFieldErrors } from "../seo/fields.js";

export const PRODUCT_NOT_FOUND = "No such product.";
const MAX_VARIANTS = 250;
const MAX_OPTIONS = 6;
const MAX_PRICE_CENTS = 100_000_000;
export const MAX_STOCK = 10_000_000;
export const SUBSCRIPTION_TYPES_ONLY = "Subscriptions are only for physical and service products.";
export const SUBSCRIPTION_UPSELL =
  "Selling subscriptions needs the commerce-subscriptions feature. Upgrade to the Commerce Advanced plan to sell subscriptions.";
export const SALE_PRICE_BELOW = "The sale price must be lower than the price.";

export interface VariantInput {
  id?: string;
  sku?: string;
  attributes?: Record<string, string>;
  priceCents: number;
  salePriceCents?: number;
  onSale?: boolean;
  qtyInStock?: number;
  unlimited?: boolean;
  weightGrams?: number;
  mainImageId?: string | null;
}

export interface ProductInput {
  collectionId?: string;
  title: string;
  urlId?: string;
  productType: number;
  status?: "published" | "draft";
  body?: string;
  excerpt?: string;
  tags?: string[];
  categories?: string[];
  mainImageId?: string | null;
  imageIds?: string[];
  variantOptionOrdering?: string[];
  variants: VariantInput[];
  isSubscribable?: boolean;
  subscriptionPlan?: {
    billingPeriod: { value: number; unit: "WEEK" | "MONTH" | "YEAR" };
    numBillingCycles: number;
  } | null;
  giftCardDenominations?: number[];
  scarcityText?: string;
  seoTitle?: string | null;
  seoDescription?: string | null;
  seoHidden?: boolean;
  useCustomAddButtonText?: boolean;
  customAddButtonText?: string;
  additionalFieldsFormId?: string | null;
}

const int = (v: unknown) => typeof v === "number" && Number.isInteger(v);

/** Checks a product as the editor sends it; answers the field errors keyed as the form names them. */
export function checkProduct(p: ProductInput): Record<string, string> {
  const f: Record<string, string> = {};
  if (!p.title.trim()) f.title = "Please give the product a name.";
  else if (p.title.length > 200) f.title = "A product name can be at most 200 characters.";
  if (
    ![ProductType.PHYSICAL, ProductType.DIGITAL, ProductType.SERVICE, ProductType.GIFT_CARD].includes(
      p.productType as 1,
    )
  )
    f.productType = "Choose physical, digital, service or gift card.";
  const options = p.variantOptionOrdering ?? [];
  if (options.length > MAX_OPTIONS)
    f.variantOptionOrdering = `A product can have at most ${MAX_OPTIONS} options.`;
  if (new Set(options.map((o) => o.trim().toLowerCase())).size !== options.length)
    f.variantOptionOrdering = "Two options have the same name.";
  if (options.some((o) => !o.trim() || o.length > 30))
    f.variantOptionOrdering = "Option names are 1 to 30 characters.";
  if (p.productType === ProductType.GIFT_CARD) {
    const d = p.giftCardDenominations ?? [];
    if (!d.length) f.giftCardDenominations = "Add at least one gift card amount.";
    else if (d.length > 20) f.giftCardDenominations = "A gift card can have at most 20 amounts.";
    else if (d.some((x) => !int(x) || x <= 0 || x > MAX_PRICE_CENTS))
      f.giftCardDenominations = "Gift card amounts must be positive amounts.";
    else if (new Set(d).size !== d.length) f.giftCardDenominations = "Each gift card amount can appear once.";
  } else {
    if (!p.variants.length) f.variants = "A product needs at least one variant with a price.";
    if (p.variants.length > MAX_VARIANTS) f.variants = `A product can have at most ${MAX_VARIANTS} variants.`;
  }
  const combos = new Set<string>();
  p.variants.forEach((v, i) => {
    const k = (name: string) => `variants.${i}.${name}`;
    if (!int(v.priceCents) || v.priceCents < 0 || v.priceCents > MAX_PRICE_CENTS)
      f[k("priceCents")] = "Enter a price.";
    if (v.onSale) {
      if (!int(v.salePriceCents) || (v.salePriceCents ?? 0) < 0)
        f[k("salePriceCents")] = "Enter a sale price.";
      else if ((v.salePriceCents ?? 0) >= v.priceCents) f[k("salePriceCents")] = SALE_PRICE_BELOW;
    }
    if (
      !v.unlimited &&
      v.qtyInStock !== undefined &&
      (!int(v.qtyInStock) || v.qtyInStock < 0 || v.qtyInStock > MAX_STOCK)
    )
      f[k("qtyInStock")] = "Stock is a whole number, 0 or more.";
    if (
      v.weightGrams !== undefined &&
      (!int(v.weightGrams) || v.weightGrams < 0 || v.weightGrams > 1_000_000)
    )
      f[k("weightGrams")] = "Weight is a whole number of grams.";
    if (v.sku?.trim() && !/^[\w.\-/#+]{1,64}$/.test(v.sku.trim()))
      f[k("sku")] = "A SKU is up to 64 letters, digits and - _ . / # +.";
    if (p.productType === ProductType.GIFT_CARD) return;
    const attrs = v.attributes ?? {};
    const keys = Object.keys(attrs);
    if (keys.length !== options.length || options.some((o) => !(o in attrs)))
      f[k("attributes")] = options.length
        ? `Choose a value for ${options.join(", ")}.`
        : "This product has no options.";
    else if (Object.values(attrs).some((val) => typeof val !== "string" || !val.trim() || val.length > 100))
      f[k("attributes")] = "Option values are 1 to 100 characters.";
    else {
      const combo = JSON.stringify(options.map((o) => attrs[o]!.trim().toLowerCase()));
      if (combos.has(combo)) f[k("attributes")] = "Another variant has the same options.";
      combos.add(combo);
    }
  });
  if (p.isSubscribable && !canBeSubscription(p.productType)) f.isSubscribable = SUBSCRIPTION_TYPES_ONLY;
  if (p.isSubscribable) {
    const plan = p.subscriptionPlan;
    if (!plan) f.subscriptionPlan = "Choose how often the subscription bills.";
    else {
      if (!int(plan.billingPeriod.value) || plan.billingPeriod.value < 1 || plan.billingPeriod.value > 52)
        f["subscriptionPlan.billingPeriod.value"] = "Bill every 1 to 52 periods.";
      if (!["WEEK", "MONTH", "YEAR"].includes(plan.billingPeriod.unit))
        f["subscriptionPlan.billingPeriod.unit"] = "Choose weeks, months or years.";
      if (!int(plan.numBillingCycles) || plan.numBillingCycles < 0 || plan.numBillingCycles > 1000)
        f["subscriptionPlan.numBillingCycles"] = "Enter the number of payments (0 for until cancelled).";
    }
  }
  if ((p.scarcityText ?? "").length > 200) f.scarcityText = "At most 200 characters.";
  Object.assign(f, seoFieldErrors(p));
  if (p.useCustomAddButtonText && !(p.customAddButtonText ?? "").trim())
    f.customAddButtonText = "Enter the button text, or turn custom text off.";
  if ((p.customAddButtonText ?? "").length > 60) f.customAddButtonText = "At most 60 characters.";
  if ((p.excerpt ?? "").length > 2000) f.excerpt = "At most 2000 characters.";
  if ((p.body ?? "").length > 100_000) f.body = "The description is too long.";
  Object.assign(f, taxonomyErrors(p.categories ?? [], p.tags ?? []));
  if ((p.imageIds ?? []).length > 50) f.imageIds = "A product can have at most 50 images.";
  return f;
}

/** The product-only settings, kept in the item's `structuredContent`. */
export function structured(p: ProductInput) {
  const subscribable = Boolean(p.isSubscribable);
  return {
    productType: p.productType,
    variantOptionOrdering:
      p.productType === ProductType.GIFT_CARD ? [] : (p.variantOptionOrdering ?? []).map((o) => o.trim()),
    isSubscribable: subscribable,
    subscriptionPlan: subscribable ? p.subscriptionPlan : undefined,
    scarcityText: p.scarcityText?.trim() || undefined,
    useCustomAddButtonText: Boolean(p.useCustomAddButtonText),
    customAddButtonText: htmlToText(p.customAddButtonText ?? ""),
    giftCardDenominations: p.productType === ProductType.GIFT_CARD ? p.giftCardDenominations : undefined,
    additionalFieldsFormId: p.additionalFieldsFormId || undefined,
  };
}
