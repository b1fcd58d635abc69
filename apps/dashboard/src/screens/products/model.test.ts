import { describe, expect, it } from "vitest";
import { FormProblem, type ProductJson, toBody, toForm } from "./model.js";

const product: ProductJson = {
  id: "p1",
  collectionId: "c1",
  title: "Vase",
  urlId: "vase",
  fullUrl: "/shop/p/vase",
  status: "published",
  body: "",
  excerpt: "",
  seoTitle: "",
  seoDescription: "",
  tags: ["clay", "blue"],
  categories: [],
  imageIds: ["m1"],
  productType: 1,
  variantOptionOrdering: ["Size"],
  isSubscribable: false,
  subscriptionPlan: null,
  giftCardDenominations: [],
  scarcityText: "",
  useCustomAddButtonText: false,
  customAddButtonText: "",
  additionalFieldsFormId: null,
  variants: [
    {
      id: "v1",
      sku: "V-S",
      attributes: { Size: "S" },
      priceCents: 4550,
      salePriceCents: 3900,
      onSale: true,
      qtyInStock: 7,
      unlimited: false,
      weightGrams: 800,
    },
  ],
};

describe("product editor model", () => {
  it("keeps amounts in minor units from the API to the request body", () => {
    const body = toBody(toForm(product, "c1"), "USD");
    expect(body.variants[0]).toMatchObject({
      priceCents: 4550,
      salePriceCents: 3900,
      qtyInStock: 7,
      weightGrams: 800,
      attributes: { Size: "S" },
    });
    expect(body.tags).toEqual(["clay", "blue"]);
    expect(body.mainImageId).toBe("m1");
  });

  it("names each field that is not an amount or a whole number, in the currency's digits", () => {
    const form = toForm(product, "c1");
    form.variants[0]!.price = undefined;
    form.variants[0]!.qtyInStock = "2.5";
    let problem: unknown;
    try {
      toBody(form, "JPY");
    } catch (err) {
      problem = err;
    }
    expect(problem).toBeInstanceOf(FormProblem);
    expect((problem as FormProblem).fields).toEqual({
      "variants.0.priceCents": "Enter an amount such as 1200.",
      "variants.0.qtyInStock": "Enter a whole number.",
    });
  });

  it("sends a gift card's amounts and no variants", () => {
    const form = { ...toForm(undefined, "c1"), productType: 4, title: "Card" };
    const body = toBody(form, "USD");
    expect(body.giftCardDenominations).toEqual([2500, 5000]);
    expect(body.variants).toEqual([]);
  });
});
