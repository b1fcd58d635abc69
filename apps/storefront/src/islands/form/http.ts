/**
 * Calls of the form and account islands that need the raw answer (status and body), with the
 * crumb sent back as `X-CSRF-Token` and, after sign-in, the site user's `X-XSRF-Token`.
 */
import type { HttpAnswer } from "@atelier/forms";
import { CRUMB_COOKIE, readCookie } from "../../lib/cookies.js";

export interface SendOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  xsrfToken?: string | null;
}

/** Sends a request; status 0 when no answer came (network failure). */
export async function send(path: string, opts: SendOptions = {}): Promise<HttpAnswer> {
  const method = opts.method ?? "GET";
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") {
    const crumb = readCookie(CRUMB_COOKIE);
    if (crumb) headers["x-csrf-token"] = crumb;
  }
  if (opts.xsrfToken) headers["x-xsrf-token"] = opts.xsrfToken;
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      credentials: "same-origin",
    });
  } catch {
    return { status: 0, body: undefined };
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}
