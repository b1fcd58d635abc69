import type { FastifyRequest } from "fastify";
import { notFound } from "../../http/errors.js";
import { websitesOf } from "../accounts/service.js";

export const NO_SUCH_SITE = "No such site.";

/**
 * The website an owner route names in `:siteId`, when the signed-in owner is a member of it.
 * Another owner's website answers 404, exactly like one that does not exist.
 */
export async function ownedWebsiteId(request: FastifyRequest, websiteId: string): Promise<string> {
  const owner = request.owner;
  if (!owner || !/^[a-f0-9]{24}$/.test(websiteId)) throw notFound(NO_SUCH_SITE);
  const sites = await websitesOf(request.server.deps.db, owner.id);
  if (!sites.some((s) => s.id === websiteId)) throw notFound(NO_SUCH_SITE);
  return websiteId;
}
