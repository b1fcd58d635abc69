/**
 * Behaviour of the commerce formatters and predicates beyond the shared conformance cases.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { SUPPORTED_CURRENCIES, fractionDigitsOf } from "@atelier/commerce";
import { Engine } from "../engine.js";
import { loadLocale } from "../i18n/cldr.js";
import { fillMessage } from "./message.js";

const engine = new Engine();
const render = (template: string, json: unknown, locale?: string) =>
  engine.render(template, json, locale ? { locale } : {});
const out = (template: string, json: unknown, locale?: string) =>
  render(template, json, locale).output.trim();

beforeAll(async () => {
  await Promise.all([loadLocale("en-US"), loadLocale("fr-FR"), loadLocale("de-DE")]);
});

const physical = (variants: unknown[], extra: Record<string, unknown> = {}) => ({
  id: "p1",
  structuredContent: { productType: 1, variants, ...extra },
});

describe("messages", () => {
  it("fills named placeholders and keeps unknown ones", () => {
    expect(fillMessage("{price} every {n} weeks {x}", { price: "$1", n: 2 })).toBe("$1 every 2 weeks {x}");
    expect(fillMessage("{ price }", { price: "a" })).toBe("a");
  });
});

describe("money formatters", () => {
  it("formats cents with grouping and ties to even", () => {
    expect(out("{@|money-format}", 123456789)).toBe("1,234,567.89");
    expect(out("{@|moneyFormat}", 12345.5)).toBe("123.46");
    expect(out("{@|moneyFormat}", 12344.5)).toBe("123.44");
    expect(out("{@|money-format}", -5)).toBe("-0.05");
    expect(out("{@|money-string}", 100000)).toBe('<span class="sqs-money-native">1,000.00</span>');
  });
  it("leaves values that are not numbers as they are", () => {
    expect(out("{@|money-format}", "692")).toBe("692");
    expect(out("{@|money-string}", "abc")).toBe("abc");
    const p = physical([{ onSale: true, priceMoney: { value: "9" }, salePriceMoney: { value: "6.92" } }]);
    expect(out("{@|sale-price|money-format}", p)).toBe("692");
  });
  it("formats bookkeeper money in the currency of the locale's region", () => {
    expect(out("{@|bookkeeper-money-format}", 123456, "de-DE")).toBe("1.234,56\u00a0€");
    expect(out("{@|bookkeeper-money-format}", 123456, "en-US")).toBe("$1,234.56");
  });
  it("formats percentages in the locale", () => {
    expect(out("{@|percentage-format}", 12.3456)).toBe("12.346");
    expect(out("{@|percentage-format trim}", 12.5)).toBe("12.5");
    expect(out("{@|percentage-format}", 1234.5, "fr-FR")).toBe("1\u202f234,50");
  });
  it("prints cents of product prices exactly", () => {
    const p = physical([{ priceMoney: { value: "10.555" } }, { priceMoney: { value: "3" } }]);
    expect(out("{@|from-price}", p)).toBe("300");
    expect(out("{@|normal-price}", p)).toBe("1055.5");
  });
});

describe("product-price", () => {
  it("uses the localized from, sale and original labels", () => {
    const strings = {
      productPriceFromText: "ab {fromPrice}",
      salePriceText: "Solde :",
      originalPriceText: "Prix d'origine :",
    };
    const varied = {
      ...physical([
        { price: 1, priceMoney: { value: "1" } },
        { price: 2, priceMoney: { value: "2" } },
      ]),
      localizedStrings: strings,
    };
    expect(out("{@|product-price}", varied)).toContain('ab <span class="sqs-money-native">1.00</span>');
    const sale = {
      ...physical([{ onSale: true, priceMoney: { value: "2" }, salePriceMoney: { value: "1" } }]),
      localizedStrings: strings,
    };
    const html = out("{@|product-price}", sale);
    expect(html).toContain('<span class="visually-hidden v6-visually-hidden">Solde :</span>');
    expect(html).toContain(`<span class="visually-hidden v6-visually-hidden">Prix d'origine :</span>`);
  });
  it("describes yearly and finite plans", () => {
    const plan = (value: number, unit: string, numBillingCycles: number) =>
      physical([{ price: 1, priceMoney: { value: "12" } }], {
        isSubscribable: true,
        subscriptionPlan: { billingPeriod: { value, unit }, numBillingCycles },
      });
    expect(out("{@|product-price}", plan(1, "YEAR", 0))).toContain("</span> every year");
    expect(out("{@|product-price}", plan(1, "MONTH", 24))).toContain("</span> every month for 2 years");
    expect(out("{@|product-price}", plan(3, "WEEK", 2))).toContain("</span> every 3 weeks for 6 weeks");
    expect(out("{@|product-price}", plan(1, "FORTNIGHT", 0))).toContain("Unavailable");
  });
  it("formats with CLDR when the website asks for it", () => {
    const digital = {
      structuredContent: { productType: 2, priceMoney: { value: "1234.5", currency: "GBP" } },
      website: { useCLDRMoneyFormat: true },
    };
    expect(out("{@|product-price}", digital)).toBe('<div class="product-price">\n£1,234.50\n</div>');
  });
});

describe("site currencies keep the SPEC's fraction digits in both money formats", () => {
  // en-US: "." is the decimal separator, "," only groups.
  const digits = (text: string) => /\.(\d+)/.exec(text)?.[1]?.length ?? 0;
  const price = (currency: string, cldr: boolean) =>
    out("{@|product-price}", {
      structuredContent: { productType: 2, priceMoney: { value: "1234.56", currency } },
      website: { useCLDRMoneyFormat: cldr },
    }).replace(/<[^>]+>|\n/g, "");
  for (const { code } of SUPPORTED_CURRENCIES) {
    it(`${code}: ${fractionDigitsOf(code)} digits`, () => {
      const want = fractionDigitsOf(code);
      expect({ legacy: digits(price(code, false)), cldr: digits(price(code, true)) }).toEqual({
        legacy: want,
        cldr: want,
      });
    });
  }
  it("COP and IDR print cents in CLDR form, JPY none", () => {
    expect(price("COP", true)).toBe("COP\u00a01,234.56");
    expect(price("IDR", true)).toBe("IDR\u00a01,234.56");
    expect(price("JPY", true)).toBe("¥1,235");
  });
  it("a template's own digits still win", () => {
    const money = { decimalValue: "1234.56", currencyCode: "IDR" };
    expect(out("{@|money maxfrac:0}", money)).toBe("IDR\u00a01,235");
  });
});

describe("subscription-price", () => {
  it("shows the first pricing option of the cheapest variant", () => {
    const option = (price: string) => ({
      priceMoney: { value: price },
      salePriceMoney: { value: "0" },
      onSale: false,
    });
    const p = physical([
      { price: 2, priceMoney: { value: "2" }, pricingOptions: [option("1.80")] },
      { price: 1, priceMoney: { value: "1" }, pricingOptions: [option("0.90"), option("0.50")] },
    ]);
    expect(out("{@|subscription-price}", p)).toBe(
      '<div class="subscription-price">\nfrom <span class="sqs-money-native">0.90</span>\n\n</div>',
    );
    expect(out("{@|subscription-price}", { structuredContent: { productType: 2 } })).toBe(
      '<div class="subscription-price">\n\n</div>',
    );
  });
});

describe("product form", () => {
  it("puts the form and the subscription option on the add button", () => {
    const item = {
      id: "i",
      collectionId: "c",
      structuredContent: {
        productType: 1,
        isSubscribable: true,
        additionalFieldsFormId: "f",
        additionalFieldsForm: { name: 'A "form"' },
        productSubscriptionOptions: [{ id: "opt-1" }],
      },
    };
    const html = out("{@|add-to-cart-btn}", item);
    expect(html).toContain("sqs-button-element--primary use-form");
    expect(html).toContain('data-form="{&quot;name&quot;:&quot;A \\&quot;form\\&quot;&quot;}"');
    expect(html).toContain('data-subscription-option-id="opt-1"');
    expect(html).toContain(">Subscribe</div>");
  });
  it("hides the quantity input for services when the store allows one unit", () => {
    const service = { id: "s", structuredContent: { productType: 3, variants: [{ qtyInStock: 5 }] } };
    expect(out("{item|quantity-input}", { item: service })).toContain('data-item-id="s"');
    const settings = { websiteSettings: { storeSettings: { multipleQuantityAllowedForServices: false } } };
    expect(out("{item|quantity-input}", { item: service, ...settings })).toBe("");
    expect(out("{item|quantity-input}", { item: { structuredContent: { productType: 2 } } })).toBe("");
  });
  it("labels the quantity input", () => {
    const item = { id: "x", structuredContent: { productType: 1, variants: [{ unlimited: true }] } };
    const html = out("{item|quantity-input}", {
      item,
      localizedStrings: { productQuantityInputLabel: "Menge" },
    });
    expect(html).toContain('<div class="quantity-label">Menge:</div>');
    expect(html).toContain('aria-label="Menge"');
  });
  it("names gift card options Value and escapes option names", () => {
    const card = {
      id: "g",
      structuredContent: {
        productType: 4,
        variants: [{ attributes: { Value: "25" } }, { attributes: { Value: "50" } }],
        variantOptionOrdering: ["Value"],
      },
    };
    const html = out("{@|variants-select}", card);
    expect(html).toContain('<div class="variant-option-title">Value: </div>');
    expect(html).toContain('<option value="">Select Value</option>');
    const shirt = physical([{ attributes: { 'Si"ze': "<S>" } }, { attributes: { 'Si"ze': "M" } }], {
      variantOptionOrdering: ['Si"ze'],
      isSubscribable: true,
      subscriptionPlan: { billingPeriod: { value: 1, unit: "WEEK" } },
    });
    const picker = out("{@|variants-select}", shirt);
    expect(picker).toContain('data-variant-option-name="Si&quot;ze"');
    expect(picker).toContain('<option value="&lt;S&gt;">&lt;S&gt;</option>');
    expect(picker).toContain(
      ' data-is-subscribable="true" data-subscription-plan="{&quot;billingPeriod&quot;',
    );
  });
  it("escapes option names and values in every attribute and text of the pickers", () => {
    const name = `Size" onmouseover="alert(1)' x='<script>`;
    const value = `<b>"L" & 'XL'</b>`;
    const item = physical([{ attributes: { [name]: value } }, { attributes: { [name]: "M" } }], {
      variantOptionOrdering: [name],
    });
    const html = out("{@|variants-select}", item);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<b>");
    // Every attribute value is one quoted string with no raw quote or angle bracket inside, and
    // no attribute comes from the name (no event handler, no stray single-quoted one).
    const attributes = [...html.matchAll(/\s([a-z-]+)="([^"]*)"/g)];
    expect(attributes.length).toBeGreaterThan(10);
    expect(attributes.filter(([, a]) => a.startsWith("on") || a === "x")).toEqual([]);
    // With the attributes taken out, every tag is bare: nothing of the name leaked into a tag.
    const tags = html.replace(/\s[a-z-]+="[^"]*"/g, "").match(/<[^>]*>/g) ?? [];
    for (const tag of tags) expect(tag).toMatch(/^<\/?[a-z]+\/?>$/);
    for (const [, attr, v] of attributes) expect(v, attr).not.toMatch(/[<>]/);
    for (const attr of ["aria-label", "data-variant-option-name", "value", "name", "id", "for"]) {
      expect(
        attributes.some(([, a, v]) => a === attr && v.includes("&quot;")),
        attr,
      ).toBe(true);
    }
  });
  it("prints nothing, or zero, for a missing or empty price as the references do", () => {
    // money (CLDR): no money object, nothing; bookkeeper and percentage: zero; from/normal/sale price: 0.
    for (const v of [undefined, null, "", {}, { decimalValue: "", currencyCode: "USD" }]) {
      const json = v === undefined ? {} : { x: v };
      expect(out("[{x|money}]", json)).toBe("[]");
      expect(out("[{x|bookkeeper-money-format}]", json)).toBe("[$0.00]");
      expect(out("[{x|percentage-format}]", json)).toBe("[0.00]");
      for (const f of ["from-price", "normal-price", "sale-price"])
        expect(out(`[{x|${f}}]`, json)).toBe("[0]");
    }
  });
  it("joins variant option values", () => {
    expect(out("{@|variant-descriptor}", { optionValues: [{ value: "Large" }, { value: "Blue" }] })).toBe(
      "Large / Blue",
    );
  });
});

describe("merchandising", () => {
  it("uses the store's sold-out text and the localized texts", () => {
    const soldOut = physical([{ qtyInStock: 0 }]);
    expect(
      out("{@|product-status}", {
        ...soldOut,
        websiteSettings: { storeSettings: { customSoldOutText: "Gone" } },
      }),
    ).toBe('<div class="product-mark sold-out">Gone</div>');
    expect(
      out("{@|product-status}", { ...soldOut, localizedStrings: { productSoldOutText: "Épuisé" } }),
    ).toBe('<div class="product-mark sold-out">Épuisé</div>');
    expect(out("{@|product-status}", physical([{ qtyInStock: 1 }]))).toBe("");
  });
  it("lays out the restock form to the byte as the references do, with and without its extras", () => {
    const form = (extras: string) =>
      '\n<div class="product-restock-notification" data-product-id="p" data-variant-id="7" hidden>\n' +
      '  <span class="product-restock-cta">Back &lt;soon&gt; &quot;here&quot;</span>\n' +
      '  <form class="product-restock-form" action="#">\n' +
      '    <input type="text" x-autocompletetype="email" spellcheck="false" name="email" placeholder="Email">\n' +
      '    <input class="sqs-editable-button" type="submit" value="Notify">\n' +
      `  </form>\n${extras}\n</div>\n`;
    const label =
      '  <label class="product-restock-mailing-list"><input type="checkbox" name="isJoinMailingList">Join</label>';
    const captcha = '  <div class="captcha-container"></div>';
    const messages = {
      CTAText: 'Back <soon> "here"',
      placeholderText: "Email",
      buttonText: "Notify",
      mailingListDescription: "Join",
    };
    for (const [mailing, key, extras] of [
      [false, false, "\n"],
      [true, false, `${label}\n`],
      [false, true, `\n${captcha}`],
      [true, true, `${label}\n${captcha}`],
    ] as const) {
      const json = {
        item: { id: "p" },
        website: key ? { captchaSettings: { siteKey: "k" } } : {},
        productMerchandisingContext: {
          p: {
            restockNotificationViews: [{ variantId: 7, hiddenByDefault: true }],
            restockNotificationMessages: messages,
            mailingListSignUpEnabled: mailing,
          },
        },
      };
      expect(render("{item|product-restock-notification}", json).output).toBe(
        `\n\n\n\n\n\n${form(extras)}\n`,
      );
    }
  });
  it("renders no restock form when the store turned notifications off", () => {
    const json = {
      item: { id: "p" },
      productMerchandisingContext: { p: { restockNotificationViews: [{ variantId: 1 }] } },
    };
    expect(out("{item|product-restock-notification}", json)).toContain('data-variant-id="1"');
    const off = { ...json, websiteSettings: { storeSettings: { restockNotificationsEnabled: false } } };
    expect(out("{item|product-restock-notification}", off)).toBe("");
  });
  it("formats scarcity text with plural rules", () => {
    const json = {
      item: { id: "p" },
      productMerchandisingContext: {
        p: {
          scarcityEnabled: true,
          scarcityText: "{qtyInStock, plural, one {Last one!} other {Only # left}}",
          scarcityTemplateViews: [{ qtyInStock: 1 }, { qtyInStock: 4 }],
        },
      },
    };
    const html = out("{item|product-scarcity}", json);
    expect(html).toContain("Last one!");
    expect(html).toContain("Only 4 left");
  });
  it("counts cart quantities given as text", () => {
    expect(out("{@|cart-quantity}", { entries: [{ quantity: "2" }, { quantity: 1 }, {}] })).toBe(
      '<span class="sqs-cart-quantity">3</span>',
    );
  });
});

describe("units-metric?", () => {
  const t = "{.units-metric?}metric{.or}imperial{.end}";
  it("follows the unit a product declares", () => {
    expect(out(t, physical([{ shippingWeight: { value: 1, unit: "KILOGRAM" } }]))).toBe("metric");
    expect(out(t, physical([{ shippingWeight: { value: 1, unit: "POUND" } }]), "fr-FR")).toBe("imperial");
  });
  it("follows the store's measurement standard", () => {
    expect(out(t, { websiteSettings: { storeSettings: { measurementStandard: "IMPERIAL" } } }, "fr-FR")).toBe(
      "imperial",
    );
    expect(out(t, { websiteSettings: { storeSettings: { measurementStandard: "METRIC" } } }, "en-US")).toBe(
      "metric",
    );
  });
  it("falls back to the locale, then to metric", () => {
    expect(out(t, {}, "en-US")).toBe("imperial");
    expect(out(t, {}, "fr-FR")).toBe("metric");
    expect(out("{.units-metric? temperature}C{.or}F{.end}", {}, "en-US")).toBe("F");
    expect(out("{.units-metric? temperature}C{.or}F{.end}", {}, "de-DE")).toBe("C");
  });
});

describe("product-checkout", () => {
  it("renders the variant pickers, the quantity input and the add-to-cart button of a product", () => {
    const product = physical(
      [
        { attributes: { Size: "S" }, qtyInStock: 4, priceMoney: { currency: "USD", value: "5.00" } },
        { attributes: { Size: "L" }, qtyInStock: 3, priceMoney: { currency: "USD", value: "6.00" } },
      ],
      { variantOptionOrdering: ["Size"] },
    );
    const parts = ["variants-select", "quantity-input", "add-to-cart-btn"].map(
      (f) => render(`{@|${f}}`, product).output,
    );
    expect(parts.every((p) => p.trim() !== "")).toBe(true);
    const whole = render("{@|product-checkout}", product);
    expect(whole.errors).toEqual([]);
    expect(whole.output).toBe(parts.join(""));
    expect(whole.output).toContain('data-variant-option-name="Size"');
    expect(whole.output).toContain("sqs-add-to-cart-button-wrapper");
    // A product without variant options or stock to choose a quantity from gets the button alone.
    const single = physical([{ qtyInStock: 1, priceMoney: { currency: "USD", value: "5.00" } }]);
    expect(render("{@|product-checkout}", single).output).toBe(render("{@|add-to-cart-btn}", single).output);
  });
});
