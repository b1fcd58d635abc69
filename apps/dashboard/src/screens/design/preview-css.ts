/**
 * Unsaved styles as CSS for the preview frame: the theme's design tokens (the custom properties
 * every theme reads) set from the owner's choices, so the frame shows a change before it is saved.
 */
import { isHexColor } from "./contrast.js";
import type { FontInfo, Styles } from "./design-api.js";

const FALLBACK: Record<string, string> = {
  serif: 'Georgia, "Times New Roman", serif',
  "sans-serif": 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
  display: "ui-sans-serif, system-ui, sans-serif",
  monospace: "ui-monospace, Menlo, Consolas, monospace",
  handwriting: "cursive",
};

/** A CSS font-family list for a font of the curated set: its name, then its category's fallbacks. */
export function fontStack(id: string, fonts: FontInfo[]): string {
  const font = fonts.find((f) => f.id === id);
  if (!font) return FALLBACK["sans-serif"]!;
  return `"${font.name.replace(/["\\]/g, "")}", ${FALLBACK[font.category] ?? FALLBACK["sans-serif"]}`;
}

// The same tokens the server writes for saved styles (apps/server/src/modules/design/tokens.ts).
const SPACING: Record<Styles["spacing"], string> = {
  compact: "--section-space:clamp(32px, 5vw, 72px);--gap:14px",
  comfortable: "--section-space:clamp(48px, 8vw, 112px);--gap:20px",
  spacious: "--section-space:clamp(64px, 11vw, 160px);--gap:28px",
};

const RADIUS: Record<Styles["buttonShape"], string> = { square: "0px", rounded: "6px", pill: "999px" };

const BUTTON: Record<Styles["buttonStyle"], string> = {
  solid:
    "--button-bg:var(--color-accent);--button-fg:var(--color-accent-contrast);--button-hover-bg:var(--color-accent-hover);--button-hover-fg:var(--color-accent-contrast)",
  outline:
    "--button-bg:transparent;--button-fg:var(--color-accent);--button-hover-bg:var(--color-accent);--button-hover-fg:var(--color-accent-contrast)",
};

const rem = (n: number) => `${Math.round(n * 1000) / 1000}rem`;

/** The heading sizes: step 1 is the ratio; steps 2–5 grow from a phone size to ratio^(1.25n + 0.25). */
export function typeScale(ratio: number): string {
  const out = [`--step-1:${rem(ratio)}`];
  for (let n = 2; n <= 5; n++) {
    const max = ratio ** (1.25 * n + 0.25);
    const min = Math.max(ratio, max * 0.62);
    out.push(
      `--step-${n}:clamp(${rem(min)}, ${rem(min)} + ${Math.round((max - min) * 125) / 100}vw, ${rem(max)})`,
    );
  }
  return out.join(";");
}

/** A `:root{…}` block of every token of the styles, shown over the theme's and the saved ones. */
export function previewCss(styles: Styles, fonts: FontInfo[]): string {
  const c = styles.colors;
  const tokens = [
    `--color-bg:${c.background}`,
    `--color-surface:${c.background}`,
    `--color-soft:color-mix(in srgb, ${c.text} 5%, ${c.background})`,
    `--color-text:${c.text}`,
    `--color-accent:${c.accent}`,
    `--color-accent-hover:color-mix(in srgb, ${c.accent} 84%, #000)`,
    `--color-accent-contrast:${c.accentText}`,
    `--color-muted:${c.muted}`,
    `--color-border:${c.border}`,
    `--font-heading:${fontStack(styles.fonts.heading, fonts)}`,
    `--font-body:${fontStack(styles.fonts.body, fonts)}`,
    `--font-size-base:${styles.fontSizeBase}px`,
    typeScale(styles.headingScale),
    `--container:${styles.contentWidth}px`,
    SPACING[styles.spacing],
    `--button-radius:${RADIUS[styles.buttonShape]}`,
    BUTTON[styles.buttonStyle],
  ];
  // A colour still being typed (not yet a hex colour) leaves the theme's in place.
  const shown = tokens.filter(
    (t) => !/^--color-/.test(t) || !/#/.test(t) || (t.match(/#[^\s;,)]*/g) ?? []).every(isHexColor),
  );
  return `:root{${shown.join(";")}}`;
}

// One set of sheets per document: a frame's first page may reuse its window, never its document.
const sheetsOf = new WeakMap<Document, Map<string, CSSStyleSheet>>();

/**
 * Shows CSS in a document after its own styles, replacing what was shown under the same key. A
 * constructed sheet is CSSOM, which a Content-Security-Policy allows where an inline <style> may not be.
 */
export function showInDocument(win: Window | null | undefined, key: string, css: string): void {
  const doc = win?.document;
  if (!win || !doc) return;
  let sheets = sheetsOf.get(doc);
  if (!sheets) {
    sheets = new Map();
    sheetsOf.set(doc, sheets);
  }
  let sheet = sheets.get(key);
  if (!sheet) {
    sheet = new (win as Window & typeof globalThis).CSSStyleSheet();
    sheets.set(key, sheet);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  }
  sheet.replaceSync(css);
}

/** The same, in a same-origin frame. */
export function showInFrame(frame: HTMLIFrameElement | null, key: string, css: string): void {
  showInDocument(frame?.contentWindow, key, css);
}
