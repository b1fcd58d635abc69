/**
 * The permission table of a site's team, shared by the server that enforces it
 * (apps/server/src/modules/members/permissions.ts) and the dashboard that shows each member only
 * what their roles allow. A permission is `<area>.read` or `<area>.write`; a role is a set of them.
 */

/** The areas of a site, each with what it covers. */
export const AREAS = {
  content: "Pages, navigation, collections and their items, media, comments",
  design: "Design, custom CSS, templates",
  forms: "Forms and their submissions, the mailing list",
  marketing: "Email campaigns, segments of the mailing list, importing subscribers",
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

const ALL_AREAS = Object.keys(AREAS) as Area[];

/** Reading and writing the given areas. */
function readWrite(...areas: Area[]): Permission[] {
  return areas.flatMap((a) => [`${a}.read`, `${a}.write`] as Permission[]);
}

/** The roles a member may hold: the name the dashboard shows, what it allows in words, its permissions. */
export const ROLES = {
  administrator: {
    name: "Administrator",
    allows: "Everything except billing and transferring ownership.",
    permissions: readWrite(...ALL_AREAS.filter((a) => a !== "billing")),
  },
  website_editor: {
    name: "Website editor",
    allows:
      "Pages, navigation, blog, events and gallery items, media, design, custom CSS, templates, forms and their submissions, URL mappings and SEO.",
    permissions: readWrite("content", "design", "forms", "seo"),
  },
  store_manager: {
    name: "Store manager",
    allows:
      "Products, inventory, orders (fulfil, refund, cancel), coupons and discounts, shipping, tax, restock requests, product feeds and store settings.",
    permissions: readWrite("products", "inventory", "orders", "store"),
  },
  analytics_viewer: {
    name: "Analytics viewer",
    allows: "Traffic and sales figures, read only.",
    permissions: ["analytics.read"] as Permission[],
  },
  billing_manager: {
    name: "Billing manager",
    allows: "The site's plan, payment method and invoices.",
    permissions: readWrite("billing"),
  },
} as const satisfies Record<string, { name: string; allows: string; permissions: Permission[] }>;

export type Role = keyof typeof ROLES;
export const ROLE_IDS = Object.keys(ROLES) as Role[];

export function isRole(name: string): name is Role {
  return Object.hasOwn(ROLES, name);
}

/** Every permission there is: what the Owner holds. */
export const ALL_PERMISSIONS: Permission[] = readWrite(...ALL_AREAS);

/** The name the dashboard shows for a role id (the id itself for a role it does not know). */
export function roleName(role: string): string {
  return isRole(role) ? ROLES[role].name : role;
}
