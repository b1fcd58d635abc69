/**
 * API keys: the owner's panel calls (list, create, revoke) and the public commerce API that a key
 * opens (`Authorization: Bearer <key>`; the key names the website, never the host or the body).
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { hashToken } from "../../lib/ids.js";
import { listProducts } from "../catalog/inventory.js";
import { listOrders } from "../orders/service.js";
import { Id, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import {
  API_SCOPES,
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

const SiteParams = Type.Object({ siteId: Id });
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

function callerOf(request: FastifyRequest): ApiCaller {
  return request.apiCaller!;
}

export const apiKeyRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;
  const ownerTags = ["owner: API keys"];

  app.get(
    "/api/owner/sites/:siteId/api-keys",
    {
      preHandler: ownerRead,
      schema: { tags: ownerTags, summary: "The site's API keys (never the key itself)", params: SiteParams },
    },
    async (request) => ({ apiKeys: await listKeys(db, siteOf(request).id), scopes: API_SCOPES }),
  );

  app.post(
    "/api/owner/sites/:siteId/api-keys",
    {
      preHandler: ownerWrite,
      schema: {
        tags: ownerTags,
        summary: "Creates an API key; the answer is the only time the full key is shown",
        params: SiteParams,
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 100 }),
            scopes: Type.Array(Type.Union(API_SCOPES.map((s) => Type.Literal(s))), {
              minItems: 1,
              maxItems: API_SCOPES.length,
              uniqueItems: true,
            }),
          },
          { additionalProperties: false },
        ),
      },
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

  app.delete(
    "/api/owner/sites/:siteId/api-keys/:keyId",
    {
      preHandler: ownerWrite,
      schema: {
        tags: ownerTags,
        summary: "Revokes an API key",
        params: Type.Object({ siteId: Id, keyId: Id }),
      },
    },
    async (request) => {
      const { keyId } = request.params as { keyId: string };
      await revokeKey(db, siteOf(request).id, keyId);
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

    api.get(
      "/api/1/commerce/orders",
      {
        config: { rateLimit: PublicRateLimit },
        schema: {
          tags,
          summary: "Orders with lines, totals in cents and statuses, newest first (scope orders.read)",
          querystring: Type.Object(
            {
              cursor: Type.Optional(NumberCursor),
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
            },
            { additionalProperties: false },
          ),
        },
      },
      async (request) => {
        const caller = callerOf(request);
        requireScope(caller, "orders.read");
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

    api.get(
      "/api/1/commerce/products",
      {
        config: { rateLimit: PublicRateLimit },
        schema: {
          tags,
          summary: "Products with their variants: SKU, price in cents, stock (scope products.read)",
          querystring: Type.Object({ cursor: Type.Optional(NumberCursor) }, { additionalProperties: false }),
        },
      },
      async (request) => {
        const caller = callerOf(request);
        requireScope(caller, "products.read");
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

    api.get(
      "/api/1/commerce/inventory",
      {
        config: { rateLimit: PublicRateLimit },
        schema: {
          tags,
          summary: "Stock of every variant (scope inventory.read)",
          querystring: Type.Object({ cursor: Type.Optional(Id) }, { additionalProperties: false }),
        },
      },
      async (request) => {
        const caller = callerOf(request);
        requireScope(caller, "inventory.read");
        return inventoryPage(db, caller.websiteId, (request.query as { cursor?: string }).cursor, 100);
      },
    );

    api.post(
      "/api/1/commerce/inventory/adjustments",
      {
        config: { rateLimit: PublicRateLimit },
        schema: {
          tags,
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
      },
      async (request) => {
        const caller = callerOf(request);
        requireScope(caller, "inventory.write");
        const { adjustments } = request.body as {
          adjustments: { variantId: string; quantityDelta: number }[];
        };
        return adjustInventory(db, caller.websiteId, adjustments);
      },
    );
  });
};
