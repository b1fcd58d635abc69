import type { FastifyReply, FastifyRequest } from "fastify";
import { newToken } from "../lib/ids.js";
import { ApiError } from "./errors.js";

/** The CSRF token cookie. Readable by scripts: the page sends it back as query `crumb` or `X-CSRF-Token`. */
export const CRUMB_COOKIE = "crumb";

export const CRUMB_EXPIRED = "Your session has expired. Please reload the page and try again.";
export const CRUMB_NO_COOKIES = "Please enable cookies in your browser, reload the page, and try again.";

/** Whether a crumb cookie's value is one we would have set (else a fresh one replaces it). */
export function isSaneCrumb(value: string | undefined): value is string {
  return value !== undefined && /^[\w-]{16,64}$/.test(value);
}

/** Sets the crumb cookie when the visitor has none; returns the crumb in force. */
export function ensureCrumb(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CRUMB_COOKIE];
  if (isSaneCrumb(existing)) return existing;
  const crumb = newToken(18);
  reply.setCookie(CRUMB_COOKIE, crumb, { path: "/", sameSite: "lax", httpOnly: false });
  // Later code in the same request (a rendered page) sees the crumb it will carry.
  request.cookies[CRUMB_COOKIE] = crumb;
  return crumb;
}

/** preHandler for state-changing calls: the crumb sent back must equal the crumb cookie. */
export async function requireCrumb(request: FastifyRequest): Promise<void> {
  // An owner call authenticated by its API key (owner-sites/access.ts): no cookie, so no crumb.
  if (request.apiKey) return;
  const cookie = request.cookies[CRUMB_COOKIE];
  const query = (request.query as Record<string, unknown> | undefined)?.crumb;
  const sent = (typeof query === "string" ? query : undefined) ?? request.headers["x-csrf-token"];
  if (cookie && typeof sent === "string" && sent === cookie) return;
  throw new ApiError(403, "crumb_fail", cookie ? CRUMB_EXPIRED : CRUMB_NO_COOKIES, undefined, {
    crumbFail: true,
  });
}
