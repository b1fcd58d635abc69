/**
 * Abandoned checkouts: the owner API (settings, the list, "Send reminder now") under
 * /api/owner/sites/:siteId/abandoned-checkouts, and the shopper's calls: the checkout saving its
 * email (PUT /api/commerce/checkout/contact), the recovery link (GET /cart/recover/:token) and
 * one-click unsubscribe (GET and POST /cart/unsubscribe/:token, RFC 8058: no cookie, no crumb).
 */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { badRequest } from "../../http/errors.js";
import { ErrorSchema, errorResponses } from "../../http/schemas.js";
import { pathParam, routeGroup, siteApiRoutes, siteParams } from "../../http/site-routes.js";
import { escapeHtml } from "../../lib/escape.js";
import { type RateLimit, siteLimiter, siteReadsOf } from "../cart/rate-limit.js";
import { CART_COOKIE, RATE_LIMITED_MESSAGE, keepCartCookie } from "../cart/routes.js";
import { MSG_EMAIL_INVALID } from "../checkout/checkout-types.js";
import { linkPage } from "../email/link-page.js";
import { siteOf } from "../owner-sites/access.js";
import { SITE_USER_COOKIE } from "../site-users/routes.js";
import { sessionOf } from "../site-users/service.js";
import { siteAtHost, siteBaseUrl } from "../sites/service.js";
import { checkRestoreToken, checkUnsubscribeToken } from "./email.js";
import {
  CHECKOUT_STATUSES,
  type CheckoutStatus,
  checkoutById,
  listAbandonedCheckouts,
  recheckSite,
  remindNow,
  restoreCheckoutCart,
  saveContact,
  unsubscribeCheckout,
} from "./service.js";
import {
  BODY_MAX,
  MAX_MINUTES,
  MAX_REMINDERS,
  SUBJECT_MAX,
  checkSettings,
  recoverySettingsOf,
  storeSettings,
} from "./settings.js";

const BASE = "/abandoned-checkouts";
const TAGS = ["owner: abandoned checkouts"];

const ReminderSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    delayMinutes: Type.Integer({
      minimum: 0,
      maximum: MAX_MINUTES,
      description: "minutes after abandonment",
    }),
    subject: Type.String({ maxLength: SUBJECT_MAX }),
    body: Type.String({
      maxLength: BODY_MAX,
      description: "The email's text; {first_name}, {store_name} and {cart} are filled in.",
    }),
    discount: Type.Union([
      Type.Object(
        {
          kind: Type.Union([Type.Literal("percentage"), Type.Literal("amount")]),
          value: Type.Integer({
            minimum: 1,
            description: "a percentage (1–100) or an amount in minor units",
          }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);
const SettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    abandonedAfterMinutes: Type.Integer({ minimum: 1, maximum: MAX_MINUTES }),
    reminders: Type.Array(ReminderSchema, { maxItems: MAX_REMINDERS }),
  },
  { additionalProperties: false },
);
const Status = Type.Union(CHECKOUT_STATUSES.map((s) => Type.Literal(s)));
const CheckoutSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  items: Type.Array(
    Type.Object({
      title: Type.String(),
      options: Type.String(),
      quantity: Type.Integer(),
      unitPriceCents: Type.Integer(),
      imageUrl: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  subtotal: Type.Integer({ description: "minor units" }),
  currency: Type.String(),
  abandonedAt: Type.Union([Type.Integer(), Type.Null()], { description: "epoch milliseconds" }),
  remindersSent: Type.Integer(),
  lastReminderAt: Type.Union([Type.Integer(), Type.Null()]),
  status: Status,
  orderId: Type.Union([Type.String(), Type.Null()]),
  recoveredCents: Type.Union([Type.Integer(), Type.Null()]),
});
const ListQuery = Type.Object(
  { status: Type.Optional(Status), cursor: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);
const ContactBody = Type.Object(
  {
    email: Type.Optional(
      Type.String({ maxLength: 256, description: "left out: the signed-in site user's email" }),
    ),
    firstName: Type.Optional(Type.String({ maxLength: 100 })),
    cartToken: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const TokenParams = Type.Object({ token: Type.String({ maxLength: 300 }) });

/** Contact saves per visitor address per window. */
const CONTACT_LIMIT: RateLimit = { max: 30, windowMs: 60_000 };

/** A small page of the shop's own (the link's answer when it cannot restore, unsubscribe). */
const page = linkPage;

/**
 * The checkout's contact: the email typed, or, when none is sent, the signed-in site user's
 * (their name too), so a signed-in shopper who leaves is reminded without typing anything.
 */
async function contactOf(
  request: FastifyRequest,
  websiteId: string,
  body: Static<typeof ContactBody>,
): Promise<{ email: string; firstName?: string }> {
  if (body.email !== undefined) return { email: body.email, firstName: body.firstName };
  const { db, clock } = request.server.deps;
  const found = await sessionOf(db, websiteId, request.cookies[SITE_USER_COOKIE], clock.now());
  if (!found) throw badRequest(MSG_EMAIL_INVALID, { email: MSG_EMAIL_INVALID });
  return { email: found.user.email, firstName: body.firstName || found.user.firstName || undefined };
}

export const recoveryRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;
  const { db, clock, config } = deps;
  const secure = config.publicUrl.startsWith("https:");
  const owner = siteApiRoutes(app, { tags: TAGS, area: "store" });

  owner.get(
    `${BASE}/settings`,
    {
      summary: "The recovery emails' settings: on or off, the abandoned-after time and up to three reminders",
      response: { 200: SettingsSchema, ...errorResponses(401, 403, 404) },
    },
    async (request) => recoverySettingsOf(db, siteOf(request).id),
  );

  owner.put(
    `${BASE}/settings`,
    {
      summary: "Replaces the recovery emails' settings",
      body: SettingsSchema,
      response: { 200: SettingsSchema, ...errorResponses(400, 401, 403, 404) },
    },
    async (request) => {
      const settings = checkSettings(request.body as Static<typeof SettingsSchema>);
      const websiteId = siteOf(request).id;
      const now = clock.now();
      await db.transaction(async (tx) => {
        await storeSettings(tx, websiteId, settings, now);
        await recheckSite(tx, websiteId, now);
      });
      return settings;
    },
  );

  owner.get(
    BASE,
    {
      summary: "Abandoned checkouts, newest first, with the revenue recovered in the last 30 days",
      querystring: ListQuery,
      response: {
        200: Type.Object({
          checkouts: Type.Array(CheckoutSchema),
          recoveredRevenue30d: Type.Integer({ description: "minor units" }),
          nextCursor: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errorResponses(400, 401, 403, 404),
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      return listAbandonedCheckouts(deps, siteOf(request).id, {
        status: q.status as CheckoutStatus | undefined,
        cursor: q.cursor,
      });
    },
  );

  owner.post(
    `${BASE}/:checkoutId/remind`,
    {
      summary: "Sends the checkout's next reminder now",
      params: siteParams("checkoutId"),
      response: { 200: Type.Object({ checkout: CheckoutSchema }), ...errorResponses(401, 403, 404, 409) },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const row = await remindNow(deps, websiteId, pathParam(request, "checkoutId"));
      return { checkout: (await checkoutById(db, websiteId, row.id))! };
    },
  );

  // ─── The shopper's calls ──────────────────────────────────────────────────────────────────

  const cache = app.storeCache;
  const contactLimit = siteLimiter(
    { db, clock, cache },
    "checkout-contact",
    CONTACT_LIMIT,
    RATE_LIMITED_MESSAGE,
  );
  const site = routeGroup(app, { tags: ["checkout"], write: [requireCrumb, contactLimit] });

  site.put(
    "/api/commerce/checkout/contact",
    {
      summary:
        "Saves the checkout's email for the visitor's cart (or a cartToken's), before payment; without an email, the signed-in site user's",
      body: ContactBody,
      response: {
        200: Type.Object({
          ok: Type.Boolean(),
          email: Type.String(),
          firstName: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errorResponses(400, 403, 404, 429),
      },
    },
    async (request) => {
      const body = request.body as Static<typeof ContactBody>;
      const reads = await siteReadsOf(db, cache, request);
      const contact = await contactOf(request, reads.site.id, body);
      await saveContact(deps, {
        websiteId: reads.site.id,
        cartToken: body.cartToken || request.cookies[CART_COOKIE],
        ...contact,
        origin: siteBaseUrl(reads.site, deps.config.publicUrl),
      });
      return { ok: true, email: contact.email.trim().toLowerCase(), firstName: contact.firstName ?? null };
    },
  );

  const linkLimit = { rateLimit: { max: 30, timeWindow: "1 minute" } };

  app.get(
    "/cart/recover/:token",
    {
      config: linkLimit,
      schema: {
        tags: ["checkout"],
        summary: "A recovery email's link: restores the cart in this browser and redirects to the cart page",
        params: TokenParams,
        response: { 302: Type.Null(), 404: ErrorSchema, 410: ErrorSchema },
      },
    },
    async (request: FastifyRequest, reply) => {
      const siteRow = await siteAtHost(db, request.headers.host);
      const checked = await checkRestoreToken(config.dataDir, pathParam(request, "token"), clock.now());
      const token =
        checked && "id" in checked ? await restoreCheckoutCart(deps, siteRow.id, checked.id) : undefined;
      if (!token) {
        const expired = Boolean(checked);
        return page(
          reply,
          expired ? 410 : 404,
          expired ? "This cart is no longer available" : "This link is not valid",
          expired
            ? "The cart has expired or its order was already placed."
            : "Check that the whole link from the email was opened.",
        );
      }
      keepCartCookie(reply, token, secure);
      return reply.header("cache-control", "no-store").redirect("/cart", 302);
    },
  );

  const unsubscribeSchema = (summary: string) => ({
    tags: ["checkout"],
    summary,
    params: TokenParams,
    response: { 200: Type.String(), 404: ErrorSchema },
  });

  app.get(
    "/cart/unsubscribe/:token",
    {
      config: linkLimit,
      schema: unsubscribeSchema("The unsubscribe link of a recovery email: a page with the button"),
    },
    async (request, reply) => {
      const id = await checkUnsubscribeToken(config.dataDir, pathParam(request, "token"));
      if (!id)
        return page(
          reply,
          404,
          "This link is not valid",
          "Check that the whole link from the email was opened.",
        );
      const action = `/cart/unsubscribe/${encodeURIComponent(pathParam(request, "token"))}`;
      return page(
        reply,
        200,
        "Unsubscribe from cart reminders",
        "You will get no more emails about carts you left at this store.",
        `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    },
  );

  app.post(
    "/cart/unsubscribe/:token",
    {
      config: linkLimit,
      schema: {
        ...unsubscribeSchema("One-click unsubscribe (RFC 8058): the body is List-Unsubscribe=One-Click"),
        body: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 100 }))),
      },
    },
    async (request, reply) => {
      const siteRow = await siteAtHost(db, request.headers.host);
      const id = await checkUnsubscribeToken(config.dataDir, pathParam(request, "token"));
      const done = id ? await unsubscribeCheckout(deps, siteRow.id, id) : false;
      if (!done)
        return page(
          reply,
          404,
          "This link is not valid",
          "Check that the whole link from the email was opened.",
        );
      return page(
        reply,
        200,
        "You are unsubscribed",
        "You will get no more emails about carts you left at this store.",
      );
    },
  );
};
