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
import { forbidden, notFound } from "../../http/errors.js";
import { Id } from "../../http/schemas.js";
import { isId } from "../../lib/ids.js";
import { OWNER_SESSION_COOKIE, requireOwner } from "../../http/owner-auth.js";
import { accountForSession } from "../accounts/service.js";
import type { Website } from "../sites/service.js";
import {
  ANY_MEMBER,
  type Permission,
  type RoutePermission,
  allows,
  isPermission,
  permissionsOf,
} from "../members/permissions.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The website of an owner call, checked against the owner's memberships. */
    site?: Website;
    /** What the signed-in person is on that website: the Owner or a member with roles. */
    member?: Member;
  }
  interface FastifyContextConfig {
    /** The permission an owner route on a site needs (see modules/members/permissions.ts). */
    permission?: RoutePermission;
  }
}

export interface Member {
  owner: boolean;
  roles: string[];
}

export const SiteParams = Type.Object({ siteId: Id });

export const NO_SUCH_SITE = "No such site.";

/** The website and the membership if the account is a member of it (another's site is simply not found). */
export async function membershipOf(
  db: Db,
  accountId: string,
  siteId: string,
): Promise<{ website: Website; member: Member }> {
  const [row] = await db
    .select({ website: websites, owner: memberships.owner, roles: memberships.roles })
    .from(memberships)
    .innerJoin(websites, eq(websites.id, memberships.websiteId))
    .where(and(eq(memberships.accountId, accountId), eq(memberships.websiteId, siteId)));
  if (!row) throw notFound(NO_SUCH_SITE);
  return { website: row.website, member: { owner: row.owner, roles: row.roles } };
}

/** The website if the account is a member of it (another owner's site is simply not found). */
export async function websiteOfOwner(db: Db, accountId: string, siteId: string): Promise<Website> {
  return (await membershipOf(db, accountId, siteId)).website;
}

export const ROLE_REFUSED = "Your role does not allow this.";

/** Refuses a member whose roles lack the permission the route declares. */
export function requirePermission(member: Member, permission: string | undefined): void {
  if (permission === ANY_MEMBER) return;
  if (!permission || !isPermission(permission) || !allows(member, permission)) throw forbidden(ROLE_REFUSED);
}

/**
 * preHandler: the owner's session must be live, `:siteId` one of the person's sites, and their
 * roles must give the permission the route declares in `config.permission` (a route that declares
 * none is open to the Owner only).
 */
export async function requireSite(request: FastifyRequest): Promise<void> {
  await requireOwner(request);
  const siteId = (request.params as { siteId?: string } | undefined)?.siteId ?? "";
  if (!isId(siteId)) throw notFound(NO_SUCH_SITE);
  const { website, member } = await membershipOf(request.server.deps.db, request.owner!.id, siteId);
  request.site = website;
  request.member = member;
  if (!member.owner) requirePermission(member, request.routeOptions.config.permission);
}

/**
 * preValidation hook of every route: on an owner API route that declares a permission, a signed-in
 * member of the named site (`:siteId`, `:websiteId` or `?siteId=`) whose roles lack it gets the 403
 * before the input is validated. Everyone else goes on to the route's own checks (401, 404…).
 */
export async function permissionGate(request: FastifyRequest): Promise<void> {
  const permission = request.routeOptions.config?.permission;
  // The editing frame answers its refusal as a page (dashboard/frame.ts).
  if (!permission || request.url.startsWith("/config/")) return;
  const token = request.cookies?.[OWNER_SESSION_COOKIE];
  const { siteId, websiteId } = (request.params ?? {}) as { siteId?: string; websiteId?: string };
  const site = siteId ?? websiteId ?? (request.query as { siteId?: unknown } | undefined)?.siteId;
  if (!token || typeof site !== "string" || !isId(site)) return;
  const { db, clock } = request.server.deps;
  const account = await accountForSession(db, clock, token);
  if (!account) return;
  const [row] = await db
    .select({ owner: memberships.owner, roles: memberships.roles })
    .from(memberships)
    .where(and(eq(memberships.accountId, account.id), eq(memberships.websiteId, site)));
  if (row && !row.owner) requirePermission(row, permission);
}

/** The permissions of the signed-in person on the site of this call. */
export function memberPermissions(request: FastifyRequest): Permission[] {
  return request.member ? permissionsOf(request.member) : [];
}

/** preHandlers of an owner call that reads a site. */
export const ownerRead = [requireSite];
/** preHandlers of an owner call that changes a site: the crumb first, then the owner and the site. */
export const ownerWrite = [requireCrumb, requireSite];

export function siteOf(request: FastifyRequest): Website {
  if (!request.site) throw notFound(NO_SUCH_SITE);
  return request.site;
}
