import { describe, expect, it } from "vitest";
import {
  AA_TEXT_CONTRAST,
  contrastRatio,
  formatContrast,
  HEX_COLOR,
  normalizeHex,
  parseHex,
} from "./colors.js";

describe("hex colours and contrast", () => {
  it("parses short and long hex colours and refuses the rest", () => {
    expect(parseHex("#fff")).toEqual([255, 255, 255]);
    expect(parseHex("#1F3b5B")).toEqual([31, 59, 91]);
    expect(parseHex("red")).toBeUndefined();
    expect(parseHex("#12345")).toBeUndefined();
    expect(HEX_COLOR.test("#zzzzzz")).toBe(false);
    expect(parseHex(" #fff ")).toEqual([255, 255, 255]);
    expect(normalizeHex("#ABC")).toBe("#aabbcc");
  });

  it("gives the WCAG ratios of known pairs", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
    // WebAIM's checker: #767676 on white is 4.54:1, the lightest grey that passes AA.
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#777777", "#ffffff")!).toBeLessThan(AA_TEXT_CONTRAST);
    expect(contrastRatio("#ffffff", "#767676")).toBe(contrastRatio("#767676", "#ffffff"));
    expect(contrastRatio("#fff", "nope")).toBeUndefined();
  });
});

describe("formatContrast", () => {
  it("rounds the shown ratio down so a failing pair never reads 4.5:1", () => {
    expect(formatContrast(4.499)).toBe("4.4:1");
    expect(formatContrast(21)).toBe("21.0:1");
  });
});
