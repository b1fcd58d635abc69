import { Engine } from "../engine.js";
import { Decimal } from "@phensley/cldr";
import { beforeAll, describe, expect, it } from "vitest";
import { cldrFor, loadLocale } from "./cldr.js";
import {
  formatLegacyMoney,
  formatMoney,
  moneyParts,
  normalizeLocaleTag,
  useCldrMoneyFormat,
} from "./money.js";

beforeAll(async () => {
  await Promise.all([loadLocale("en-US"), loadLocale("de-DE")]);
});

describe("money objects", () => {
  it("reads decimalValue/currencyCode, and value/currency when allowed", () => {
    expect(moneyParts({ decimalValue: "1.50", currencyCode: "usd" }, false)).toEqual({
      amount: new Decimal("1.50"),
      currency: "USD",
    });
    expect(moneyParts({ value: "2", currency: "EUR" }, false)).toBeUndefined();
    expect(moneyParts({ value: "2", currency: "EUR" }, true)?.currency).toBe("EUR");
    expect(moneyParts({ decimalValue: "abc", currencyCode: "EUR" }, true)).toBeUndefined();
    expect(moneyParts("12", true)).toBeUndefined();
  });

  it("knows when the site uses the CLDR money format", () => {
    expect(useCldrMoneyFormat({ website: { useCLDRMoneyFormat: true } })).toBe(true);
    expect(useCldrMoneyFormat({ websiteSettings: { useCLDRMoneyFormat: true } })).toBe(true);
    expect(useCldrMoneyFormat({ website: {} })).toBe(false);
  });

  it("formats with CLDR currency patterns and options", () => {
    const m = { amount: new Decimal("1234.5"), currency: "EUR" };
    expect(formatMoney(cldrFor("en-US")!, m, [])).toBe("€1,234.50");
    expect(formatMoney(cldrFor("de-DE")!, m, [])).toBe("1.234,50\u00a0€");
    expect(formatMoney(cldrFor("en-US")!, m, ["style:code"])).toMatch(/^1,234\.50\sEUR$/);
  });
});

describe("legacy i18n-money-format", () => {
  it("normalizes locale tags", () => {
    expect(normalizeLocaleTag("en_us")).toBe("en-US");
    expect(normalizeLocaleTag("sv-se")).toBe("sv-SE");
  });

  it("defaults to en-US and USD", () => {
    expect(formatLegacyMoney({ decimalValue: "1234.5" }, undefined)).toBe("$1,234.50");
    expect(formatLegacyMoney({}, "")).toBe("$0.00");
  });

  it("places the symbol per locale and spaces letter symbols", () => {
    expect(formatLegacyMoney({ decimalValue: 9.99, currencyCode: "NOK" }, "en-US")).toBe("kr 9.99");
    expect(formatLegacyMoney({ decimalValue: -9.99, currencyCode: "NOK" }, "en-US")).toBe("kr -9.99");
    expect(formatLegacyMoney({ decimalValue: -9.99, currencyCode: "DKK" }, "da-DK")).toBe("-9,99 kr");
    expect(formatLegacyMoney({ decimalValue: 1000000, currencyCode: "EUR" }, "fr-FR")).toBe(
      "1\u00a0000\u00a0000,00€",
    );
  });

  it("rounds half to even with the currency's fraction digits", () => {
    expect(formatLegacyMoney({ decimalValue: 2.5, currencyCode: "JPY" }, "en-US")).toBe("¥2");
    expect(formatLegacyMoney({ decimalValue: 3.5, currencyCode: "JPY" }, "en-US")).toBe("¥4");
    expect(formatLegacyMoney({ decimalValue: "0.125", currencyCode: "USD" }, "en-US")).toBe("$0.12");
  });

  it("keeps every digit of the amount when exact (compatibility level 1 and up)", () => {
    const big = { decimalValue: "-987654321098765432.15", currencyCode: "EUR" };
    expect(formatLegacyMoney(big, "en-US")).toBe("-€987,654,321,098,765,440.00");
    expect(formatLegacyMoney(big, "en-US", true)).toBe("-€987,654,321,098,765,432.15");
    expect(formatLegacyMoney({ decimalValue: "2.345", currencyCode: "USD" }, "de-DE", true)).toBe("2,34$");
    expect(formatLegacyMoney({ decimalValue: "2.355", currencyCode: "USD" }, "de-DE", true)).toBe("2,36$");
    expect(formatLegacyMoney({ decimalValue: "7", currencyCode: "JPY" }, "en-US", true)).toBe("¥7");
    expect(formatLegacyMoney({ decimalValue: "-0.001", currencyCode: "USD" }, "en-US", true)).toBe("$0.00");
    const engine = new Engine();
    const t = "{m|i18n-money-format en-US}";
    const m = { decimalValue: "12345678901234567.89", currencyCode: "USD" };
    expect(engine.render(t, { m }, { compatLevel: 1 }).output).toBe("$12,345,678,901,234,567.89");
    expect(engine.render(t, { m }).output).toBe("$12,345,678,901,234,568.00");
  });
});
