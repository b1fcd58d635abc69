import type { Socket } from "node:net";
import type { ApiErrorBody } from "@atelier/owner-api";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type SchemaFailure, plainFailures } from "./validation-messages.js";

/** An error with a status and a message meant for the client (in the SPEC's words where it has them). */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    /** Extra top-level properties of the answer, e.g. `crumbFail: true`. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new ApiError(400, "bad_request", message, fields);
export const notFound = (message = "Not found.") => new ApiError(404, "not_found", message);
/** The 404 of the routes that serve files (media, fonts, stylesheets, icons, hashed assets). */
export const noSuchFile = () => notFound("No such file.");
export const unauthorized = (message = "Please log in.") => new ApiError(401, "unauthorized", message);
export const forbidden = (message = "You do not have access to this.") =>
  new ApiError(403, "forbidden", message);
export const conflict = (message: string) => new ApiError(409, "conflict", message);

/** Throws a 400 with every field error, its message the first one's; does nothing when there are none. */
export function throwFieldErrors(fields: Record<string, string>): void {
  const first = Object.values(fields)[0];
  if (first !== undefined) throw badRequest(first, fields);
}

export function errorBody(
  code: string,
  message: string,
  fields?: Record<string, string>,
): { error: ApiErrorBody } {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** A schema failure in plain words (validation-messages.ts): the first field's sentence and every field's. */
function validationAnswer(err: FastifyError): { message: string; fields: Record<string, string> } {
  const failures = plainFailures((err.validation ?? []) as SchemaFailure[], err.validationContext ?? "body");
  const fields = Object.fromEntries(failures.map((f) => [f.field, f.fieldMessage]));
  return { message: failures[0]?.message ?? "The request is not valid.", fields };
}

function clientMessage(err: FastifyError): { status: number; code: string; message: string } {
  if (err.validation) {
    return { status: 400, code: "invalid_request", message: validationAnswer(err).message };
  }
  switch (err.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, code: "invalid_json", message: "The request body is not valid JSON." };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 413, code: "body_too_large", message: "The request body is too large." };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, code: "unsupported_media_type", message: "Unsupported content type." };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { status: 400, code: "invalid_content_length", message: "Invalid Content-Length." };
  }
  if (err.statusCode === 429) {
    return { status: 429, code: "rate_limited", message: "Please try again in a few seconds." };
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return { status: err.statusCode, code: "bad_request", message: err.message };
  }
  return { status: 500, code: "internal", message: "Something went wrong on our side. Please try again." };
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ApiError) {
      const retryAfter = err.extra?.retryAfterSeconds;
      if (err.statusCode === 429 && typeof retryAfter === "number")
        reply.header("retry-after", String(retryAfter));
      return reply
        .status(err.statusCode)
        .send({ ...errorBody(err.code, err.message, err.fields), ...err.extra });
    }
    const { status, code, message } = clientMessage(err);
    if (status >= 500) request.log.error({ err }, "request failed");
    const fields = err.validation ? validationAnswer(err).fields : undefined;
    return reply.status(status).send(errorBody(code, message, fields));
  });
}

/**
 * Errors Fastify meets before routing (`frameworkErrors`): a URL that does not decode, a
 * parameter longer than the router allows. Answered in the one error shape.
 */
export function frameworkErrorHandler(
  err: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (err.code === "FST_ERR_BAD_URL") {
    reply.status(400).send(errorBody("bad_url", "The address is not a valid URL."));
  } else if (err.code === "FST_ERR_MAX_PARAM_LENGTH") {
    reply.status(414).send(errorBody("url_too_long", "The address is too long."));
  } else {
    reply.status(400).send(errorBody("bad_request", "The request could not be routed."));
  }
}

/**
 * Requests Node's HTTP parser refuses (headers too large, a request that never finishes, bytes
 * that are not HTTP): answered on the socket, in the one error shape, then the socket closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  let status: number;
  let reason: string;
  let body: ReturnType<typeof errorBody>;
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    [status, reason] = [408, "Request Timeout"];
    body = errorBody("request_timeout", "The request took too long to arrive.");
  } else if (err.code === "HPE_HEADER_OVERFLOW") {
    [status, reason] = [431, "Request Header Fields Too Large"];
    body = errorBody("headers_too_large", "The request's address or headers are too large.");
  } else {
    [status, reason] = [400, "Bad Request"];
    body = errorBody("bad_request", "The request is not valid HTTP.");
  }
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}
