import type { FastifyRequest } from "fastify";
import { type OwnerAccount, sessionForToken } from "../modules/accounts/service.js";
import { touchSession } from "../modules/accounts/sessions.js";
import { setActor } from "../modules/history/context.js";
import { unauthorized } from "./errors.js";

export const OWNER_SESSION_COOKIE = "atelier_owner";

declare module "fastify" {
  interface FastifyRequest {
    owner?: OwnerAccount;
    /** The id of the owner's session the request came with (the account's Sessions list marks it). */
    ownerSessionId?: string;
  }
}

/** preHandler: the request must carry a live owner session (its last-seen time is kept, once a minute). */
export async function requireOwner(request: FastifyRequest): Promise<void> {
  // An owner call on a site made with its API key, already checked (owner-sites/access.ts keyGate).
  if (request.apiKey) return;
  const { db, clock } = request.server.deps;
  const token = request.cookies[OWNER_SESSION_COOKIE];
  const found = token ? await sessionForToken(db, clock, token) : undefined;
  if (!found) throw unauthorized("Please log in to continue.");
  request.owner = found.account;
  setActor({ type: "account", id: found.account.id });
  request.ownerSessionId = found.session.id;
  await touchSession(db, clock, found.session);
}
