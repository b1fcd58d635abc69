/**
 * The product editor's model: the product as the API sends it, the form the owner edits (amounts in
 * minor units, lists as comma-separated text), and the request body made from it, checked first.
 */
import { ProductType, tracksStock } from "@atelier/commerce";
import type { ContentJson } from "../../api.js";
import { type MoneyValue, amountHint, listToText, textToList } from "../../components/form/index.js";

export const PRODUCT_TYPES = [
  { value: "1", label: "Physical" },
  { value: "2", label: "Digital" },
  { value: "3", label: "Service" },
  { value: "4", label: "Gift card" },
];

export interface VariantForm {
  id?: string;
  sku: string;
  attributes: Record<string, string>;
  price: MoneyValue;
  salePrice: MoneyValue;
  onSale: boolean;
  qtyInStock: string;
  unlimited: boolean;
  weightGrams: string;
}

export interface ProductForm {
  collectionId: string;
  title: string;
  urlId: string;
  productType: number;
  visible: boolean;
  body: string;
  excerpt: string;
  seoTitle: string;
  seoDescription: string;
  seoHidden: boolean;
  tags: string;
  categories: string;
  imageIds: string[];
  options: string[];
  variants: VariantForm[];
  isSubscribable: boolean;
  billingValue: string;
  billingUnit: "WEEK" | "MONTH" | "YEAR";
  numBillingCycles: string;
  denominations: MoneyValue[];
  scarcityText: string;
  useCustomAddButtonText: boolean;
  customAddButtonText: string;
  additionalFieldsFormId: string;
}

/** A variant as the owner API lists it with its product. */
export interface VariantJson {
  id: string;
  sku: string;
  attributes: Record<string, string>;
  priceCents: number;
  salePriceCents: number;
  onSale: boolean;
  qtyInStock: number;
  unlimited: boolean;
}

export interface ProductJson extends ContentJson {
  collectionId: string;
  seoTitle: string;
  seoDescription: string;
  seoHidden?: boolean;
  tags: string[];
  categories: string[];
  imageIds: string[];
  productType: number;
  variantOptionOrdering: string[];
  isSubscribable: boolean;
  subscriptionPlan: {
    billingPeriod: { value: number; unit: "WEEK" | "MONTH" | "YEAR" };
    numBillingCycles: number;
  } | null;
  giftCardDenominations: number[];
  scarcityText: string;
  useCustomAddButtonText: boolean;
  customAddButtonText: string;
  additionalFieldsFormId: string | null;
  variants: (VariantJson & { weightGrams: number })[];
}

export const emptyVariant = (options: string[]): VariantForm => ({
  sku: "",
  attributes: Object.fromEntries(options.map((o) => [o, ""])),
  price: null,
  salePrice: null,
  onSale: false,
  qtyInStock: "0",
  unlimited: false,
  weightGrams: "",
});

export function toForm(p: ProductJson | undefined, collectionId: string): ProductForm {
  if (!p) {
    return {
      collectionId,
      title: "",
      urlId: "",
      productType: ProductType.PHYSICAL,
      visible: true,
      body: "",
      excerpt: "",
      seoTitle: "",
      seoDescription: "",
      seoHidden: false,
      tags: "",
      categories: "",
      imageIds: [],
      options: [],
      variants: [emptyVariant([])],
      isSubscribable: false,
      billingValue: "1",
      billingUnit: "MONTH",
      numBillingCycles: "0",
      denominations: [2500, 5000],
      scarcityText: "",
      useCustomAddButtonText: false,
      customAddButtonText: "",
      additionalFieldsFormId: "",
    };
  }
  return {
    collectionId: p.collectionId,
    title: p.title,
    urlId: p.urlId,
    productType: p.productType,
    visible: p.status !== "draft",
    body: p.body,
    excerpt: p.excerpt,
    seoTitle: p.seoTitle ?? "",
    seoDescription: p.seoDescription ?? "",
    seoHidden: Boolean(p.seoHidden),
    tags: listToText(p.tags),
    categories: listToText(p.categories),
    imageIds: p.imageIds,
    options: p.variantOptionOrdering,
    variants: p.variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      attributes: v.attributes,
      price: v.priceCents,
      salePrice: v.onSale || v.salePriceCents ? v.salePriceCents : null,
      onSale: v.onSale,
      qtyInStock: String(v.qtyInStock),
      unlimited: v.unlimited,
      weightGrams: v.weightGrams ? String(v.weightGrams) : "",
    })),
    isSubscribable: p.isSubscribable,
    billingValue: String(p.subscriptionPlan?.billingPeriod.value ?? 1),
    billingUnit: p.subscriptionPlan?.billingPeriod.unit ?? "MONTH",
    numBillingCycles: String(p.subscriptionPlan?.numBillingCycles ?? 0),
    denominations: p.giftCardDenominations,
    scarcityText: p.scarcityText,
    useCustomAddButtonText: p.useCustomAddButtonText,
    customAddButtonText: p.customAddButtonText,
    additionalFieldsFormId: p.additionalFieldsFormId ?? "",
  };
}

