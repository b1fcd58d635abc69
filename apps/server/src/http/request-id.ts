import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The request id: the caller's when it sends a sane one (a load balancer's), else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers["x-request-id"];
  return typeof given === "string" && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
}
