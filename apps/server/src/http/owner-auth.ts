import type { FastifyRequest } from "fastify";
import { type OwnerAccount, accountForSession } from "../modules/accounts/service.js";
import { unauthorized } from "./errors.js";

export const OWNER_SESSION_COOKIE = "atelier_owner";

declare module "fastify" {
  interface FastifyRequest {
    owner?: OwnerAccount;
  }
}

/** preHandler: the request must carry a live owner session. */
export async function requireOwner(request: FastifyRequest): Promise<void> {
  const token = request.cookies[OWNER_SESSION_COOKIE];
  const owner = token
    ? await accountForSession(request.server.deps.db, request.server.deps.clock, token)
    : undefined;
  if (!owner) throw unauthorized("Please log in to continue.");
  request.owner = owner;
}
