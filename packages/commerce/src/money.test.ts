import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nativeFormatTemplate } from "./currencies.js";
import { parseDecimal } from "./decimal.js";
import {
  decimalMoney,
  formatDecimal,
  formatMinorUnits,
  formatMoney,
  formatMoneyObject,
  fromMinorUnits,
  isMoney,
  legacyMoneyHtml,
  moneyToMinor,
  toMinorUnits,
  valueMoney,
} from "./money.js";

describe("money", () => {
  it("converts major units to minor units exactly", () => {
    expect(toMinorUnits("12.34")).toBe(1234);
    expect(toMinorUnits(0.1 + 0.2)).toBe(30);
    expect(toMinorUnits("19.99", "USD")).toBe(1999);
    expect(toMinorUnits("1500", "JPY")).toBe(1500);
    expect(toMinorUnits("1500.5", "JPY")).toBe(1501);
    expect(toMinorUnits("-2.5")).toBe(-250);
    expect(() => toMinorUnits("abc")).toThrow(TypeError);
  });
  it("converts minor units back", () => {
    expect(fromMinorUnits(12345)).toBe("123.45");
    expect(fromMinorUnits(5)).toBe("0.05");
    expect(fromMinorUnits(-5)).toBe("-0.05");
    expect(fromMinorUnits(1500, "JPY")).toBe("1500");
    expect(fromMinorUnits(123456789)).toBe("1234567.89");
  });
  it("round-trips every amount", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom("USD", "JPY", "EUR"),
        (minor, code) => {
          expect(toMinorUnits(fromMinorUnits(minor, code), code)).toBe(minor);
        },
      ),
    );
  });
  it("reads both Money shapes", () => {
    expect(isMoney({ value: "1", currency: "USD" })).toBe(true);
    expect(isMoney({ decimalValue: "1", currencyCode: "USD" })).toBe(true);
    expect(isMoney({ value: "1" })).toBe(false);
    expect(isMoney(null)).toBe(false);
    expect(moneyToMinor({ value: "100", currency: "USD" })).toEqual({ minor: 10000, currency: "USD" });
    expect(moneyToMinor({ decimalValue: "1234.56", currencyCode: "AUD" })).toEqual({
      minor: 123456,
      currency: "AUD",
    });
    expect(moneyToMinor({ decimalValue: 5000, currencyCode: "JPY" })).toEqual({
      minor: 5000,
      currency: "JPY",
    });
    expect(moneyToMinor({ value: "", currency: "" })).toEqual({ minor: 0, currency: "USD" });
    expect(valueMoney(1999, "EUR")).toEqual({ value: "19.99", currency: "EUR" });
    expect(decimalMoney(1999, "JPY")).toEqual({ decimalValue: "1999", currencyCode: "JPY" });
  });
  it("formats minor units without Intl", () => {
    expect(formatMinorUnits(12345)).toBe("123.45");
    expect(formatMinorUnits(123456789)).toBe("1,234,567.89");
    expect(formatMinorUnits(-100000)).toBe("-1,000.00");
    expect(formatMinorUnits(0)).toBe("0.00");
    expect(formatMinorUnits(123456, { fractionDigits: 0, thousandsSeparator: "." })).toBe("123.456");
    expect(formatMinorUnits(123456, { decimalSeparator: ",", thousandsSeparator: " " })).toBe("1 234,56");
    expect(() => formatMinorUnits(1.5)).toThrow(TypeError);
    expect(formatDecimal(parseDecimal("0.125")!, { rounding: "half-even" })).toBe("0.12");
    expect(formatDecimal(parseDecimal("0.125")!)).toBe("0.13");
    expect(() => formatMinorUnits(100000, { maxIntegerPlaces: 3 })).toThrow(RangeError);
    expect(formatMinorUnits(99999, { maxIntegerPlaces: 3 })).toBe("999.99");
    expect(formatDecimal(parseDecimal("999999999999999")!)).toBe("999,999,999,999,999.00");
    expect(() => formatDecimal(parseDecimal("1000000000000000")!)).toThrow(RangeError);
  });
  it("formats with the legacy templates", () => {
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(123456, "AUD")).toBe("A$1,234.56");
    expect(formatMoney(-500, "GBP")).toBe("-£5.00");
    expect(formatMoney(1500, "JPY")).toBe("¥1,500");
    expect(formatMoney(1500, "SEK", nativeFormatTemplate("SEK"))).toBe("15.00 kr");
    expect(formatMoney(1500, "ILS", nativeFormatTemplate("ILS"))).toBe("₪ 15.00");
    expect(formatMoneyObject({ decimalValue: "10", currencyCode: "CAD" })).toBe("CA$10.00");
    expect(formatMoneyObject({ value: "10", currency: "CAD" }, nativeFormatTemplate("CAD"))).toBe("$10.00");
  });
  it("prints the legacy money span with the currency's digits, ties to even", () => {
    expect(legacyMoneyHtml(parseDecimal("1234.5")!)).toBe('<span class="sqs-money-native">1,234.50</span>');
    expect(legacyMoneyHtml(parseDecimal("9800")!, "JPY")).toBe('<span class="sqs-money-native">9,800</span>');
    expect(legacyMoneyHtml(parseDecimal("0.125")!, "USD")).toBe('<span class="sqs-money-native">0.12</span>');
    expect(legacyMoneyHtml(parseDecimal("1000000000000000")!)).toBe(
      '<span class="sqs-money-native">1,000,000,000,000,000.00</span>',
    );
  });
});
