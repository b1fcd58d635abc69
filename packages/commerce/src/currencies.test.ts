import { describe, expect, it, vi } from "vitest";
import {
  DEFAULT_CURRENCY,
  enUsFormatTemplate,
  fractionDigitsOf,
  getCurrency,
  isSupportedCurrency,
  nativeFormatTemplate,
  StoreCurrency,
  SUPPORTED_CURRENCIES,
} from "./currencies.js";
import { formatMoney } from "./money.js";

const CODES =
  "EUR USD AUD NOK CAD NZD DKK GBP HKD CHF MXN SGD SEK CZK ILS PHP RUB PLN THB MYR ARS BRL COP IDR INR JPY ZAR".split(
    " ",
  );

describe("currencies", () => {
  it("supports exactly the 27 codes of the SPEC in order", () => {
    expect(SUPPORTED_CURRENCIES.map((c) => c.code)).toEqual(CODES);
    expect(new Set(SUPPORTED_CURRENCIES.map((c) => c.numericCode)).size).toBe(27);
    for (const c of SUPPORTED_CURRENCIES) expect(c.numericCode).toMatch(/^\d{3}$/);
  });
  it("has currency records", () => {
    expect(getCurrency("usd")).toEqual({
      code: "USD",
      currencyName: "US Dollar",
      fractionDigits: 2,
      numericCode: "840",
    });
    expect(getCurrency("AUD")?.numericCode).toBe("036");
    expect(getCurrency("XXX")).toBeUndefined();
    expect(isSupportedCurrency("jpy")).toBe(true);
    expect(isSupportedCurrency("BTC")).toBe(false);
  });
  it("uses 0 fraction digits for JPY and 2 for the rest and unknown codes", () => {
    expect(fractionDigitsOf("JPY")).toBe(0);
    for (const code of CODES.filter((c) => c !== "JPY")) expect(fractionDigitsOf(code)).toBe(2);
    expect(fractionDigitsOf("KWD")).toBe(2);
    expect(fractionDigitsOf(undefined)).toBe(2);
  });
  it("uses the en-US prefixes", () => {
    expect(enUsFormatTemplate("AUD").symbol).toBe("A$");
    expect(enUsFormatTemplate("CAD").symbol).toBe("CA$");
    expect(enUsFormatTemplate("HKD").symbol).toBe("HK$");
    expect(enUsFormatTemplate("EUR").symbol).toBe("€");
    expect(enUsFormatTemplate("GBP").symbol).toBe("£");
    expect(enUsFormatTemplate("USD")).toEqual({
      symbol: "$",
      formatter: "%s%v",
      thousandsSeparator: ",",
      decimalSeparator: ".",
      maxIntegerPlaces: 15,
    });
    expect(enUsFormatTemplate("SEK").symbol).toBe("kr");
  });
  it("uses the native symbols", () => {
    for (const code of ["DKK", "NOK", "SEK"])
      expect(nativeFormatTemplate(code)).toMatchObject({ symbol: "kr", formatter: "%v %s" });
    expect(nativeFormatTemplate("ILS")).toMatchObject({ symbol: "₪", formatter: "%s %v" });
    const symbols: Record<string, string> = {
      CZK: "Kč",
      PLN: "zł",
      RUB: "p.",
      BRL: "R$",
      IDR: "Rp",
      INR: "₹",
      JPY: "¥",
      MYR: "RM",
      ZAR: "R",
      THB: "฿",
      CHF: "CHF",
      COP: "COL$",
      SGD: "S$",
      PHP: "Php",
    };
    for (const [code, symbol] of Object.entries(symbols))
      expect(nativeFormatTemplate(code).symbol).toBe(symbol);
    expect(nativeFormatTemplate("AUD").symbol).toBe("$");
  });
  it("places every symbol as SPEC §9 says, in the native and the en-US templates", () => {
    const native: Record<string, string> = {
      EUR: "€1,234.56",
      USD: "$1,234.56",
      AUD: "$1,234.56",
      NOK: "1,234.56 kr",
      CAD: "$1,234.56",
      NZD: "$1,234.56",
      DKK: "1,234.56 kr",
      GBP: "£1,234.56",
      HKD: "$1,234.56",
      CHF: "CHF1,234.56",
      MXN: "$1,234.56",
      SGD: "S$1,234.56",
      SEK: "1,234.56 kr",
      CZK: "Kč1,234.56",
      ILS: "₪ 1,234.56",
      PHP: "Php1,234.56",
      RUB: "p.1,234.56",
      PLN: "zł1,234.56",
      THB: "฿1,234.56",
      MYR: "RM1,234.56",
      ARS: "$1,234.56",
      BRL: "R$1,234.56",
      COP: "COL$1,234.56",
      IDR: "Rp1,234.56",
      INR: "₹1,234.56",
      JPY: "¥123,456",
      ZAR: "R1,234.56",
    };
    expect(Object.keys(native)).toEqual(CODES);
    const enUs: Record<string, string> = {
      ...native,
      AUD: "A$1,234.56",
      CAD: "CA$1,234.56",
      HKD: "HK$1,234.56",
    };
    for (const code of CODES) {
      expect([code, formatMoney(123456, code, nativeFormatTemplate(code))]).toEqual([code, native[code]]);
      expect([code, formatMoney(123456, code, enUsFormatTemplate(code))]).toEqual([code, enUs[code]]);
    }
    expect(formatMoney(-50000, "SEK", nativeFormatTemplate("SEK"))).toBe("-500.00 kr");
    expect(formatMoney(100, "XXX", nativeFormatTemplate("XXX"))).toBe("XXX 1.00");
  });
  it("holds the store currency, USD by default, updatable at runtime", () => {
    const store = new StoreCurrency();
    expect(store.code).toBe(DEFAULT_CURRENCY);
    expect(store.code).toBe("USD");
    const listener = vi.fn();
    const off = store.subscribe(listener);
    store.set("eur");
    expect(store.code).toBe("EUR");
    expect(store.currency.currencyName).toBe("Euro");
    expect(listener).toHaveBeenCalledWith("EUR", "USD");
    store.set("EUR");
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    store.set("JPY");
    expect(listener).toHaveBeenCalledTimes(1);
    expect(() => store.set("BTC")).toThrow(RangeError);
    expect(store.code).toBe("JPY");
  });
});
