/**
 * Content-Security-Policy of the HTML we serve.
 *
 * - The dashboard (`/config`) runs only its own bundled scripts: no inline script at all.
 * - Published pages run one inline script, allowed by its SHA-256 hash (the same for every page of
 *   a build, so cached pages keep their exact bytes: render/storefront-assets.ts); what it loads on
 *   purpose (the storefront entry, island chunks, the captcha provider, the ad pixel) is trusted
 *   through 'strict-dynamic'. Island props and structured data are JSON in
 *   non-executable script elements, which no policy blocks. Owner code and embed blocks never
 *   carry script (the sanitiser removes it), so nothing else needs to run inline.
 * Styles stay 'unsafe-inline': themes and islands set style attributes, which cannot carry a nonce.
 */
import type { FastifyInstance } from "fastify";

const COMMON = [
  "default-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "font-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
];

export const DASHBOARD_CSP = [
  ...COMMON,
  "script-src 'self'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "connect-src 'self'",
  // The editing frame is ours; video and map previews come from their providers.
  "frame-src 'self' https:",
].join("; ");

/** The published pages' policy; `scriptHash` is the inline loader's `'sha256-…'`. */
export function pageCsp(scriptHash: string): string {
  return [
    ...COMMON,
    // 'self' and https: only for browsers without 'strict-dynamic' (they ignore the hash's reach).
    `script-src ${scriptHash} 'strict-dynamic' 'self' https:`,
    "img-src 'self' data: blob: https:",
    "media-src 'self' blob: https:",
    "connect-src 'self' https:",
    "frame-src 'self' https:",
  ].join("; ");
}

/**
 * Any other HTML we answer (simple error and notice pages) runs no script at all; routes that
 * set their own policy (the dashboard, published pages, the editing frame) keep it.
 */
export function installDefaultCsp(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply, payload) => {
    if (reply.hasHeader("content-security-policy")) return payload;
    if (String(reply.getHeader("content-type") ?? "").startsWith("text/html")) {
      reply.header("content-security-policy", DASHBOARD_CSP);
    }
    return payload;
  });
}
