/**
 * Who may see a page: password-protected pages (the lock screen, page type 103) and member
 * areas (protected content 105 for visitors who are not signed in, member-area access denied
 * 106 for site users who are not members).
 *
 * An unlocked page is remembered in a cookie holding a digest of the page's id and password
 * hash: nothing is stored on the server, and changing the password locks every visitor out.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/client.js";
import { siteUserSessions } from "../db/schema.js";
import type { Collection } from "../modules/content/service.js";
import { liveSessionWhere } from "../modules/site-users/service.js";

/** Cookie of a site user's session (visitor accounts, SPEC §7 /api/site-users/account/session). */
export const SITE_USER_COOKIE = "atelier_site_user";

export const unlockCookieName = (collectionId: string) => `unlock_${collectionId}`;

/** The cookie value that proves a visitor gave the page's password. */
export function unlockToken(c: Pick<Collection, "id" | "passwordHash">): string {
  return createHash("sha256")
    .update(`atelier-unlock:${c.id}:${c.passwordHash ?? ""}`)
    .digest("base64url");
}

export interface Visitor {
  /** The visitor gave this password-protected page's password. */
  isUnlocked(c: Collection): boolean;
  /** The signed-in site user, if any. */
  siteUserId?: string;
}

function isUnlockedBy(cookies: Record<string, string | undefined>, c: Collection): boolean {
  if (!c.passwordHash) return true;
  const sent = cookies[unlockCookieName(c.id)];
  if (!sent) return false;
  const want = Buffer.from(unlockToken(c));
  const got = Buffer.from(sent);
  return got.length === want.length && timingSafeEqual(got, want);
}

/** The site user signed in on this website, from the session cookie. */
async function siteUserOf(
  db: Db,
  websiteId: string,
  token: string | undefined,
  now: Date,
): Promise<string | undefined> {
  const live = liveSessionWhere(websiteId, token, now);
  if (!live) return undefined;
  const [row] = await db
    .select({ siteUserId: siteUserSessions.siteUserId })
    .from(siteUserSessions)
    .where(live);
  return row?.siteUserId;
}

/** The visitor of a request: unlocked pages from cookies; the site user looked up only when asked. */
export async function visitorOf(
  db: Db,
  request: FastifyRequest,
  websiteId: string,
  now: Date,
  needsSiteUser: boolean,
): Promise<Visitor> {
  const cookies = request.cookies as Record<string, string | undefined>;
  return {
    isUnlocked: (c) => isUnlockedBy(cookies, c),
    siteUserId: needsSiteUser ? await siteUserOf(db, websiteId, cookies[SITE_USER_COOKIE], now) : undefined,
  };
}

/** Member-area rule of a page: none, any signed-in site user, or the listed site users only. */
export function memberRule(c: Collection): { members: boolean; allowed?: string[] } {
  const o = c.options ?? {};
  if (!o.memberArea) return { members: false };
  const list = Array.isArray(o.memberAreaUsers) ? o.memberAreaUsers.map(String) : undefined;
  return { members: true, allowed: list };
}
