/**
 * What each member of a site may do (the table itself is in packages/owner-api/src/permissions.ts). A permission is `<area>.read` or `<area>.write`; a role
 * is a set of permissions; the Owner holds them all. Owner routes declare the one they
 * need in their options, `config: { permission: "orders.write" }`, and `requireSite` checks it.
 */

import { ALL_PERMISSIONS, AREAS, type Permission, ROLES, isRole } from "@atelier/owner-api";

export {
  ALL_PERMISSIONS,
  AREAS,
  type Area,
  isRole,
  type Permission,
  ROLES,
  ROLE_IDS,
  type Role,
} from "@atelier/owner-api";

/** What a route declares that every member of the site may call (the site itself, one's own rights). */
export const ANY_MEMBER = "any_member";
export type RoutePermission = Permission | typeof ANY_MEMBER;

export function isPermission(name: string): name is Permission {
  const [area, kind] = name.split(".");
  return Object.hasOwn(AREAS, area ?? "") && (kind === "read" || kind === "write");
}

/** The permissions of a member: all for the Owner, else the union of the roles'. */
export function permissionsOf(member: { owner: boolean; roles: readonly string[] }): Permission[] {
  if (member.owner) return [...ALL_PERMISSIONS];
  const held = new Set<Permission>();
  for (const role of member.roles) if (isRole(role)) for (const p of ROLES[role].permissions) held.add(p);
  return ALL_PERMISSIONS.filter((p) => held.has(p));
}

/** Whether a member may do what a route declares. */
export function allows(
  member: { owner: boolean; roles: readonly string[] },
  permission: Permission,
): boolean {
  return permissionsOf(member).includes(permission);
}

/** Whether roles would give a permission the member does not hold (no one grants more than they have). */
export function grantsBeyond(
  member: { owner: boolean; roles: readonly string[] },
  roles: readonly string[],
): boolean {
  const held = permissionsOf(member);
  return permissionsOf({ owner: false, roles }).some((p) => !held.includes(p));
}
