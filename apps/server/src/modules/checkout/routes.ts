/**
 * Checkout calls (our design, in the OpenAPI): the checkout quote, POST /api/commerce/orders,
 * the buyer's view of an order and of a subscription, digital downloads, and the checkout
 * page's analytics events. The website comes from the host; the cart from the cart cookie or
 * a cartToken (express and subscription checkouts).
 */
import { type Static, Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { contentItems } from "../../db/schema.js";
import { clearCookie } from "../../http/cookies.js";
import { requireCrumb } from "../../http/crumb.js";
import { commaList } from "../../lib/comma-list.js";
import { ApiError, notFound } from "../../http/errors.js";
import { pathParam, routeGroup } from "../../http/site-routes.js";
import type { Db } from "../../db/client.js";
import { CART_COOKIE, CART_PRESENT_COOKIE, RATE_LIMITED_MESSAGE } from "../cart/routes.js";
import { type RateLimit, readWithCount, siteLimiter, siteReadsOf } from "../cart/rate-limit.js";
import { keyAndCartJson, seenOfJson } from "./reserve.js";
import { tokenHashValue } from "../cart/service.js";
import { downloadLinks, subscriptionUrl } from "../orders/links.js";
import { lineDetailsOf, linesOf, orderJson, orderRow } from "../orders/service.js";
import { recordEvent } from "../analytics/service.js";
import { type Website, siteAtHost, siteBaseUrl } from "../sites/service.js";
import {
  productNames,
  subscriptionById,
  subscriptionIdsOf,
  subscriptionJson,
} from "../subscriptions/service.js";
import { type CheckoutDeps, type PlaceOrderInput, placeOrder, quote } from "./service.js";
import { verifyDownload, verifyOrderToken, verifySubscriptionToken } from "./signing.js";
import type { DigitalFile } from "./store.js";
import { Loose, StringParams, errorResponses } from "../../http/schemas.js";

const Str = (max: number) => Type.String({ maxLength: max });
const Opt = (max: number) => Type.Optional(Str(max));

const AddressSchema = Type.Object(
  {
    firstName: Opt(100),
    lastName: Opt(100),
    line1: Opt(200),
    line2: Opt(200),
    city: Opt(100),
    state: Opt(100),
    postalCode: Opt(20),
    country: Opt(3),
  },
  { additionalProperties: false, description: "A postal address; country is an ISO 3166-1 alpha-2 code." },
);

const PaymentSchema = Type.Union([
  Type.Object(
    {
      method: Type.Literal("card"),
      cardNumber: Type.String({ minLength: 1, maxLength: 30 }),
      expMonth: Type.Integer({ minimum: 0, maximum: 99 }),
      expYear: Type.Integer({ minimum: 0, maximum: 9999 }),
      cvc: Type.String({ maxLength: 10 }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { method: Type.Literal("token"), token: Type.String({ minLength: 1, maxLength: 255 }) },
    { additionalProperties: false },
  ),
]);

const OrderBody = Type.Object(
  {
    email: Type.String({ maxLength: 256 }),
    shippingAddress: Type.Optional(AddressSchema),
    billingAddress: Type.Optional(AddressSchema),
    shippingOptionId: Opt(64),
    couponCodes: Type.Optional(Type.Array(Str(64), { maxItems: 10 })),
    payment: PaymentSchema,
    idempotencyKey: Type.String({ minLength: 8, maxLength: 100, pattern: "^[A-Za-z0-9_:.-]+$" }),
    cartToken: Opt(200),
  },
  { additionalProperties: false },
);

const errors = errorResponses(400, 402, 403, 404, 409, 429, 503);

const QuoteQuery = Type.Object(
  {
    cartToken: Opt(200),
    country: Opt(3),
    state: Opt(100),
    postalCode: Opt(20),
    shippingOptionId: Opt(64),
    email: Opt(320),
    couponCodes: Type.Optional(
      Type.String({ maxLength: 700, description: "Comma-separated codes (coupons and gift cards)." }),
    ),
  },
  { additionalProperties: false },
);

const CheckoutEvent = Type.Object(
  {
    event: Type.Union([
      Type.Literal("checkout-page-loaded"),
      Type.Literal("checkout-product-form-opened"),
      Type.Literal("checkout-product-form-closed"),
      Type.Literal("checkout-product-form-submitted"),
    ]),
    data: Type.Optional(
      Type.Record(
        Type.String({ maxLength: 64 }),
        Type.Union([Type.Number(), Type.String({ maxLength: 200 }), Type.Boolean(), Type.Null()]),
        { maxProperties: 40 },
      ),
    ),
    pagePath: Opt(500),
  },
  { additionalProperties: false },
);

/** Order attempts per visitor address, shared by every process (card testing is the threat). */
export const ORDER_ATTEMPT_LIMIT: RateLimit = { max: 30, windowMs: 10 * 60_000 };

/** The query of a buyer's view opened by the token of its confirmation link. */
const TokenQuery = Type.Object({ token: Str(100) }, { additionalProperties: false });

/** The cart an order is for: the body's cartToken (express and subscription checkouts), else the cart cookie's. */
function orderCartToken(request: FastifyRequest): string | undefined {
  return (request.body as { cartToken?: string }).cartToken || request.cookies[CART_COOKIE];
}

export const checkoutRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const deps = (): CheckoutDeps => ({ db, clock, config, payments: app.payments });
  const secure = config.publicUrl.startsWith("https:");

  const cache = app.storeCache;
  // The order's key and cart are read in the count's statement (reserve.ts reserveAtOnce).
  const orderLimit = siteLimiter(
    { db, clock, cache },
    "checkout-order",
    ORDER_ATTEMPT_LIMIT,
    RATE_LIMITED_MESSAGE,
    {
      name: "checkout_order_count_key_and_cart",
      sql: keyAndCartJson,
      values: (request) => {
        const body = request.body as Static<typeof OrderBody>;
        return { key: body.idempotencyKey, tokenHash: tokenHashValue(orderCartToken(request)) };
      },
    },
  );

  const checkout = routeGroup(app, { tags: ["checkout"], write: [requireCrumb, orderLimit] });

  async function siteOf(request: FastifyRequest): Promise<Website> {
    return siteAtHost(db, request.headers.host);
  }

  /**
   * The record a buyer's link names in the path param `param`, when it belongs to the request's
   * site and the link's `token` is its own; otherwise 404 with `message`.
   */
  async function linked<T extends { id: string; websiteId: string }>(
    request: FastifyRequest,
    param: string,
    load: (database: Db, id: string) => Promise<T | null | undefined>,
    verify: (dataDir: string, id: string, token: string) => Promise<boolean>,
    message: string,
  ): Promise<T> {
    const { token } = request.query as { token: string };
    const site = await siteOf(request);
    const record = await load(db, pathParam(request, param));
    if (!record || record.websiteId !== site.id || !(await verify(config.dataDir, record.id, token))) {
      throw notFound(message);
    }
    return record;
  }

  checkout.get(
    "/api/commerce/checkout/quote",
    {
      summary:
        "The checkout's cart priced for a location: shipping options, tax, coupons, gift cards, totals",
      querystring: QuoteQuery,
      response: { 200: Loose("{cart, shippingCountries, payment}"), ...errors },
    },
    async (request) => {
      const q = request.query as Static<typeof QuoteQuery>;
      const reads = await siteReadsOf(db, cache, request);
      const token = q.cartToken || request.cookies[CART_COOKIE];
      return quote(deps(), reads, token, {
        location:
          q.country || q.state || q.postalCode
            ? { country: q.country, state: q.state, postalCode: q.postalCode }
            : undefined,
        shippingOptionId: q.shippingOptionId || undefined,
        couponCodes: q.couponCodes ? commaList(q.couponCodes) : undefined,
        email: q.email || undefined,
      });
    },
  );

  checkout.post(
    "/api/commerce/orders",
    {
      summary: "Places the order of the visitor's cart (cookie) or of a cartToken, and pays for it",
      description:
        "201: the order (paid, or pending while the payment settles). 202: the card needs extra authentication; show `nextAction` and send the same request (same idempotencyKey) again afterwards. 402: declined, with the provider's message. 409: not enough stock ('Sorry, we do not have enough of that item available.'). The same idempotencyKey never makes a second order or charge.",
      body: OrderBody,
      response: {
        201: Type.Object(
          {
            order: Loose("The order"),
            confirmationUrl: Type.String(),
            subscriptionUrls: Type.Array(Type.String()),
            events: Type.Array(Type.String()),
          },
          { additionalProperties: false },
        ),
        202: Type.Object(
          {
            requiresAction: Type.Literal(true),
            nextAction: Loose(
              "test_challenge {challengeId, amountCents, currency, cardLast4} or redirect {url}",
            ),
            order: Loose("{id, orderNumber, grandTotalCents, currency}"),
            idempotencyKey: Type.String(),
            events: Type.Array(Type.String()),
          },
          { additionalProperties: false },
        ),
        ...errors,
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof OrderBody>;
      const reads = await siteReadsOf(db, cache, request);
      const site = reads.site;
      const viaCartToken = Boolean(body.cartToken);
      const cartToken = orderCartToken(request);
      const { cartToken: _t, ...input } = body;
      const seen = seenOfJson(readWithCount(request));
      const result = await placeOrder(
        deps(),
        { site, reads, seen, cartToken, viaCartToken, origin: siteBaseUrl(site, config.publicUrl) },
        input as PlaceOrderInput,
      );
      if (result.kind === "requires_action") {
        return reply.status(202).send({
          requiresAction: true,
          nextAction: result.nextAction,
          order: result.order,
          idempotencyKey: result.idempotencyKey,
          events: result.events,
        });
      }
      if (!viaCartToken && request.cookies[CART_COOKIE]) {
        clearCookie(reply, CART_COOKIE);
        reply.setCookie(CART_PRESENT_COOKIE, "", { path: "/", maxAge: 0, secure, sameSite: "lax" });
      }
      const subscriptionUrls = await Promise.all(
        result.subscriptionIds.map((id) =>
          subscriptionUrl(config.dataDir, siteBaseUrl(site, config.publicUrl), id, result.order.id),
        ),
      );
      return reply.status(201).send({
        order: result.order,
        confirmationUrl: result.confirmationUrl,
        subscriptionUrls,
        events: result.events,
      });
    },
  );

  checkout.get(
    "/api/commerce/orders/:orderId",
    {
      summary: "The buyer's view of an order, with the token of its confirmation link",
      params: StringParams("orderId"),
      querystring: TokenQuery,
      response: { 200: Loose("{order, downloads, subscriptions}"), ...errors },
    },
    async (request) => {
      const order = await linked(request, "orderId", orderRow, verifyOrderToken, "No such order.");
      const lines = await linesOf(db, order.id);
      const origin = siteBaseUrl(await siteOf(request), config.publicUrl);
      const subs = [];
      for (const id of subscriptionIdsOf(lines)) {
        const s = await subscriptionById(db, id);
        if (s)
          subs.push({
            ...subscriptionJson(s),
            url: await subscriptionUrl(config.dataDir, origin, id, order.id),
          });
      }
      const { analytics, ...json } = orderJson(order, lines);
      return {
        order: json,
        analytics,
        downloads: await downloadLinks(config.dataDir, origin, order, lines, clock.now()),
        subscriptions: subs,
      };
    },
  );

  checkout.get(
    "/api/commerce/subscriptions/:subscriptionId",
    {
      summary: "The buyer's view of a subscription, with the token of its confirmation link",
      params: StringParams("subscriptionId"),
      querystring: TokenQuery,
      response: { 200: Loose("{subscription}"), ...errors },
    },
    async (request) => {
      const s = await linked(
        request,
        "subscriptionId",
        subscriptionById,
        verifySubscriptionToken,
        "No such subscription.",
      );
      const names = await productNames(db, [s.itemId]);
      return { subscription: subscriptionJson(s, names.get(s.itemId)) };
    },
  );

  checkout.get(
    "/api/commerce/downloads/:orderId/:lineId",
    {
      summary: "A digital product's file, by a signed link that expires",
      params: StringParams("orderId", "lineId"),
      querystring: Type.Object(
        { expires: Type.Integer({ minimum: 0, maximum: 1e15 }), sig: Str(100) },
        { additionalProperties: false },
      ),
    },
    async (request, reply: FastifyReply) => {
      const { orderId, lineId } = request.params as { orderId: string; lineId: string };
      const { expires, sig } = request.query as { expires: number; sig: string };
      const site = await siteOf(request);
      if (!(await verifyDownload(config.dataDir, orderId, lineId, expires, sig))) {
        throw new ApiError(403, "forbidden", "This download link is not valid.");
      }
      if (expires < clock.now().getTime()) {
        throw new ApiError(
          410,
          "expired",
          "This download link has expired. Open your order page for a fresh one.",
        );
      }
      const order = await orderRow(db, orderId);
      if (!order || order.websiteId !== site.id) throw notFound("No such download.");
      if (order.status === "cancelled" || order.status === "refunded" || order.status === "pending") {
        throw new ApiError(403, "forbidden", "This order has no downloads.");
      }
      const line = (await linesOf(db, order.id)).find((l) => l.id === lineId);
      if (!line || !lineDetailsOf(line).digital) throw notFound("No such download.");
      const [item] = await db.select().from(contentItems).where(eq(contentItems.id, line.itemId));
      const file = (item?.structuredContent as { digitalFile?: DigitalFile } | null)?.digitalFile;
      // Digital files live in the media store (DATA_DIR or the bucket) under downloads/.
      const stored = file?.storagePath.startsWith("downloads/")
        ? await app.deps.media.open(file.storagePath).catch(() => undefined)
        : undefined;
      if (!file || !stored) throw notFound("This product has no file yet.");
      const safeName = file.filename.replace(/[^\w.-]+/g, "_");
      return reply
        .header("content-type", file.contentType || "application/octet-stream")
        .header("content-length", stored.size)
        .header("content-disposition", `attachment; filename="${safeName}"`)
        .header("cache-control", "private, no-store")
        .send(stored.body);
    },
  );

  app.post(
    "/api/commerce/checkout/events",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        tags: ["checkout"],
        summary:
          "Checkout page events: checkout-page-loaded (with browser performance metrics) and the product form events",
        body: CheckoutEvent,
        response: { 202: Type.Object({ ok: Type.Boolean() }), ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CheckoutEvent>;
      const site = await siteOf(request);
      await recordEvent(db, {
        websiteId: site.id,
        actor: "user",
        action: body.event,
        objectType: "checkout",
        pagePath: body.pagePath,
        data: { ...(body.data ?? {}), userAgent: String(request.headers["user-agent"] ?? "").slice(0, 300) },
      });
      return reply.status(202).send({ ok: true });
    },
  );
};
