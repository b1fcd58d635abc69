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
import { setActor } from "../history/context.js";
import { OWNER_SESSION_COOKIE, requireOwner } from "../../http/owner-auth.js";
import { accountForSession } from "../accounts/service.js";
import { type ApiCaller, MSG_PERSON_ONLY, authenticate, requireKeyPermission } from "../api-keys/service.js";
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
    /** The API key an owner call came with (`Authorization: Bearer …`), checked against the site. */
    apiKey?: ApiCaller;
  }
  interface FastifyContextConfig {
    /** The permission an owner route on a site needs (see modules/members/permissions.ts). */
    permission?: RoutePermission;
    /** A call that only a person signed in to the dashboard makes (their own drafts): never a key. */
    personOnly?: boolean;
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
  // An API key was checked against the site and the route's permission before validation.
  if (request.apiKey && request.site) return;
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
  const site = siteOfCall(request);
  if (request.url.startsWith("/api/owner/") && BEARER.test(request.headers.authorization ?? ""))
    return keyGate(request, permission, site);
  const token = request.cookies?.[OWNER_SESSION_COOKIE];
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

const BEARER = /^Bearer\s/i;

/** The site an owner call names: `:siteId`, `:websiteId` or `?siteId=`. */
function siteOfCall(request: FastifyRequest): unknown {
  const { siteId, websiteId } = (request.params ?? {}) as { siteId?: string; websiteId?: string };
  return siteId ?? websiteId ?? (request.query as { siteId?: unknown } | undefined)?.siteId;
}

/**
 * An owner call made with an API key and no cookie or crumb: the key must be live (else 401),
 * of the site the call names (a key of another site gets the 404 of a non-member), and its scopes
 * must give the route's permission (else 403 forbidden). The key alone answers for the call: a
 * session cookie sent beside it counts for nothing.
 */
async function keyGate(request: FastifyRequest, permission: RoutePermission, site: unknown): Promise<void> {
  const { db, clock } = request.server.deps;
  const caller = await authenticate(db, request.headers.authorization, clock.now());
  if (typeof site !== "string" || site !== caller.websiteId) throw notFound(NO_SUCH_SITE);
  if (request.routeOptions.config.personOnly) throw forbidden(MSG_PERSON_ONLY);
  requireKeyPermission(caller, permission);
  const [website] = await db.select().from(websites).where(eq(websites.id, site));
  if (!website) throw notFound(NO_SUCH_SITE);
  request.apiKey = caller;
  request.site = website;
  setActor({ type: "api_key", id: caller.keyId });
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
