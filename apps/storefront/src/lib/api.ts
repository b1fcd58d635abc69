/**
 * The storefront's API client: JSON in and out, the crumb sent back as `X-CSRF-Token`, and every
 * failure turned into the text a visitor should read (SPEC §8): the crumb-failure texts, the 429
 * text, else the server's message.
 */
import { CRUMB_COOKIE, readCookie } from "./cookies.js";

export const MSG_CRUMB_EXPIRED = "Your session has expired. Please reload the page and try again.";
export const MSG_CRUMB_NO_COOKIES = "Please enable cookies in your browser, reload the page, and try again.";
export const MSG_RATE_LIMITED = "Please try again in a few seconds.";
export const MSG_NETWORK = "We could not reach the store. Check your connection and try again.";
export const MSG_UNKNOWN = "Something went wrong. Please try again.";

interface ErrorAnswer {
  error?: { code?: string; message?: string; fields?: Record<string, string> };
  crumbFail?: boolean;
}

/** A failed call, with the message to show. */
export class ApiCallError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fields: Record<string, string> = {},
    readonly crumbFail = false,
  ) {
    super(message);
    this.name = "ApiCallError";
  }
}

/**
 * The text a visitor reads for a failed answer: crumb failures by whether cookies work, 429 the
 * SPEC's text, otherwise the server's message (or a generic one).
 */
export function failureMessage(
  status: number,
  body: ErrorAnswer | undefined,
  cookiesEnabled: boolean,
): string {
  if (body?.crumbFail) return cookiesEnabled ? MSG_CRUMB_EXPIRED : MSG_CRUMB_NO_COOKIES;
  if (status === 429) return MSG_RATE_LIMITED;
  const message = body?.error?.message;
  return typeof message === "string" && message.trim() !== "" ? message : MSG_UNKNOWN;
}

interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  signal?: AbortSignal;
}

function cookiesEnabled(): boolean {
  return typeof navigator === "undefined" ? true : navigator.cookieEnabled !== false;
}

/**
 * The fetch options of a call to the site's API: JSON both ways, the site's cookies, the crumb
 * sent back as `X-CSRF-Token` on all but GET, then `extraHeaders`.
 */
export function apiRequest(
  method: string,
  body: unknown,
  extraHeaders: Record<string, string> = {},
  signal?: AbortSignal,
): RequestInit {
  const headers: Record<string, string> = { accept: "application/json" };
  if (method !== "GET") {
    const crumb = readCookie(CRUMB_COOKIE);
    if (crumb) headers["x-csrf-token"] = crumb;
  }
  Object.assign(headers, extraHeaders);
  if (body !== undefined) headers["content-type"] = "application/json";
  return {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
    signal,
  };
}

/** An answer's JSON; undefined when its body is not JSON (empty, or a proxy's HTML error page). */
export async function jsonOf(res: Response): Promise<unknown> {
  try {
    return await res.json();
  } catch {
    return undefined;
  }
}

/** Calls the site's API; resolves with the JSON answer or rejects with an ApiCallError. */
export async function apiCall<T>(path: string, opts: CallOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, apiRequest(opts.method ?? "GET", opts.body, {}, opts.signal));
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiCallError(MSG_NETWORK, 0, "network");
  }
  const body = await jsonOf(res);
  if (!res.ok) {
    const answer = body as ErrorAnswer | undefined;
    throw new ApiCallError(
      failureMessage(res.status, answer, cookiesEnabled()),
      res.status,
      answer?.error?.code ?? (res.status === 429 ? "rate_limited" : "error"),
      answer?.error?.fields ?? {},
      answer?.crumbFail === true,
    );
  }
  return body as T;
}
