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
    expect(css).toContain("--step-1:1.5rem;");
    expect(css).toContain("--step-2:clamp(1.891rem, 1.891rem + 1.45vw, 3.05rem);");
    expect(css).toContain("--font-size-base:18px;");
    expect(css).toContain("--button-radius:999px;--button-bg:transparent;--button-fg:var(--color-accent)");
    expect(css).toContain("--section-space:clamp(32px, 5vw, 72px);--gap:14px");
  });

  it("leaves out a colour that is still being typed", () => {
    const css = previewCss({ ...styles, colors: { ...styles.colors, accent: "#cc00" } }, fonts);
    expect(css).not.toContain("#cc00");
    expect(css).toContain("--color-text:#111111;");
  });

  it("falls back to a system stack for a font it does not know", () => {
    expect(fontStack("nope", fonts)).toMatch(/^ui-sans-serif/);
    expect(fontStack("inter", fonts)).toMatch(/^"Inter", ui-sans-serif/);
  });
});
