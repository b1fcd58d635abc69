/**
 * The storefront bundle as published pages load it: the content-hashed entry named by Vite's
 * manifest, started by one tiny inline script in the page's head. The script's text is the same
 * on every page of a build, so the pages' Content-Security-Policy allows it by its SHA-256 hash
 * ('strict-dynamic' passes the trust on to the modules it imports) instead of a per-response
 * nonce: a page's bytes and headers stay the same from one answer to the next, which is what lets
 * a warm page keep its compressed body and answer 304 to a browser that has it.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const STOREFRONT_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../storefront/dist",
);
const ENTRY_SOURCE = "src/main.ts";

interface StorefrontAssets {
  /** The entry module's URL. */
  entryUrl: string;
  /**
   * The inline script's text, as head.jsont writes it around the entry's URL: it adds the entry
   * as a module script element. (A script it creates is trusted through 'strict-dynamic', and so
   * is everything that module imports; an `import()` written in the inline script itself would
   * not be: it counts as parser-inserted.)
   */
  loaderScript: string;
  /** 'sha256-…' of the inline script, for script-src. */
  loaderHash: string;
}

/**
 * Before the entry, it marks `<html>` with the announcement bars this browser dismissed (kept in
 * localStorage, never a cookie), so a dismissed bar is hidden before the first paint
 * (modules/site-popups/render.ts).
 */
export const loaderScriptFor = (entryUrl: string) =>
  `try{ document.documentElement.setAttribute("data-dismissed-bar",localStorage.getItem("atelier:dismissed-bars")||"")}catch(e){ }document.head.append(Object.assign(document.createElement("script"),{type:"module",src:"${entryUrl}"}))`;

export function storefrontAssets(dist = STOREFRONT_DIST): StorefrontAssets {
  let entryUrl = "/assets/storefront/storefront.js";
  const manifest = path.join(dist, ".vite", "manifest.json");
  if (existsSync(manifest)) {
    const entries = JSON.parse(readFileSync(manifest, "utf8")) as Record<string, { file: string }>;
    const file = entries[ENTRY_SOURCE]?.file;
    if (file) entryUrl = `/assets/storefront/${file}`;
  }
  const loaderScript = loaderScriptFor(entryUrl);
  const loaderHash = `'sha256-${createHash("sha256").update(loaderScript).digest("base64")}'`;
  return { entryUrl, loaderScript, loaderHash };
}
