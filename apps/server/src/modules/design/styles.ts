/**
 * The style model of a site's design: colours, fonts, type scale, width, spacing and buttons.
 * A site stores only its changes from the theme's defaults; a change is a partial object, deep
 * merged, where `null` puts a key back to the theme's default.
 */
import { isRecord } from "@atelier/commerce";
import {
  BUTTON_SHAPES,
  BUTTON_STYLES,
  COLOR_KEYS,
  type ColorKey,
  HEX_COLOR,
  HEX_COLOR_MSG,
  normalizeHex,
  SPACINGS,
  STYLE_RANGES,
  type StyleOverrides,
  type Styles,
} from "@atelier/owner-api";
import { FONT_IDS } from "./fonts.js";

export type { ColorKey, StyleOverrides, Styles };

export const STYLE_MSG = {
  COLOR: HEX_COLOR_MSG,
  FONT: "Choose one of the fonts in the list.",
  fontSizeBase: `The base font size must be between ${STYLE_RANGES.fontSizeBase.min} and ${STYLE_RANGES.fontSizeBase.max} px.`,
  headingScale: `The heading scale must be between ${STYLE_RANGES.headingScale.min} and ${STYLE_RANGES.headingScale.max}.`,
  contentWidth: `The content width must be between ${STYLE_RANGES.contentWidth.min} and ${STYLE_RANGES.contentWidth.max} px.`,
  spacing: "Choose compact, comfortable or spacious spacing.",
  buttonShape: "Choose a square, rounded or pill button shape.",
  buttonStyle: "Choose a solid or outline button style.",
  UNKNOWN: "This is not a style setting.",
} as const;

const isHexColor = (v: unknown): v is string => typeof v === "string" && HEX_COLOR.test(v);

type Patch = Record<string, unknown>;

/**
 * Applies a style change to what the site stored: each field checked (messages by field path,
 * e.g. `styles.colors.accent`), `null` removing the override. Throws nothing; the caller decides.
 */
export function applyStylePatch(
  stored: StyleOverrides,
  patch: Patch,
): { styles: StyleOverrides; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const out: StyleOverrides = {
    ...stored,
    colors: { ...stored.colors },
    fonts: { ...stored.fonts },
  };
  for (const [key, value] of Object.entries(patch)) {
    const at = `styles.${key}`;
    if (key === "colors" || key === "fonts") {
      if (value === null) {
        out[key] = {};
        continue;
      }
      if (!isRecord(value)) {
        fields[at] = key === "colors" ? STYLE_MSG.COLOR : STYLE_MSG.FONT;
        continue;
      }
      const keys: readonly string[] = key === "colors" ? COLOR_KEYS : ["heading", "body"];
      const target = out[key] as Record<string, string>;
      for (const [k, v] of Object.entries(value)) {
        const field = `${at}.${k}`;
        if (!keys.includes(k)) fields[field] = STYLE_MSG.UNKNOWN;
        else if (v === null) delete target[k];
        else if (key === "colors") {
          if (isHexColor(v)) target[k] = normalizeHex(v)!;
          else fields[field] = STYLE_MSG.COLOR;
        } else if (typeof v === "string" && FONT_IDS.includes(v)) target[k] = v;
        else fields[field] = STYLE_MSG.FONT;
      }
      continue;
    }
    const o = out as Record<string, unknown>;
    if (value === null) {
      delete o[key];
      continue;
    }
    switch (key) {
      case "fontSizeBase":
      case "headingScale":
      case "contentWidth": {
        const { min, max } = STYLE_RANGES[key];
        const ok = typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
        const whole = key !== "headingScale";
        if (ok && (!whole || Number.isInteger(value)))
          o[key] = whole ? value : Math.round(value * 1000) / 1000;
        else fields[at] = STYLE_MSG[key];
        break;
      }
      case "spacing":
      case "buttonShape":
      case "buttonStyle": {
        const allowed: readonly string[] =
          key === "spacing" ? SPACINGS : key === "buttonShape" ? BUTTON_SHAPES : BUTTON_STYLES;
        if (typeof value === "string" && allowed.includes(value)) o[key] = value;
        else fields[at] = STYLE_MSG[key];
        break;
      }
      default:
        fields[at] = STYLE_MSG.UNKNOWN;
    }
  }
  if (out.colors && !Object.keys(out.colors).length) delete out.colors;
  if (out.fonts && !Object.keys(out.fonts).length) delete out.fonts;
  return { styles: out, fields };
}

/** The styles a site shows: the theme's defaults with the site's overrides on top. */
export function effectiveStyles(defaults: Styles, overrides: StyleOverrides): Styles {
  return {
    ...defaults,
    ...(overrides as Partial<Styles>),
    colors: { ...defaults.colors, ...overrides.colors },
    fonts: { ...defaults.fonts, ...overrides.fonts },
  };
}

/**
 * Overrides kept when the theme changes: every value the new theme supports (all of the model
 * today; a font the new theme could not show would be dropped here).
 */
export function overridesFor(overrides: StyleOverrides): StyleOverrides {
  const { styles } = applyStylePatch({}, overrides as Patch);
  return styles;
}
