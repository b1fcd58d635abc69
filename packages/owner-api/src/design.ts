/** The style model of a site's design, as GET/PATCH /api/owner/sites/:siteId/design answer it. */
export type ColorKey = "background" | "text" | "accent" | "accentText" | "muted" | "border";
export type Spacing = "compact" | "comfortable" | "spacious";
export type ButtonShape = "square" | "rounded" | "pill";
export type ButtonStyle = "solid" | "outline";

/** Colours, fonts, type scale, width, spacing and buttons: every key set. */
export interface Styles {
  colors: Record<ColorKey, string>;
  fonts: { heading: string; body: string };
  fontSizeBase: number;
  headingScale: number;
  contentWidth: number;
  spacing: Spacing;
  buttonShape: ButtonShape;
  buttonStyle: ButtonStyle;
}
