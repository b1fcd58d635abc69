/**
 * Unsaved styles as CSS for the preview frame: the theme's design tokens (the custom properties
 * every theme reads) set from the owner's choices, so the frame shows a change before it is saved.
 */
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

const SPACE: Record<Styles["spacing"], string> = {
  compact: "clamp(32px, 5vw, 72px)",
  comfortable: "clamp(48px, 8vw, 112px)",
  spacious: "clamp(64px, 11vw, 152px)",
};

const RADIUS: Record<Styles["buttonShape"], string> = { square: "0", rounded: "6px", pill: "999px" };

const round = (n: number) => Math.round(n * 1000) / 1000;

export function previewCss(styles: Styles, fonts: FontInfo[]): string {
  const c = styles.colors;
  const steps = [1, 2, 3, 4, 5].map((n) => `--step-${n}:${round(styles.headingScale ** n)}rem;`).join("");
  const outline = styles.buttonStyle === "outline";
  return [
    ":root{",
    `--color-bg:${c.background};--color-surface:${c.background};--color-text:${c.text};`,
    `--color-accent:${c.accent};--color-accent-hover:color-mix(in srgb, ${c.accent} 85%, #000);`,
    `--color-accent-contrast:${c.accentText};--color-muted:${c.muted};--color-border:${c.border};`,
    `--font-heading:${fontStack(styles.fonts.heading, fonts)};--font-body:${fontStack(styles.fonts.body, fonts)};`,
    `--container:${styles.contentWidth}px;--section-space:${SPACE[styles.spacing]};`,
    `--button-radius:${RADIUS[styles.buttonShape]};--step-0:1rem;${steps}`,
    `font-size:${styles.fontSizeBase}px;}`,
    `.button,.sqs-block-button-element,.sqs-add-to-cart-button{border-radius:${RADIUS[styles.buttonShape]};`,
    outline
      ? `background:transparent;color:${c.accent};border:1.5px solid ${c.accent};}`
      : `background:${c.accent};color:${c.accentText};border-color:${c.accent};}`,
  ].join("");
}

/** Shows CSS in a same-origin frame's document (after its own styles), replacing what was shown. */
export function showInFrame(frame: HTMLIFrameElement | null, key: string, css: string): void {
  const win = frame?.contentWindow as (Window & typeof globalThis) | null | undefined;
  const doc = frame?.contentDocument;
  if (!win || !doc) return;
  // A constructed sheet is CSSOM, which the site's Content-Security-Policy allows (an inline <style> may not be).
  const sheets =
    (win as unknown as { __atelierPreview?: Record<string, CSSStyleSheet> }).__atelierPreview ?? {};
  (win as unknown as { __atelierPreview: Record<string, CSSStyleSheet> }).__atelierPreview = sheets;
  let sheet = sheets[key];
  if (!sheet) {
    sheet = new win.CSSStyleSheet();
    sheets[key] = sheet;
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
  }
  sheet.replaceSync(css);
}
