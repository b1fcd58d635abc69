import type { FastifyReply } from "fastify";

interface SessionCookieOptions {
  /** Seconds; omitted for a browser-session cookie. */
  maxAge?: number;
}

/** Session cookies are HttpOnly and SameSite=Lax, Secure when served over HTTPS. */
export function setSessionCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  secure: boolean,
  opts: SessionCookieOptions = {},
): void {
  reply.setCookie(name, value, { path: "/", httpOnly: true, sameSite: "lax", secure, maxAge: opts.maxAge });
}

export function clearCookie(reply: FastifyReply, name: string): void {
  reply.clearCookie(name, { path: "/" });
}
