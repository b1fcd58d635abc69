import { describe, expect, it } from "vitest";
import { colorWeightFormatter, hexColorToInt, websiteColorFormatter } from "./color.js";
import { fakeContext, format } from "./testing.js";

const ctx = fakeContext({});

describe("color-weight", () => {
  it("splits at half of the 24-bit range", () => {
    expect(format(colorWeightFormatter, "#ffffff", ctx)).toBe("light");
    expect(format(colorWeightFormatter, "800000", ctx)).toBe("light");
    expect(format(colorWeightFormatter, "7fffff", ctx)).toBe("dark");
    expect(format(colorWeightFormatter, "#999", ctx)).toBe("light");
    expect(format(colorWeightFormatter, "#333", ctx)).toBe("dark");
  });

  it("is missing for non-colours", () => {
    expect(format(colorWeightFormatter, "#ggg", ctx)).toBeUndefined();
    expect(format(colorWeightFormatter, "1234567", ctx)).toBeUndefined();
    expect(format(colorWeightFormatter, undefined, ctx)).toBeUndefined();
  });

  it("expands three-digit colours", () => {
    expect(hexColorToInt("#abc")).toBe(0xaabbcc);
    expect(hexColorToInt("zz")).toBe(-1);
  });
});

describe("website-color", () => {
  it("prints hsl and hsla", () => {
    expect(format(websiteColorFormatter, { hue: 12, saturation: 0.5, lightness: 0.25 }, ctx)).toBe(
      "hsl(12, 50%, 25%)",
    );
    expect(
      format(websiteColorFormatter, { hue: 12, saturation: 0.5, lightness: 0.25, alpha: 0.4 }, ctx),
    ).toBe("hsla(12, 50%, 25%, 0.4)");
  });

  it("rounds to two decimals", () => {
    expect(
      format(websiteColorFormatter, { hue: 1.234, saturation: 0.12345, lightness: 0.5, alpha: 0.125 }, ctx),
    ).toBe("hsla(1.23, 12.35%, 50%, 0.13)");
  });

  it("uses the locale's decimal symbol", () => {
    const fr = fakeContext({}, { locale: "fr-FR" });
    expect(
      format(websiteColorFormatter, { hue: 0, saturation: 0.125, lightness: 0.5, alpha: 0.75 }, fr),
    ).toBe("hsla(0, 12,5%, 50%, 0,75)");
  });

  it("reports missing and out-of-range components", () => {
    expect(format(websiteColorFormatter, { hue: 10, lightness: 0.5 }, ctx)).toBe("Missing an H/S/L value.");
    expect(format(websiteColorFormatter, { hue: -1, saturation: 2, lightness: 0.5, alpha: -0.1 }, ctx)).toBe(
      "Hue out of bounds. Saturation out of bounds. Alpha out of bounds.",
    );
  });
});
