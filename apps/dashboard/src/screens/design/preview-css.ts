/** Showing unsaved CSS in the preview frame, and fonts by name with their fallbacks. */
import type { DesignFont } from "./design-api.js";

const FALLBACK: Record<string, string> = {
  serif: 'Georgia, "Times New Roman", serif',
  "sans-serif": 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif',
  display: "ui-sans-serif, system-ui, sans-serif",
  monospace: "ui-monospace, Menlo, Consolas, monospace",
  handwriting: "cursive",
};

/** A CSS font-family list for a font of the curated set: its name, then its category's fallbacks. */
export function fontStack(id: string, fonts: DesignFont[]): string {
  const font = fonts.find((f) => f.id === id);
  if (!font) return FALLBACK["sans-serif"]!;
  return `"${font.name.replace(/["\\]/g, "")}", ${FALLBACK[font.category] ?? FALLBACK["sans-serif"]}`;
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

/**
 * Switches off the page's own saved sheets that a preview stands in for (the site's :root block,
 * its custom CSS), so a style put back to the theme's default, or a deleted rule, is seen gone.
 */
export function disableInFrame(frame: HTMLIFrameElement | null, selectors: string[]): void {
  const doc = frame?.contentDocument;
  for (const sel of selectors) {
    const sheet = doc?.querySelector<HTMLStyleElement | HTMLLinkElement>(sel)?.sheet;
    if (sheet) sheet.disabled = true;
  }
}
