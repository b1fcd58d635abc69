/**
 * The editing cookies of SPEC §9 (preview, override, expanded frame, disable-user-scripts).
 * They only count for a logged-in owner of the website being rendered: anyone else who sets
 * them sees the published site as everybody does.
 *
 * - preview: layout pages render their autosaved draft instead of the published layout;
 * - override: the owner sees password-protected pages without their password;
 * - expanded frame: the page is inside the dashboard's editing frame (blocks carry
 *   `data-block-id`, the cart pill sets the frame URL instead of navigating);
 * - disable-user-scripts: safe mode, the site runs without code and embed blocks.
 */
import { and, eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { memberships } from "../../db/schema.js";
import { OWNER_SESSION_COOKIE } from "../../http/owner-auth.js";
import { accountForSession } from "../accounts/service.js";

const PREVIEW_COOKIE = "atelier_preview";
const OVERRIDE_COOKIE = "atelier_override";
export const EXPANDED_FRAME_COOKIE = "atelier_expanded_frame";
const DISABLE_USER_SCRIPTS_COOKIE = "atelier_disable_user_scripts";

export interface EditingMode {
  preview: boolean;
  override: boolean;
  expandedFrame: boolean;
  disableUserScripts: boolean;
}

export const NOT_EDITING: EditingMode = Object.freeze({
  preview: false,
  override: false,
  expandedFrame: false,
  disableUserScripts: false,
});

const on = (v: string | undefined) => v === "1" || v === "true";

/** Whether the request carries any editing cookie at all (cheap: no database round trip). */
export function hasEditingCookies(request: FastifyRequest): boolean {
  return editingCookiesIn(request.cookies);
}

/** Whether parsed cookies hold any of the editing cookies. */
export function editingCookiesIn(c: Record<string, string | undefined>): boolean {
  return Boolean(
    c[PREVIEW_COOKIE] || c[OVERRIDE_COOKIE] || c[EXPANDED_FRAME_COOKIE] || c[DISABLE_USER_SCRIPTS_COOKIE],
  );
}

/**
 * The editing mode of a page request for a website: the cookies it carries, honoured only when
 * the request also carries the session of an owner of that website.
 */
/** Whether the request carries the session of an owner who is a member of the website. */
export async function ownsWebsite(request: FastifyRequest, websiteId: string): Promise<boolean> {
  const token = request.cookies[OWNER_SESSION_COOKIE];
  if (!token) return false;
  const { db, clock } = request.server.deps;
  const owner = await accountForSession(db, clock, token);
  if (!owner) return false;
  const [member] = await db
    .select({ id: memberships.websiteId })
    .from(memberships)
    .where(and(eq(memberships.accountId, owner.id), eq(memberships.websiteId, websiteId)));
  return member !== undefined;
}

export async function editingModeOf(request: FastifyRequest, websiteId: string): Promise<EditingMode> {
  if (!hasEditingCookies(request) || !(await ownsWebsite(request, websiteId))) return NOT_EDITING;
  const c = request.cookies;
  return {
    preview: on(c[PREVIEW_COOKIE]),
    override: on(c[OVERRIDE_COOKIE]),
    expandedFrame: on(c[EXPANDED_FRAME_COOKIE]),
    disableUserScripts: on(c[DISABLE_USER_SCRIPTS_COOKIE]),
  };
}

/** Sets or clears the editing cookies (browser-session cookies, HttpOnly, SameSite=Lax). */
export function setEditingCookies(reply: FastifyReply, mode: Partial<EditingMode>, secure: boolean): void {
  const names: [keyof EditingMode, string][] = [
    ["preview", PREVIEW_COOKIE],
    ["override", OVERRIDE_COOKIE],
    ["expandedFrame", EXPANDED_FRAME_COOKIE],
    ["disableUserScripts", DISABLE_USER_SCRIPTS_COOKIE],
  ];
  for (const [key, name] of names) {
    const v = mode[key];
    if (v === undefined) continue;
    if (v) reply.setCookie(name, "1", { path: "/", httpOnly: true, sameSite: "lax", secure });
    else reply.clearCookie(name, { path: "/" });
  }
}

/** Whether any editing mode is on: such pages are never served from or stored in the page cache. */
export const isEditing = (m: EditingMode) =>
  m.preview || m.override || m.expandedFrame || m.disableUserScripts;
