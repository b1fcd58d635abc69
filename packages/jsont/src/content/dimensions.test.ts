import { describe, expect, it } from "vitest";
import {
  heightFormatter,
  resizedHeightForWidthFormatter,
  resizedWidthForHeightFormatter,
  thumbnailForHeightFormatter,
  thumbnailForWidthFormatter,
  variantForWidth,
  widthFormatter,
} from "./dimensions.js";
import { fakeContext, format } from "./testing.js";

const ctx = fakeContext({});

describe("dimensions", () => {
  it("reads each side of a WxH size", () => {
    expect(format(widthFormatter, "640x480", ctx)).toBe(640);
    expect(format(heightFormatter, "640x480", ctx)).toBe(480);
    expect(format(widthFormatter, "640", ctx)).toBeUndefined();
    expect(format(heightFormatter, undefined, ctx)).toBeUndefined();
    expect(format(heightFormatter, "axb", ctx)).toBeUndefined();
  });

  it("scales proportionally, truncating", () => {
    expect(format(resizedHeightForWidthFormatter, "300x200", ctx, ["100"])).toBe(66);
    expect(format(resizedWidthForHeightFormatter, "300x200", ctx, ["100"])).toBe(150);
    expect(format(resizedWidthForHeightFormatter, "300", ctx, ["100"])).toBe(
      "Invalid source parameter. Pass in 'originalSize'",
    );
  });

  it("buckets widths into image variants", () => {
    const cases: [number, string][] = [
      [1, "100w"],
      [100, "100w"],
      [101, "300w"],
      [300, "300w"],
      [301, "500w"],
      [500, "500w"],
      [750, "750w"],
      [751, "1000w"],
      [1000, "1000w"],
      [1001, "1500w"],
      [5000, "1500w"],
    ];
    for (const [width, variant] of cases) expect(variantForWidth(width)).toBe(variant);
    expect(format(thumbnailForWidthFormatter, "ignored", ctx, ["640"])).toBe("750w");
    // 1200x600 shown 300 high is 600 wide.
    expect(format(thumbnailForHeightFormatter, "1200x600", ctx, ["300"])).toBe("750w");
  });
});
