/**
 * What each member of a site may do. A permission is `<area>.read` or `<area>.write`; a role
 * is a set of permissions; the Owner holds them all. Owner routes declare the one they
 * need in their options, `config: { permission: "orders.write" }`, and `requireSite` checks it.
 */

/** The areas of a site, each with what it covers. */
export const AREAS = {
  content: "Pages, navigation, collections and their items, media, comments",
  design: "Design, custom CSS, templates",
  forms: "Forms and their submissions, the mailing list",
  seo: "SEO, URL mappings, redirects",
  settings: "Site settings, domains, export and import of the site",
  products: "Products",
  inventory: "Inventory",
  orders: "Orders, fulfilment, refunds, shoppers' subscriptions, restock requests",
  store: "Store settings, shipping, tax, coupons, discounts, product feeds",
  site_users: "Site users (the shoppers' and readers' accounts)",
  analytics: "Traffic and sales figures",
  billing: "The site's plan, payment method and invoices",
  members: "Members of the site, their roles and invitations",
  activity: "The activity log",
  api_keys: "API keys",
  webhooks: "Webhooks",
} as const;

export type Area = keyof typeof AREAS;
export type Permission = `${Area}.read` | `${Area}.write`;

/** What a route declares that every member of the site may call (the site itself, one's own rights). */
export const ANY_MEMBER = "any_member";
export type RoutePermission = Permission | typeof ANY_MEMBER;

const ALL_AREAS = Object.keys(AREAS) as Area[];

/** Reading and writing the given areas. */
function readWrite(...areas: Area[]): Permission[] {
  return areas.flatMap((a) => [`${a}.read`, `${a}.write`] as Permission[]);
}

/** The roles a member may hold, each with its name in the dashboard and its permissions. */
export const ROLES = {
  administrator: {
    name: "Administrator",
    permissions: readWrite(...ALL_AREAS.filter((a) => a !== "billing")),
  },
  website_editor: {
    name: "Website editor",
    permissions: readWrite("content", "design", "forms", "seo"),
  },
  store_manager: {
    name: "Store manager",
    permissions: readWrite("products", "inventory", "orders", "store"),
  },
  analytics_viewer: { name: "Analytics viewer", permissions: ["analytics.read"] as Permission[] },
  billing_manager: { name: "Billing manager", permissions: readWrite("billing") },
} as const satisfies Record<string, { name: string; permissions: Permission[] }>;

export type Role = keyof typeof ROLES;
export const ROLE_IDS = Object.keys(ROLES) as Role[];

export function isRole(name: string): name is Role {
  return Object.hasOwn(ROLES, name);
}

export function isPermission(name: string): name is Permission {
  const [area, kind] = name.split(".");
  return Object.hasOwn(AREAS, area ?? "") && (kind === "read" || kind === "write");
}

/** Every permission there is: what the Owner holds. */
export const ALL_PERMISSIONS: Permission[] = readWrite(...ALL_AREAS);

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
