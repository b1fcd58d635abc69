/**
 * Calls of the form and account islands that need the raw answer (status and body), with the
 * crumb sent back as `X-CSRF-Token` and, after sign-in, the site user's `X-XSRF-Token`.
 */
import type { HttpAnswer } from "@atelier/forms";
import { apiRequest, jsonOf } from "../../lib/api.js";

export interface SendOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  body?: unknown;
  xsrfToken?: string | null;
}

/** Sends a request; status 0 when no answer came (network failure). */
export async function send(path: string, opts: SendOptions = {}): Promise<HttpAnswer> {
  const extra: Record<string, string> = opts.xsrfToken ? { "x-xsrf-token": opts.xsrfToken } : {};
  let res: Response;
  try {
    res = await fetch(path, apiRequest(opts.method ?? "GET", opts.body, extra));
  } catch {
    return { status: 0, body: undefined };
  }
  return { status: res.status, body: await jsonOf(res) };
}
