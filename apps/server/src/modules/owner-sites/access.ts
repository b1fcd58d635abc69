/**
 * Tenant scoping for the owner API: the website comes from the path (`:siteId`) and must be one
 * the logged-in owner is a member of. Never from a request body.
 */
import { Type } from "@sinclair/typebox";
import { and, eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { memberships, websites } from "../../db/schema.js";
import { requireCrumb } from "../../http/crumb.js";
import { notFound } from "../../http/errors.js";
import { Id } from "../../http/schemas.js";
import { isId } from "../../lib/ids.js";
import { requireOwner } from "../../http/owner-auth.js";
import type { Website } from "../sites/service.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The website of an owner call, checked against the owner's memberships. */
    site?: Website;
  }
  interface FastifyContextConfig {
    /** The permission an owner route needs ("<area>.read" or "<area>.write"), declared beside its checks. */
    permission?: string;
  }
}

export const SiteParams = Type.Object({ siteId: Id });

export const NO_SUCH_SITE = "No such site.";

/** The website if the account is a member of it (another owner's site is simply not found). */
export async function websiteOfOwner(db: Db, accountId: string, siteId: string): Promise<Website> {
  const [row] = await db
    .select({ website: websites })
    .from(memberships)
    .innerJoin(websites, eq(websites.id, memberships.websiteId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.websiteId, siteId)));
  if (!row) throw notFound(NO_SUCH_SITE);
  return row.website;
}

/** preHandler: the owner's session must be live and `:siteId` one of the owner's sites. */
export async function requireSite(request: FastifyRequest): Promise<void> {
  await requireOwner(request);
  const siteId = (request.params as { siteId?: string } | undefined)?.siteId ?? "";
  if (!isId(siteId)) throw notFound(NO_SUCH_SITE);
  request.site = await websiteOfOwner(request.server.deps.db, request.owner!.id, siteId);
}

/** preHandlers of an owner call that reads a site. */
export const ownerRead = [requireSite];
/** preHandlers of an owner call that changes a site: the crumb first, then the owner and the site. */
export const ownerWrite = [requireCrumb, requireSite];

export function siteOf(request: FastifyRequest): Website {
  if (!request.site) throw notFound(NO_SUCH_SITE);
  return request.site;
}
