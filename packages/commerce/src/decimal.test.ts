import { describe, expect, it } from "vitest";
import { compareDecimal, decimalToString, movePoint, parseDecimal, roundToScale } from "./decimal.js";

describe("decimal", () => {
  it("parses strings, numbers and exponents exactly", () => {
    expect(parseDecimal("12.50")).toEqual({ coefficient: 125n, scale: 1 });
    expect(parseDecimal("-0.05")).toEqual({ coefficient: -5n, scale: 2 });
    expect(parseDecimal(" 1.2e3 ")).toEqual({ coefficient: 1200n, scale: 0 });
    expect(parseDecimal(0.1)).toEqual({ coefficient: 1n, scale: 1 });
    expect(parseDecimal(".5")).toEqual({ coefficient: 5n, scale: 1 });
  });
  it("shares frozen results for repeated text", () => {
    const a = parseDecimal("19.99");
    expect(parseDecimal("19.99")).toBe(a);
    expect(Object.isFrozen(a)).toBe(true);
    expect(parseDecimal("nope")).toBeUndefined();
    expect(parseDecimal("nope")).toBeUndefined();
  });
  it("rejects non-numbers", () => {
    expect(parseDecimal("abc")).toBeUndefined();
    expect(parseDecimal("")).toBeUndefined();
    expect(parseDecimal(".")).toBeUndefined();
    expect(parseDecimal(Number.NaN)).toBeUndefined();
  });
  it("moves the decimal point both ways", () => {
    expect(decimalToString(movePoint(parseDecimal("100")!, 2))).toBe("10000");
    expect(decimalToString(movePoint(parseDecimal("10.555")!, 2))).toBe("1055.5");
    expect(decimalToString(movePoint(parseDecimal("12345")!, -2))).toBe("123.45");
    expect(decimalToString(movePoint(parseDecimal("-5")!, -2))).toBe("-0.05");
  });
  it("rounds half away from zero", () => {
    expect(roundToScale(parseDecimal("1.005")!, 2)).toBe(101n);
    expect(roundToScale(parseDecimal("-1.005")!, 2)).toBe(-101n);
    expect(roundToScale(parseDecimal("1.004")!, 2)).toBe(100n);
    expect(roundToScale(parseDecimal("7")!, 2)).toBe(700n);
  });
  it("rounds half to even on request", () => {
    expect(roundToScale(parseDecimal("0.125")!, 2, "half-even")).toBe(12n);
    expect(roundToScale(parseDecimal("0.135")!, 2, "half-even")).toBe(14n);
    expect(roundToScale(parseDecimal("-0.125")!, 2, "half-even")).toBe(-12n);
    expect(roundToScale(parseDecimal("0.1251")!, 2, "half-even")).toBe(13n);
    expect(roundToScale(parseDecimal("0.125")!, 2)).toBe(13n);
  });
  it("compares across scales", () => {
    expect(compareDecimal(parseDecimal("1.5")!, parseDecimal("1.50")!)).toBe(0);
    expect(compareDecimal(parseDecimal("2")!, parseDecimal("10.1")!)).toBe(-1);
    expect(compareDecimal(parseDecimal("-1")!, parseDecimal("-2")!)).toBe(1);
    expect(compareDecimal(parseDecimal("1.25")!, parseDecimal("1.35")!)).toBe(-1);
    expect(compareDecimal(parseDecimal("1.25")!, parseDecimal("1.25")!)).toBe(0);
  });
});
