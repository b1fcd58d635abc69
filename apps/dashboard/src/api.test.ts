import { SUPPORTED_CURRENCIES, fractionDigitsOf } from "@atelier/commerce";
import { describe, expect, it } from "vitest";
import { centsToText, formatCents, textToCents, withQuery } from "./api.js";

describe("money in the dashboard", () => {
  it("reads and writes amounts with the SPEC's digits for every supported currency", () => {
    for (const { code } of SUPPORTED_CURRENCIES) {
      const digits = fractionDigitsOf(code);
      const text = digits ? `12.${"3".repeat(digits)}` : "12";
      const cents = digits ? 12 * 10 ** digits + Number("3".repeat(digits)) : 12;
      expect(textToCents(text, code), code).toBe(cents);
      expect(centsToText(cents, code), code).toBe(text);
      expect(textToCents(`1.${"0".repeat(digits + 1)}`, code), code).toBeUndefined();
      expect(formatCents(cents, code), code).toContain(digits ? `12.${"3".repeat(digits)}` : "12");
    }
    expect(textToCents("1,234.5", "USD")).toBe(123450);
    expect(textToCents("abc", "USD")).toBeUndefined();
  });
});

describe("withQuery", () => {
  it("keeps the parameters that have a value, in order, each encoded", () => {
    expect(withQuery("/orders", { limit: 25, offset: 0, q: "a b&c", status: "" })).toBe(
      "/orders?limit=25&offset=0&q=a%20b%26c",
    );
    expect(withQuery("/groups", { cursor: undefined, more: null, all: false })).toBe("/groups");
  });
});
