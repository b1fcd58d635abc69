import type { FastifyInstance } from "fastify";
import { ApiError } from "./errors.js";

/**
 * Many HTTP clients send `Content-Type: application/json` (or another type) on every call,
 * bodiless ones included. An empty body is no body whatever its content type; a body that is
 * present is still parsed strictly (malformed JSON keeps its clear 400, unknown types their 415).
 */
export function installBodyParsers(app: FastifyInstance): void {
  const strictJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if ((body as string).trim() === "") return done(null, undefined);
    return strictJson(request, body as string, done);
  });
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(new ApiError(415, "unsupported_media_type", "Unsupported content type."), undefined);
  });
}
