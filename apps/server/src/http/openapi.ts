/**
 * The OpenAPI document at /api/openapi.json and its reference at /api/docs. Every operation gets
 * an operationId made from its method and path, the error answers it can give (the one error
 * shape of errors.ts), the authentication it needs, and a summary: the route's own, else the
 * first sentence of its description, else the one written below for routes that predate this
 * rule. The test openapi.test.ts fails on an operation without a summary, an operationId or
 * error answers.
 */
import type { SwaggerOptions } from "@fastify/swagger";
import { ErrorSchema } from "./schemas.js";

type Schema = Record<string, unknown> & {
  summary?: string;
  description?: string;
  response?: Record<string, unknown>;
  params?: unknown;
  body?: unknown;
  querystring?: unknown;
  security?: unknown;
  operationId?: string;
  hide?: boolean;
};

const SITE = "/api/owner/sites/:siteId";

/** What the plans and subscriptions of billing do, under /api/billing and under a site. */
const BILLING: Record<string, string> = {
  "GET /subscriptions": "The site's Atelier plan subscriptions",
  "GET /subscriptions/:id": "One plan subscription",
  "PUT /subscriptions/:id": "Changes a plan subscription (billing period)",
  "DELETE /subscriptions/:id": "Cancels a plan subscription at the end of its period",
  "PUT /subscriptions/:id/auto-renew/enable": "Turns automatic renewal on",
  "PUT /subscriptions/:id/auto-renew/disable": "Turns automatic renewal off",
  "POST /subscriptions/:id/plan-change/cancel": "Cancels a scheduled plan change",
  "GET /subscriptions/:id/plan-change/:planId/preview": "Previews a plan change: the invoice it would make",
  "PUT /subscriptions/:id/plan-change/:planId": "Starts a change to another plan",
  "POST /subscriptions/:id/plan-change/:planId/confirm": "Confirms a plan change and pays its invoice",
  "GET /plans": "The plans a site can subscribe to, with prices and features",
  "GET /invoices": "The site's invoices for its plan, newest first",
  "GET /payment-info": "The card that pays for the site's plan",
  "PUT /payment-info": "Starts saving a new card for the site's plan",
  "POST /payment-info/confirm": "Confirms the new card (after 3-D Secure when asked)",
};

