/**
 * Theme screenshots for the gallery: `themes/<id>/screenshot.jpg`, made from the demo site at
 * 1280 px by `npm run themes:screenshots`, served with their content hash in the address.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { THEMES_DIR } from "../../render/themes.js";

const known = new Map<string, { file: string; hash: string } | null>();

export function screenshotOf(theme: string): { file: string; hash: string } | undefined {
  if (!known.has(theme)) {
    const file = path.join(THEMES_DIR, theme, "screenshot.jpg");
    known.set(
      theme,
      /^[a-z]+$/.test(theme) && existsSync(file)
        ? { file, hash: createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 12) }
        : null,
    );
  }
  return known.get(theme) ?? undefined;
}

export function screenshotUrl(theme: string): string | null {
  const s = screenshotOf(theme);
  return s ? `/assets/theme-screenshots/${theme}.${s.hash}.jpg` : null;
}