export class FormProblem extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(message);
  }
}

export function toBody(f: ProductForm, currency: string) {
  const fields: Record<string, string> = {};
  const cents = (value: MoneyValue, key: string) => {
    if (typeof value !== "number") fields[key] = `Enter an amount such as ${amountHint(currency)}.`;
    return value ?? 0;
  };
  const whole = (text: string, key: string) => {
    if (!/^\d+$/.test(text.trim())) {
      fields[key] = "Enter a whole number.";
      return 0;
    }
    return Number(text);
  };
  const body = {
    collectionId: f.collectionId,
    title: f.title,
    urlId: f.urlId || undefined,
    productType: f.productType,
    status: f.visible ? "published" : "draft",
    body: f.body,
    excerpt: f.excerpt,
    seoTitle: f.seoTitle,
    seoDescription: f.seoDescription,
    seoHidden: f.seoHidden,
    tags: textToList(f.tags),
    categories: textToList(f.categories),
    imageIds: f.imageIds,
    mainImageId: f.imageIds[0] ?? null,
    variantOptionOrdering: f.options,
    variants:
      f.productType === ProductType.GIFT_CARD
        ? []
        : f.variants.map((v, i) => ({
            id: v.id,
            sku: v.sku.trim() || undefined,
            attributes: Object.fromEntries(f.options.map((o) => [o, v.attributes[o] ?? ""])),
            priceCents: cents(v.price, `variants.${i}.priceCents`),
            salePriceCents: v.onSale ? cents(v.salePrice, `variants.${i}.salePriceCents`) : undefined,
            onSale: v.onSale,
            qtyInStock:
              v.unlimited || !tracksStock(f.productType)
                ? undefined
                : whole(v.qtyInStock || "0", `variants.${i}.qtyInStock`),
            unlimited: v.unlimited,
            weightGrams: v.weightGrams.trim() ? whole(v.weightGrams, `variants.${i}.weightGrams`) : undefined,
          })),
    giftCardDenominations:
      f.productType === ProductType.GIFT_CARD
        ? f.denominations.map((d, i) => cents(d, `giftCardDenominations.${i}`))
        : undefined,
    isSubscribable: f.isSubscribable,
    subscriptionPlan: f.isSubscribable
      ? {
          billingPeriod: {
            value: whole(f.billingValue, "subscriptionPlan.billingPeriod.value"),
            unit: f.billingUnit,
          },
          numBillingCycles: whole(f.numBillingCycles, "subscriptionPlan.numBillingCycles"),
        }
      : null,
    scarcityText: f.scarcityText,
    useCustomAddButtonText: f.useCustomAddButtonText,
    customAddButtonText: f.customAddButtonText,
    additionalFieldsFormId: f.additionalFieldsFormId || null,
  };
  if (Object.keys(fields).length) throw new FormProblem("Please check the highlighted fields.", fields);
  return body;
}

/** What every section of the product editor gets: the form, a way to change it, the errors by field. */
export interface SectionProps {
  f: ProductForm;
  set: (patch: Partial<ProductForm>) => void;
  errors: Record<string, string>;
  currency: string;
}
