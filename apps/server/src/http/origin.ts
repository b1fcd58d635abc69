/** The scheme and host a request was made to, without the scheme's default port. */
import type { FastifyRequest } from "fastify";

export function requestOrigin(request: FastifyRequest): string {
  const host = String(request.headers.host ?? "localhost");
  const bare = request.protocol === "https" ? host.replace(/:443$/, "") : host.replace(/:80$/, "");
  return `${request.protocol}://${bare}`;
}
