import { describe, expect, it } from "vitest";
import { fontStack } from "./preview-css.js";

const fonts = [
  { id: "lora", name: "Lora", category: "serif" },
  { id: "inter", name: "Inter", category: "sans-serif" },
];

describe("fontStack", () => {
  it("names the family, then its category's fallbacks", () => {
    expect(fontStack("lora", fonts)).toMatch(/^"Lora", Georgia/);
    expect(fontStack("inter", fonts)).toMatch(/^"Inter", ui-sans-serif/);
  });

  it("falls back to a system stack for a font it does not know", () => {
    expect(fontStack("nope", fonts)).toMatch(/^ui-sans-serif/);
  });
});
