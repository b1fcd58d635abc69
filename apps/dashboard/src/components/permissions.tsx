/**
 * What the signed-in person may do on the current site, from the permissions the sites list
 * answers for each site (packages/owner-api/src/permissions.ts): `useCan()` for menu entries and
 * buttons, `<Can>` around what a permission gates, and the screens of the dashboard with the
 * permission each one needs, which the Shell checks before showing one reached by its URL.
 */
import type { Permission } from "@atelier/owner-api";
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import type { Site } from "../api.js";
import { useSites } from "./Shell.js";
import { Notice, useSiteId } from "./ui.js";

/** The words of a refusal, the same as the server's 403. */
export const NOT_ALLOWED = "Your role does not allow this.";

/** Whether the person may do `permission` on `site` (nothing while the site is not known). */
export function canOn(site: Pick<Site, "permissions"> | undefined, permission: Permission): boolean {
  return Boolean(site?.permissions.includes(permission));
}

/** `can(permission)` for the site of the current route; `known` once the sites list has answered. */
export function useCan(): { can: (permission: Permission) => boolean; known: boolean; site?: Site } {
  const siteId = useSiteId();
  const sites = useSites();
  const site = sites.data?.find((s) => s.id === siteId);
  return { can: (permission) => canOn(site, permission), known: Boolean(site), site };
}

/**
 * Shows `children` only when the person holds `permission` on the current site (else `otherwise`).
 * The write buttons of a screen (New, Save, Delete, Publish, Refund…) sit inside one, with the
 * permission of the call they make; what only shows stays outside.
 */
export function Can({
  permission,
  children,
  otherwise = null,
}: {
  permission: Permission;
  children: ReactNode;
  otherwise?: ReactNode;
}) {
  const { can } = useCan();
  return <>{can(permission) ? children : otherwise}</>;
}

/**
 * The permission that changes what the screen at the current route shows (the `.write` of the
 * `.read` it needs), for the buttons shared by many screens (the save bar, Delete): undefined
 * outside a site's screens.
 */
export function useScreenWrite(): Permission | undefined {
  const { pathname } = useLocation();
  const match = /^\/sites\/[^/]+\/?(.*)$/.exec(pathname);
  const read = match ? screenPermission(match[1] ?? "") : undefined;
  return read ? (read.replace(/\.read$/, ".write") as Permission) : undefined;
}

/** Whether the person may use a write button needing `permission` (the screen's own when not named). */
export function useMayWrite(permission?: Permission): boolean {
  const screen = useScreenWrite();
  const { can } = useCan();
  const needed = permission ?? screen;
  return needed ? can(needed) : true;
}

/** A screen the person's roles do not open: what it says in place of the screen. */
export function NotAllowed() {
  return (
    <div className="not-allowed">
      <h1>Not available</h1>
      <Notice kind="warn">{NOT_ALLOWED} Ask the site's owner or an administrator if you need it.</Notice>
    </div>
  );
}

/**
 * The screens of a site (paths under /sites/:siteId/) and the permission each needs, most specific
 * first. The Shell's menu and its guard of a screen reached by URL both read this one table.
 */
export const SCREEN_PERMISSIONS: [prefix: string, permission: Permission][] = [
  ["analytics", "analytics.read"],
  ["pages", "content.read"],
  ["collections", "content.read"],
  ["media", "content.read"],
  ["design", "design.read"],
  ["marketing/announcements", "design.read"],
  ["marketing/campaigns", "marketing.read"],
  ["products", "products.read"],
  ["inventory", "inventory.read"],
  ["ops/orders", "orders.read"],
  ["ops/restock", "orders.read"],
  ["ops/forms", "forms.read"],
  ["ops/site-users", "site_users.read"],
  ["ops/outbox", "settings.read"],
  ["store", "store.read"],
  ["marketing", "store.read"],
  ["forms", "forms.read"],
  ["settings/permissions", "members.read"],
  ["settings/activity", "activity.read"],
  ["settings/trash", "content.read"],
  ["settings/url-mappings", "seo.read"],
  ["settings/billing", "billing.read"],
  ["settings/developers/webhooks", "webhooks.read"],
  ["settings", "settings.read"],
  ["api-keys", "api_keys.read"],
];

/** The permission the screen at `path` (under /sites/:siteId/) needs; undefined for the overview. */
export function screenPermission(path: string): Permission | undefined {
  const clean = path.replace(/^\/+|\/+$/g, "");
  return SCREEN_PERMISSIONS.find(([prefix]) => clean === prefix || clean.startsWith(`${prefix}/`))?.[1];
}
