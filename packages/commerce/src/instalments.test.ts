import { describe, expect, it } from "vitest";
import {
  INSTALMENT_COUNT,
  instalmentAmount,
  instalmentAmounts,
  instalmentLocale,
  instalmentRange,
  isInInstalmentRange,
} from "./instalments.js";

describe("instalments", () => {
  it("is in range above 100 and up to 150000 minor units", () => {
    expect(isInInstalmentRange(100)).toBe(false);
    expect(isInInstalmentRange(101)).toBe(true);
    expect(isInInstalmentRange(150000)).toBe(true);
    expect(isInInstalmentRange(150001)).toBe(false);
    expect(instalmentRange(50)).toBe("below-minimum");
    expect(instalmentRange(200000)).toBe("above-maximum");
  });
  it("supports US en, CA en/fr, AU en, NZ en, else US", () => {
    expect(instalmentLocale("en-US")).toEqual({ country: "US", language: "en" });
    expect(instalmentLocale("fr-CA")).toEqual({ country: "CA", language: "fr" });
    expect(instalmentLocale("en_CA")).toEqual({ country: "CA", language: "en" });
    expect(instalmentLocale("en-AU")).toEqual({ country: "AU", language: "en" });
    expect(instalmentLocale("en-NZ")).toEqual({ country: "NZ", language: "en" });
    expect(instalmentLocale("fr-FR")).toEqual({ country: "US", language: "en" });
    expect(instalmentLocale("fr-AU")).toEqual({ country: "US", language: "en" });
    expect(instalmentLocale("")).toEqual({ country: "US", language: "en" });
  });
  it("splits into 4 payments summing to the price", () => {
    expect(INSTALMENT_COUNT).toBe(4);
    expect(instalmentAmounts(10000)).toEqual([2500, 2500, 2500, 2500]);
    expect(instalmentAmounts(10003)).toEqual([2501, 2501, 2501, 2500]);
    expect(instalmentAmount(999)).toBe(250);
    expect(() => instalmentAmounts(-1)).toThrow(RangeError);
    expect(() => instalmentAmounts(10, 0)).toThrow(RangeError);
  });
});