/** Summaries of the routes written before every route had one. */
const SUMMARIES: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(BILLING).flatMap(([key, text]) => {
      const [method, path] = key.split(" ");
      return [
        [`${method} /api/billing${path}`, text],
        [`${method} ${SITE}/billing${path}`, text],
      ];
    }),
  ),
  "GET /healthz": "Health check: answers ok when the server and its database work",
  "POST /api/owner/account": "Creates an owner account and signs it in",
  "GET /api/owner/account": "The signed-in owner's account",
  "POST /api/owner/session": "Signs an owner in (sets the session cookie)",
  "DELETE /api/owner/session": "Signs the owner out",
  "POST /api/1/iap/startGracePeriod": "Starts the grace period of an in-app purchase that failed to renew",
  [`POST ${SITE}/billing/iap/start-grace-period`]:
    "Starts the grace period of an in-app purchase that failed to renew",
  [`POST ${SITE}/exports`]: "Starts a background export of the site",
  [`GET ${SITE}/exports/:exportId`]: "The state of a background export",
  [`GET ${SITE}/exports/:exportId/download`]: "Downloads a finished export",
  [`POST ${SITE}/imports/wordpress`]: "Imports posts and pages from a WordPress export file (WXR)",
  [`POST ${SITE}/imports/products-csv`]: "Imports products from a Shopify-style CSV file",
  [`GET ${SITE}/export/shopify-products.csv`]: "The site's products as a Shopify-style CSV file",
  "POST /api/owner/sites/import": "Makes a new site from a site archive (zip)",
  "GET /api/owner/themes": "The built-in themes a site can use",
  "GET /api/owner/sites": "The signed-in owner's sites",
  "POST /api/owner/sites": "Makes a new site with a title and a theme",
  [`GET ${SITE}`]: "One site of the owner",
  [`PATCH ${SITE}`]: "Changes a site's title, tagline, theme, time zone or status",
  [`GET ${SITE}/settings`]: "The site's settings (contact, social links, SEO defaults…)",
  [`PATCH ${SITE}/settings`]: "Changes the site's settings",
  [`GET ${SITE}/pages`]: "The site's pages and collections, in navigation order",
  [`POST ${SITE}/pages`]: "Adds a page or a collection",
  [`PUT ${SITE}/pages/order`]: "Reorders the navigation",
  [`PATCH ${SITE}/pages/:pageId`]: "Changes a page's title, URL, navigation or options",
  [`DELETE ${SITE}/pages/:pageId`]: "Deletes a page",
  [`GET ${SITE}/pages/:pageId/layout`]: "A page's blocks: the published layout and the draft",
  [`PUT ${SITE}/pages/:pageId/draft`]: "Saves a page's draft layout",
  [`DELETE ${SITE}/pages/:pageId/draft`]: "Discards a page's draft",
  [`POST ${SITE}/pages/:pageId/publish`]: "Publishes a page's draft",
  [`GET ${SITE}/block-types`]: "The block types the page editor offers, with their fields",
  [`POST ${SITE}/products`]: "Creates a product with its variants",
  [`GET ${SITE}/products/:productId`]: "One product with its variants, as the product editor shows it",
  [`PUT ${SITE}/products/:productId`]: "Saves a product and its variants",
  [`DELETE ${SITE}/products/:productId`]: "Deletes a product",
  [`GET ${SITE}/collections/:collectionId/items`]: "The items of a collection (blog posts, events…)",
  [`POST ${SITE}/collections/:collectionId/items`]: "Adds an item to a collection",
  [`PUT ${SITE}/collections/:collectionId/items/order`]: "Reorders a collection's items",
  [`GET ${SITE}/collections/:collectionId/items/:itemId`]: "One collection item",
  [`PUT ${SITE}/collections/:collectionId/items/:itemId`]: "Saves a collection item",
  [`DELETE ${SITE}/collections/:collectionId/items/:itemId`]: "Deletes a collection item",
  [`GET ${SITE}/store`]: "The store's settings (currency, checkout, stock messages…)",
  [`PATCH ${SITE}/store`]: "Changes the store's settings",
  [`GET ${SITE}/store/shipping-rules`]: "The store's shipping rules",
  [`POST ${SITE}/store/shipping-rules`]: "Adds a shipping rule",
  [`PUT ${SITE}/store/shipping-rules/:id`]: "Changes a shipping rule",
  [`DELETE ${SITE}/store/shipping-rules/:id`]: "Deletes a shipping rule",
  [`GET ${SITE}/store/tax-rules`]: "The store's tax rules",
  [`POST ${SITE}/store/tax-rules`]: "Adds a tax rule",
  [`PUT ${SITE}/store/tax-rules/:id`]: "Changes a tax rule",
  [`DELETE ${SITE}/store/tax-rules/:id`]: "Deletes a tax rule",
  [`GET ${SITE}/store/coupons`]: "The store's coupons",
  [`POST ${SITE}/store/coupons`]: "Adds a coupon",
  [`PUT ${SITE}/store/coupons/:id`]: "Changes a coupon",
  [`DELETE ${SITE}/store/coupons/:id`]: "Deletes a coupon",
  [`GET ${SITE}/design`]: "The site's design: theme, colours, fonts, spacing, logo and custom CSS",
  [`PATCH ${SITE}/design`]: "Changes the site's design",
  [`POST ${SITE}/design/preview`]: "The stylesheet a design change would give, without saving it",
  "GET /api/owner/websites/:websiteId/media": "The site's media library",
  "POST /api/owner/websites/:websiteId/media": "Uploads an image to the media library",
  "PATCH /api/owner/websites/:websiteId/media/:id": "Changes an image's title or focal point",
  "POST /api/content/items/:itemId/like": "Likes a blog post (once per visitor)",
  "DELETE /api/content/items/:itemId/like": "Takes a like back",
  "GET /api/content/items/:itemId/like": "A post's like count and whether this visitor liked it",
  "GET /api/search": "Searches the site's pages, posts and products",
  "POST /api/site/unlock": "Unlocks a password-protected site or page for this visitor",
};

