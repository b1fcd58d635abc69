/**
 * API keys: the owner's panel calls (list, create, revoke) and the public commerce API that a key
 * opens (`Authorization: Bearer <key>`; the key names the website, never the host or the body).
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest, FastifySchema } from "fastify";
import { hashToken } from "../../lib/ids.js";
import { listProducts } from "../catalog/inventory.js";
import { listOrders } from "../orders/service.js";
import { Id } from "../../http/schemas.js";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import { API_KEY_NAME_MAX_LENGTH, API_SCOPES, type ApiKeyList, type ApiScope } from "@atelier/owner-api";
import {
  type ApiCaller,
  MAX_ADJUSTMENTS,
  adjustInventory,
  authenticate,
  createKey,
  inventoryPage,
  listKeys,
  requireScope,
  revokeKey,
} from "./service.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The API key of a public API call. */
    apiCaller?: ApiCaller;
  }
}

/** Opaque paging cursors: the position of the next page. */
const NumberCursor = Type.String({ pattern: "^[0-9]{1,7}$" });
const PublicRateLimit = {
  max: 120,
  timeWindow: "1 minute",
  // Per key (its hash), else per address for calls without one.
  keyGenerator: (request: FastifyRequest) => {
    const auth = request.headers.authorization;
    return typeof auth === "string" && auth.length <= 300 ? `key:${hashToken(auth)}` : `ip:${request.ip}`;
  },
};

export const apiKeyRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;
  const site = siteApiRoutes(app, { tags: ["owner: API keys"], area: "api_keys" });

  site.get(
    "/api-keys",
    { summary: "The site's API keys (never the key itself)" },
    async (request) =>
      ({
        apiKeys: await listKeys(db, siteOf(request).id),
        scopes: API_SCOPES,
      }) satisfies ApiKeyList,
  );

  site.post(
    "/api-keys",
    {
      summary: "Creates an API key; the answer is the only time the full key is shown",
      body: Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX_LENGTH }),
          scopes: Type.Array(Type.Union(API_SCOPES.map((s) => Type.Literal(s))), {
            minItems: 1,
            maxItems: API_SCOPES.length,
            uniqueItems: true,
          }),
        },
        { additionalProperties: false },
      ),
    },
    async (request, reply) => {
      const created = await createKey(
        db,
        siteOf(request).id,
        request.body as { name: string; scopes: string[] },
      );
      return reply.status(201).send(created);
    },
  );

  site.delete(
    "/api-keys/:keyId",
    { summary: "Revokes an API key", params: siteParams("keyId") },
    async (request) => {
      await revokeKey(db, siteOf(request).id, pathParam(request, "keyId"));
      return { ok: true };
    },
  );

  // ─── The public commerce API ──────────────────────────────────────────────────────────────

  await app.register(async (api) => {
    const tags = ["commerce API (API key)"];
    // Before validation: a call without a valid key is 401 whatever its input.
    api.addHook("preValidation", async (request) => {
      request.apiCaller = await authenticate(db, request.headers.authorization, clock.now());
    });
    /** Registers a call of the commerce API: rate limited per key, open only to a key with `scope`. */
    const commerce = (
      method: "GET" | "POST",
      url: string,
      scope: ApiScope,
      schema: Omit<FastifySchema, "tags">,
      handler: (request: FastifyRequest, caller: ApiCaller) => Promise<unknown>,
    ) =>
      api.route({
        method,
        url,
        config: { rateLimit: PublicRateLimit },
        schema: { tags, ...schema },
        handler: async (request) => {
          const caller = request.apiCaller!;
          requireScope(caller, scope);
          return handler(request, caller);
        },
      });

    commerce(
      "GET",
      "/api/1/commerce/orders",
      "orders.read",
      {
        summary: "Orders with lines, totals in cents and statuses, newest first (scope orders.read)",
        querystring: Type.Object(
          {
            cursor: Type.Optional(NumberCursor),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          },
          { additionalProperties: false },
        ),
      },
      async (request, caller) => {
        const q = request.query as { cursor?: string; limit?: number };
        const offset = Number(q.cursor ?? 0);
        const limit = q.limit ?? 50;
        const { orders, total } = await listOrders(db, caller.websiteId, { limit, offset });
        return {
          orders: orders.map(({ analytics: _a, ...o }) => o),
          nextCursor: offset + orders.length < total ? String(offset + orders.length) : null,
        };
      },
    );

    commerce(
      "GET",
      "/api/1/commerce/products",
      "products.read",
      {
        summary: "Products with their variants: SKU, price in cents, stock (scope products.read)",
        querystring: Type.Object({ cursor: Type.Optional(NumberCursor) }, { additionalProperties: false }),
      },
      async (request, caller) => {
        const page = Math.max(1, Number((request.query as { cursor?: string }).cursor ?? 1));
        const list = await listProducts(db, caller.websiteId, { page, pageSize: 50 });
        return {
          products: list.products.map((p) => ({
            id: p.id,
            title: p.title,
            status: p.status,
            productType: p.productType,
            url: p.fullUrl,
            variants: p.variants,
          })),
          nextCursor: list.hasNextPage ? String(page + 1) : null,
        };
      },
    );

    commerce(
      "GET",
      "/api/1/commerce/inventory",
      "inventory.read",
      {
        summary: "Stock of every variant (scope inventory.read)",
        querystring: Type.Object({ cursor: Type.Optional(Id) }, { additionalProperties: false }),
      },
      async (request, caller) =>
        inventoryPage(db, caller.websiteId, (request.query as { cursor?: string }).cursor, 100),
    );

    commerce(
      "POST",
      "/api/1/commerce/inventory/adjustments",
      "inventory.write",
      {
        summary: "Adjusts stock by deltas, all or nothing; never below 0 (scope inventory.write)",
        body: Type.Object(
          {
            adjustments: Type.Array(
              Type.Object(
                {
                  variantId: Id,
                  quantityDelta: Type.Integer({ minimum: -10_000_000, maximum: 10_000_000 }),
                },
                { additionalProperties: false },
              ),
              { minItems: 1, maxItems: MAX_ADJUSTMENTS },
            ),
          },
          { additionalProperties: false },
        ),
      },
      async (request, caller) => {
        const { adjustments } = request.body as {
          adjustments: { variantId: string; quantityDelta: number }[];
        };
        return adjustInventory(db, caller.websiteId, adjustments);
      },
    );
  });
};
