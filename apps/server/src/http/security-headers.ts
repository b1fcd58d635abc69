/**
 * The security headers of every answer, chosen by helmet. Our options give the same headers
 * to every answer (each kind of HTML sets its own Content-Security-Policy: http/csp.ts), so the
 * set is worked out once here for the fast paths (http/front-door.ts); Fastify's routes get the
 * same set from @fastify/helmet with the same options.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import helmet from "helmet";

export const HELMET_OPTIONS = {
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  // Sent only on HTTPS answers (http/hsts.ts).
  strictTransportSecurity: false,
} as const;

function collectHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return headers;
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(collectHeaders());
