/**
 * Strict-Transport-Security goes only on answers that went over HTTPS: a browser told so over
 * plain HTTP would pin a name that has no certificate. HTTPS is the socket's own TLS, or the
 * protocol a trusted proxy (TRUST_PROXY) forwarded, as Fastify's `request.protocol` reads it.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { ProxyTrust } from "./client-address.js";

export const HSTS = "max-age=31536000; includeSubDomains";

/** Whether a request came over HTTPS: Fastify's protocol when given, else worked out the same way. */
export function isHttps(req: IncomingMessage, protocol?: string, trust?: ProxyTrust | false): boolean {
  if (protocol !== undefined) return protocol === "https";
  if ((req.socket as TLSSocket).encrypted) return true;
  if (!trust || !trust(req.socket.remoteAddress ?? "", 0)) return false;
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "");
  return forwarded.split(",")[0]?.trim() === "https";
}
