/**
 * Design tokens: each style of the model as the CSS custom properties base.css and the theme
 * stylesheets read. A theme's defaults become part of its stylesheet; a site's own choices are
 * one small `:root{…}` block of only what differs, emitted after the theme's stylesheet.
 */
import { fontById } from "./fonts.js";
import type { ColorKey, Styles } from "./styles.js";

type Tokens = Record<string, string>;

const COLOR_TOKEN: Record<ColorKey, string> = {
  background: "--color-bg",
  text: "--color-text",
  accent: "--color-accent",
  accentText: "--color-accent-contrast",
  muted: "--color-muted",
  border: "--color-border",
};

const SPACING: Record<Styles["spacing"], Tokens> = {
  compact: { "--section-space": "clamp(32px, 5vw, 72px)", "--gap": "14px" },
  comfortable: { "--section-space": "clamp(48px, 8vw, 112px)", "--gap": "20px" },
  spacious: { "--section-space": "clamp(64px, 11vw, 160px)", "--gap": "28px" },
};

const BUTTON_RADIUS: Record<Styles["buttonShape"], string> = { square: "0px", rounded: "6px", pill: "999px" };

const BUTTON_STYLE: Record<Styles["buttonStyle"], Tokens> = {
  solid: {
    "--button-bg": "var(--color-accent)",
    "--button-fg": "var(--color-accent-contrast)",
    "--button-hover-bg": "var(--color-accent-hover)",
    "--button-hover-fg": "var(--color-accent-contrast)",
  },
  outline: {
    "--button-bg": "transparent",
    "--button-fg": "var(--color-accent)",
    "--button-hover-bg": "var(--color-accent)",
    "--button-hover-fg": "var(--color-accent-contrast)",
  },
};

const rem = (n: number) => `${Math.round(n * 1000) / 1000}rem`;

/**
 * The type scale: step 1 is the ratio itself; steps 2–5 grow from a phone size to their full
 * size at about 1280 px, the largest ratio^(1.25n + 0.25) (1.25 gives the classic 1.6 … 4.3 rem).
 */
export function typeScale(ratio: number): Tokens {
  const out: Tokens = { "--step-1": rem(ratio) };
  for (let n = 2; n <= 5; n++) {
    const max = ratio ** (1.25 * n + 0.25);
    const min = Math.max(ratio, max * 0.62);
    out[`--step-${n}`] =
      `clamp(${rem(min)}, ${rem(min)} + ${Math.round((max - min) * 125) / 100}vw, ${rem(max)})`;
  }
  return out;
}

type StyleKey = keyof Styles;

/** The tokens of one style key. `derive` adds what follows from a changed colour (hover, surfaces). */
function tokensOf(key: StyleKey, s: Styles, derive: boolean, only?: Set<string>): Tokens {
  switch (key) {
    case "colors": {
      const out: Tokens = {};
      for (const [k, token] of Object.entries(COLOR_TOKEN) as [ColorKey, string][]) {
        if (only && !only.has(k)) continue;
        out[token] = s.colors[k];
      }
      if (derive && (!only || only.has("accent")))
        out["--color-accent-hover"] = `color-mix(in srgb, ${s.colors.accent} 84%, #000)`;
      if (derive && (!only || only.has("background") || only.has("text"))) {
        out["--color-surface"] = s.colors.background;
        out["--color-soft"] = `color-mix(in srgb, ${s.colors.text} 5%, ${s.colors.background})`;
      }
      return out;
    }
    case "fonts": {
      const out: Tokens = {};
      if (!only || only.has("heading")) out["--font-heading"] = fontById(s.fonts.heading)?.stack ?? "inherit";
      if (!only || only.has("body")) out["--font-body"] = fontById(s.fonts.body)?.stack ?? "inherit";
      return out;
    }
    case "fontSizeBase":
      return { "--font-size-base": `${s.fontSizeBase}px` };
    case "headingScale":
      return typeScale(s.headingScale);
    case "contentWidth":
      return { "--container": `${s.contentWidth}px` };
    case "spacing":
      return SPACING[s.spacing];
    case "buttonShape":
      return { "--button-radius": BUTTON_RADIUS[s.buttonShape] };
    case "buttonStyle":
      return BUTTON_STYLE[s.buttonStyle];
  }
}

const STYLE_KEYS: StyleKey[] = [
  "colors",
  "fonts",
  "fontSizeBase",
  "headingScale",
  "contentWidth",
  "spacing",
  "buttonShape",
  "buttonStyle",
];

/** Every token of a full set of styles (a theme's defaults). */
export function allTokens(s: Styles): Tokens {
  return Object.assign({}, ...STYLE_KEYS.map((k) => tokensOf(k, s, false)));
}

/** The tokens of the styles that differ from the theme's defaults. */
export function changedTokens(s: Styles, defaults: Styles): Tokens {
  const out: Tokens = {};
  for (const key of STYLE_KEYS) {
    if (key === "colors" || key === "fonts") {
      const a = s[key] as Record<string, string>;
      const b = defaults[key] as Record<string, string>;
      const changed = new Set(Object.keys(a).filter((k) => a[k] !== b[k]));
      if (changed.size) Object.assign(out, tokensOf(key, s, true, changed));
    } else if (s[key] !== defaults[key]) Object.assign(out, tokensOf(key, s, true));
  }
  return out;
}

/** `:root{…}` of the tokens, or "" when there are none. Values come from checked styles only. */
export function rootBlock(tokens: Tokens): string {
  const body = Object.entries(tokens)
    .map(([k, v]) => `${k}:${v}`)
    .join(";");
  return body ? `:root{${body}}` : "";
}
