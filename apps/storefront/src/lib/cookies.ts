/** Cookies the storefront reads (never the HttpOnly session or cart tokens). */

/** The value of a cookie in a `document.cookie` string, or undefined. */
export function readCookie(
  name: string,
  cookieString: string = globalThis.document?.cookie ?? "",
): string | undefined {
  for (const part of cookieString.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** The CSRF crumb the server set on page views; sent back on every state-changing call. */
export const CRUMB_COOKIE = "crumb";
/** Set (readable) next to the HttpOnly cart cookie when the visitor has a cart. */
export const CART_PRESENT_COOKIE = "atelier_has_cart";
/** Readable marker of a signed-in site user (set next to the HttpOnly session by the sign-in call). */
export const SIGNED_IN_COOKIE = "atelier_signed_in";