/** `GET /api/owner/sites/:siteId/webhooks/:webhookId` → `getOwnerSitesSiteIdWebhooksWebhookId`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split(/[/.\-_:{}]+/)
    .filter((w) => w && w !== "api")
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join("");
}

type Auth = "owner" | "apiKey" | "ownerOrKey" | "site" | "none";

function authOf(url: string): Auth {
  if (url.startsWith("/api/1/commerce/")) return "apiKey";
  if (url.startsWith("/api/1/templates") || url.includes("/templates")) return "ownerOrKey";
  if (url.startsWith("/api/owner/") || url.startsWith("/api/billing/") || url.startsWith("/api/1/iap"))
    return "owner";
  if (url.startsWith("/api/")) return "site";
  return "none";
}

/** The security requirement of an operation: session cookie (+ crumb on writes), API key, or crumb. */
function securityOf(auth: Auth, method: string): Record<string, string[]>[] | undefined {
  const write = method !== "GET";
  const owner: Record<string, string[]> = write ? { ownerSession: [], crumb: [] } : { ownerSession: [] };
  if (auth === "owner") return [owner];
  if (auth === "apiKey") return [{ apiKey: [] }];
  if (auth === "ownerOrKey") return [owner, { apiKey: [] }];
  if (auth === "site" && write) return [{ crumb: [] }, {}];
  return undefined;
}

/** The error answers a route can give, from what it takes and who may call it. */
function errorStatuses(schema: Schema, auth: Auth): number[] {
  const statuses = new Set<number>();
  if (schema.body || schema.querystring || schema.params) statuses.add(400);
  if (auth === "owner" || auth === "apiKey" || auth === "ownerOrKey") {
    statuses.add(401);
    statuses.add(403);
  }
  if (schema.params || auth === "owner") statuses.add(404);
  if (auth === "site") statuses.add(403);
  statuses.add(429);
  return [...statuses];
}

const firstSentence = (text: string) => text.split(/(?<=\.)\s/)[0]!.replace(/\.$/, "");

export const OPENAPI_OPTIONS: SwaggerOptions = {
  openapi: {
    info: {
      title: "Atelier API",
      version: "0.1.0",
      description: [
        "The site API (what published pages call), the owner API (`/api/owner/…`, what the dashboard calls) and the commerce API (`/api/1/commerce/…`, for integrations with an API key).",
        "",
        'Every refusal answers `{"error":{"code","message","fields"?}}` with a 4xx status. Owner calls need the owner\'s session cookie, and calls that change something also the `X-CSRF-Token` header (the value of the `crumb` cookie). Commerce calls send `Authorization: Bearer <API key>`. Webhooks are described in docs/webhooks.md.',
      ].join("\n"),
    },
    components: {
      securitySchemes: {
        ownerSession: {
          type: "apiKey",
          in: "cookie",
          name: "atelier_owner",
          description: "The owner's session (POST /api/owner/session)",
        },
        crumb: {
          type: "apiKey",
          in: "header",
          name: "X-CSRF-Token",
          description: "The value of the `crumb` cookie, on calls that change something",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description: "An API key made in Settings → Developers → API keys",
        },
      },
    },
  },
  transform: ({ schema, url, route }) => {
    const s = { ...((schema ?? {}) as Schema) };
    if (s.hide) return { schema: s as never, url };
    const method = [route.method].flat()[0]!.toUpperCase();
    s.operationId ??= operationIdOf(method, url);
    s.summary ??= s.description ? firstSentence(s.description) : SUMMARIES[`${method} ${url}`];
    const auth = authOf(url);
    s.security ??= securityOf(auth, method);
    const response = { ...(s.response ?? {}) };
    if (!Object.keys(response).some((code) => code.startsWith("2")))
      response[method === "POST" ? "2XX" : "200"] = {
        description: "Success",
        type: "object",
        additionalProperties: true,
      };
    for (const status of errorStatuses(s, auth)) response[status] ??= ErrorSchema;
    s.response = response;
    return { schema: s as never, url };
  },
};
