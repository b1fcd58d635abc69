/**
 * The site user's session in the browser: the xsrfToken answered at sign-in is kept for later
 * requests (SPEC §7) and sent as `X-XSRF-Token`; the session cookie itself is HttpOnly.
 */
import type { HttpAnswer } from "@atelier/forms";
import { readCookie, SIGNED_IN_COOKIE } from "../../lib/cookies.js";
import { type SendOptions, send } from "../form/http.js";

const XSRF_KEY = "atelier.siteUser.xsrfToken";

export function xsrfToken(): string | null {
  try {
    return localStorage.getItem(XSRF_KEY);
  } catch {
    return null;
  }
}

export function keepXsrfToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(XSRF_KEY, token);
    else localStorage.removeItem(XSRF_KEY);
  } catch {
    // Private mode: the session still works until the page is reloaded.
  }
}

export function signedIn(): boolean {
  return readCookie(SIGNED_IN_COOKIE) === "1" && xsrfToken() !== null;
}

/** A call as the signed-in user. */
export function userCall(path: string, opts: SendOptions = {}): Promise<HttpAnswer> {
  return send(path, { ...opts, xsrfToken: xsrfToken() });
}

/** Signs out, retrying once when the answer is a crumb failure (SPEC §7). */
export async function signOut(cloneCart = false): Promise<HttpAnswer> {
  const path = `/api/site-users/account/session?cloneCart=${cloneCart}`;
  let answer = await send(path, { method: "DELETE" });
  if ((answer.body as { crumbFail?: boolean } | undefined)?.crumbFail)
    answer = await send(path, { method: "DELETE" });
  if (answer.status === 200) keepXsrfToken(null);
  return answer;
}

/** The message and field errors of a failed answer. */
export function failure(answer: HttpAnswer): { message: string; fields: Record<string, string> } {
  const body = answer.body as { error?: { message?: string; fields?: Record<string, string> } } | undefined;
  if (answer.status === 0)
    return { message: "We could not reach the site. Check your connection and try again.", fields: {} };
  return {
    message: body?.error?.message || "Something went wrong. Please try again.",
    fields: body?.error?.fields ?? {},
  };
}

/** Where to go after signing in: a path on this site from `?redirect=`, else the account. */
export function afterSignIn(search: string = window.location.search): string {
  const target = new URLSearchParams(search).get("redirect") ?? "";
  return target.startsWith("/") && !target.startsWith("//") && !target.includes("\\") ? target : "/account";
}
