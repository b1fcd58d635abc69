import { describe, expect, it } from "vitest";
import {
  type ProductInfo,
  missingMessage,
  moneyHtml,
  planOf,
  priceMinorOf,
  productSoldOut,
  selectionState,
  soldOutValues,
  variantPriceHtml,
} from "./product.js";

const money = (value: string, currency = "USD") => ({ value, currency });

/** A $98 shirt in a size and colour, its SKU made of their initials ("S-I"). */
const shirtVariant = (id: string, size: string, color: string, qtyInStock: number) => ({
  id,
  sku: `${size}-${color[0]}`,
  attributes: { Size: size, Color: color },
  qtyInStock,
  priceMoney: money("98.00"),
});

const shirt: ProductInfo = {
  itemId: "shirt",
  productType: 1,
  isSubscribable: false,
  optionNames: ["Size", "Color"],
  variants: [
    shirtVariant("1", "S", "Indigo", 3),
    shirtVariant("2", "S", "Sand", 0),
    shirtVariant("3", "M", "Indigo", 0),
    { ...shirtVariant("4", "M", "Sand", 5), onSale: true, salePriceMoney: money("1234.50") },
  ],
};

const opts = { currency: "USD", cldr: false, soldOutText: "Sold Out" };

describe("selection", () => {
  it("lists the options still to choose, with the SPEC's message", () => {
    const none = selectionState(shirt, {});
    expect(none.missing).toEqual(["Size", "Color"]);
    expect(missingMessage(none)).toBe("Please select the Size and Color options.");
    const half = selectionState(shirt, { Size: "M", Color: "" });
    expect(missingMessage(half)).toBe("Please select the Color option.");
    expect(
      missingMessage(selectionState({ ...shirt, optionNames: ["Size", "Color", "Fit"] }, { Size: "S" })),
    ).toBe("Please select the Color and Fit options.");
    expect(missingMessage(selectionState({ ...shirt, optionNames: ["Size", "Color", "Fit"] }, {}))).toBe(
      "Please select the Size, Color and Fit options.",
    );
  });

  it("finds the variant, and whether it is sold out", () => {
    const s = selectionState(shirt, { Size: "S", Color: "Indigo" });
    expect(s.variant?.sku).toBe("S-I");
    expect(s.soldOut).toBe(false);
    expect(selectionState(shirt, { Size: "S", Color: "Sand" }).soldOut).toBe(true);
    const none = selectionState(shirt, { Size: "XL", Color: "Sand" });
    expect(none.unavailable).toBe(true);
    expect(none.variant).toBeUndefined();
  });

  it("needs no choice for a product with one variant; digital products are never sold out", () => {
    const single: ProductInfo = { ...shirt, optionNames: [], variants: [{ sku: "ONE", qtyInStock: 0 }] };
    expect(selectionState(single, {})).toMatchObject({ missing: [], soldOut: true });
    expect(selectionState({ ...single, productType: 2 }, {})).toMatchObject({ soldOut: false });
    expect(selectionState({ ...single, productType: 4 }, {})).toMatchObject({ soldOut: false });
  });

  it("names the choices no available variant offers with the other choices made", () => {
    expect([...soldOutValues(shirt, "Color", { Size: "S" })]).toEqual(["Sand"]);
    expect([...soldOutValues(shirt, "Color", { Size: "M" })]).toEqual(["Indigo"]);
    expect([...soldOutValues(shirt, "Color", {})]).toEqual([]);
    expect([...soldOutValues(shirt, "Size", { Color: "Indigo" })]).toEqual(["M"]);
  });
});

