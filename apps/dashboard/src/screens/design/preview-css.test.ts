import { describe, expect, it } from "vitest";
import type { Styles } from "./design-api.js";
import { fontStack, previewCss } from "./preview-css.js";

const fonts = [
  { id: "lora", name: "Lora", category: "serif" },
  { id: "inter", name: "Inter", category: "sans-serif" },
];
const styles: Styles = {
  colors: {
    background: "#ffffff",
    text: "#111111",
    accent: "#cc0000",
    accentText: "#ffffff",
    muted: "#666666",
    border: "#dddddd",
  },
  fonts: { heading: "lora", body: "inter" },
  fontSizeBase: 18,
  headingScale: 1.5,
  contentWidth: 960,
  spacing: "compact",
  buttonShape: "pill",
  buttonStyle: "outline",
};

describe("previewCss", () => {
  it("sets the theme tokens from the owner's styles", () => {
    const css = previewCss(styles, fonts);
    expect(css).toContain("--color-accent:#cc0000;");
    expect(css).toContain("--color-bg:#ffffff;");
    expect(css).toContain('--font-heading:"Lora", Georgia');
    expect(css).toContain("--container:960px;");
    expect(css).toContain("--step-2:2.25rem;");
    expect(css).toContain("font-size:18px;");
    expect(css).toContain("border-radius:999px;background:transparent;color:#cc0000");
  });

  it("falls back to a system stack for a font it does not know", () => {
    expect(fontStack("nope", fonts)).toMatch(/^ui-sans-serif/);
    expect(fontStack("inter", fonts)).toMatch(/^"Inter", ui-sans-serif/);
  });
});
