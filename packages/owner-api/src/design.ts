/** The style model of a site's design, as GET/PATCH /api/owner/sites/:siteId/design answer it. */
export const COLOR_KEYS = ["background", "text", "accent", "accentText", "muted", "border"] as const;
export const SPACINGS = ["compact", "comfortable", "spacious"] as const;
export const BUTTON_SHAPES = ["square", "rounded", "pill"] as const;
export const BUTTON_STYLES = ["solid", "outline"] as const;

/** The largest custom CSS a site may have, in bytes (UTF-8). */
export const CUSTOM_CSS_MAX_BYTES = 100 * 1024;

/** The longest alternative text of the site's logo. */
export const LOGO_ALT_MAX_LENGTH = 300;

/** The bounds of the numeric styles and the steps of their sliders; the server refuses values outside. */
export const STYLE_RANGES = {
  fontSizeBase: { min: 14, max: 22, step: 1 },
  headingScale: { min: 1.1, max: 1.6, step: 0.05 },
  contentWidth: { min: 720, max: 1600, step: 10 },
} as const;

export type ColorKey = (typeof COLOR_KEYS)[number];
export type Spacing = (typeof SPACINGS)[number];
export type ButtonShape = (typeof BUTTON_SHAPES)[number];
export type ButtonStyle = (typeof BUTTON_STYLES)[number];

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