describe("price", () => {
  it("shows the legacy money span, or CLDR text when the site uses it", () => {
    expect(moneyHtml(6800, "USD", opts)).toBe('<span class="sqs-money-native">68.00</span>');
    expect(moneyHtml(123456, "USD", opts)).toBe('<span class="sqs-money-native">1,234.56</span>');
    expect(moneyHtml(250000, "USD", { ...opts, cldr: true })).toBe("$2,500.00");
    expect(moneyHtml(250000, "EUR", { ...opts, cldr: true })).toBe("€2,500.00");
    expect(moneyHtml(2500, "JPY", { ...opts, cldr: true })).toBe("¥2,500");
    // Every supported currency but JPY keeps two fraction digits in CLDR text (SPEC §9).
    expect(moneyHtml(123456, "IDR", { ...opts, cldr: true })).toBe("IDR\u00a01,234.56");
    expect(moneyHtml(123456, "COP", { ...opts, cldr: true })).toBe("COP\u00a01,234.56");
  });

  it("reads JPY minor units as yen in the legacy span, as the server renders them", () => {
    // ¥2500 is 2500 minor units (JPY has no fraction digits): never "25.00".
    expect(moneyHtml(2500, "JPY", opts)).toBe('<span class="sqs-money-native">2,500</span>');
    expect(moneyHtml(-1999, "EUR", opts)).toBe('<span class="sqs-money-native">-19.99</span>');
  });

  it("shows the sale price and the struck-through original", () => {
    const html = variantPriceHtml(shirt, selectionState(shirt, { Size: "M", Color: "Sand" }), opts);
    expect(html).toBe(
      '<span class="visually-hidden v6-visually-hidden">Sale Price:</span><span class="sqs-money-native">1,234.50</span> ' +
        '<span class="visually-hidden v6-visually-hidden">Original Price:</span>' +
        '<span class="original-price"><span class="sqs-money-native">98.00</span></span>',
    );
  });

  it("adds the sold-out note, and says Unavailable when nothing matches", () => {
    const html = variantPriceHtml(shirt, selectionState(shirt, { Size: "S", Color: "Sand" }), {
      ...opts,
      soldOutText: "Gone <for now>",
    });
    expect(html).toBe(
      '<span class="sqs-money-native">98.00</span> <span class="product-sold-out-note">Gone &lt;for now&gt;</span>',
    );
    expect(variantPriceHtml(shirt, selectionState(shirt, { Size: "XL", Color: "Sand" }), opts)).toBe(
      "Unavailable",
    );
    // A product sold out as a whole carries the page's own mark: no second note.
    const gone: ProductInfo = { ...shirt, variants: shirt.variants.map((v) => ({ ...v, qtyInStock: 0 })) };
    expect(variantPriceHtml(gone, selectionState(gone, { Size: "S", Color: "Sand" }), opts)).toBe(
      '<span class="sqs-money-native">98.00</span>',
    );
    expect(productSoldOut(gone)).toBe(true);
    expect(productSoldOut(shirt)).toBe(false);
  });

  it("shows the subscription text for subscription products", () => {
    const plan = planOf({ billingPeriod: { value: 2, unit: "WEEK" }, numBillingCycles: 26 });
    const coffee: ProductInfo = {
      itemId: "c",
      productType: 1,
      isSubscribable: true,
      subscriptionPlan: plan,
      optionNames: [],
      variants: [{ sku: "C", unlimited: true, priceMoney: money("19.00") }],
    };
    expect(variantPriceHtml(coffee, selectionState(coffee, {}), opts)).toBe(
      '<span class="sqs-money-native">19.00</span> every 2 weeks for 1 year',
    );
    expect(variantPriceHtml(coffee, selectionState(coffee, {}), { ...opts, cldr: true })).toBe(
      "$19.00 every 2 weeks for 1 year",
    );
  });

  it("prices a variant in minor units from its money node or its cents", () => {
    expect(priceMinorOf(shirt.variants[3], "USD")).toBe(123450);
    expect(priceMinorOf(shirt.variants[0], "USD")).toBe(9800);
    expect(priceMinorOf({ price: 4200 }, "USD")).toBe(4200);
    expect(priceMinorOf(undefined, "USD")).toBe(0);
  });
});
