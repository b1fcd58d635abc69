import { describe, expect, it } from "vitest";
import { errorsByPath } from "./field-errors.js";

describe("errorsByPath", () => {
  it("reads dotted, pointer and unprefixed names alike", () => {
    expect(
      errorsByPath({
        "styles.colors.accent": "a",
        "/styles/fonts/heading": "b",
        customCss: "c",
        contentWidth: "d",
      }),
    ).toEqual({ "colors.accent": "a", "fonts.heading": "b", customCss: "c", contentWidth: "d" });
    expect(errorsByPath(undefined)).toEqual({});
  });
});
