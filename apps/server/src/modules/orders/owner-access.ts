/**
 * Owner calls on orders and subscriptions name the site in the path (`:siteId`); the signed-in
 * owner must be a member of it. Another owner's site answers 404, like one that does not exist.
 */
import type { FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { notFound } from "../../http/errors.js";
import { requireOwner } from "../../http/owner-auth.js";
import { websitesOf } from "../accounts/service.js";
import type { Website } from "../sites/service.js";
import { websites } from "../../db/schema.js";
import { eq } from "drizzle-orm";

export const NO_SUCH_SITE = "No such site.";

const sites = new WeakMap<FastifyRequest, Website>();

async function requireSiteOwner(request: FastifyRequest): Promise<void> {
  await requireOwner(request);
  const siteId = (request.params as { siteId?: string } | undefined)?.siteId ?? "";
  if (!/^[a-f0-9]{24}$/.test(siteId)) throw notFound(NO_SUCH_SITE);
  const db = request.server.deps.db;
  const mine = await websitesOf(db, request.owner!.id);
  if (!mine.some((s) => s.id === siteId)) throw notFound(NO_SUCH_SITE);
  const [site] = await db.select().from(websites).where(eq(websites.id, siteId));
  if (!site) throw notFound(NO_SUCH_SITE);
  sites.set(request, site);
}

export const ownerReads = [requireSiteOwner];
export const ownerWrites = [requireCrumb, requireSiteOwner];

export function ownerSite(request: FastifyRequest): Website {
  const site = sites.get(request);
  if (!site) throw notFound(NO_SUCH_SITE);
  return site;
}
