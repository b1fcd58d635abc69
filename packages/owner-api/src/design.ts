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

/** What a site stores: any part of the model, its changes from the theme's defaults. */
export interface StyleOverrides {
  colors?: Partial<Record<ColorKey, string>>;
  fonts?: Partial<Styles["fonts"]>;
  fontSizeBase?: number;
  headingScale?: number;
  contentWidth?: number;
  spacing?: Spacing;
  buttonShape?: ButtonShape;
  buttonStyle?: ButtonStyle;
}

/** A built-in theme of the gallery. */
export interface DesignTheme {
  id: string;
  name: string;
  description: string;
  screenshotUrl: string | null;
  /** The website types (SPEC numbers) the theme is made for. */
  websiteTypes: number[];
}

/** A curated font the styles may choose. */
export interface DesignFont {
  id: string;
  name: string;
  category: string;
}

/** An image of the site's media library as the design uses it. */
export interface DesignImage {
  mediaId: string;
  url: string;
}

/** The design as GET and PATCH /api/owner/sites/:siteId/design answer it. */
export interface Design {
  /** The theme the site shows. */
  theme: string;
  themes: DesignTheme[];
  /** The styles in effect: the theme's defaults with the site's overrides. */
  styles: Styles;
  overrides: StyleOverrides;
  defaults: Styles;
  /** Colour pairs below WCAG AA, with the field each is about. */
  warnings: { field: string; message: string }[];
  customCss: string;
  customCssUrl: string | null;
  logo: (DesignImage & { alt: string; maxHeight: number }) | null;
  siteIcon: DesignImage | null;
  socialImage: DesignImage | null;
  fonts: DesignFont[];
}
