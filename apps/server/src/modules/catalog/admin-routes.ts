import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { API_KEYS_PANEL_EVENTS, API_KEY_MODAL_EVENTS } from "../api-keys/service.js";
import { Id } from "../../http/schemas.js";
import { siteOf } from "../owner-sites/access.js";
import { type ProductInput, createProduct, deleteProduct, getProduct, updateProduct } from "./admin.js";
import {
  INVENTORY_EVENTS,
  type ProductQuery,
  listProducts,
  recordPanelEvent,
  setStock,
} from "./inventory.js";
import { badRequest } from "../../http/errors.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import { ANY_MEMBER } from "../members/permissions.js";

/** The actions each merchant panel may send (SPEC §2). */
const PANEL_ACTIONS: Record<string, readonly string[]> = {
  inventory_panel: INVENTORY_EVENTS,
  api_keys_panel: API_KEYS_PANEL_EVENTS,
  api_key_creation_modal: API_KEY_MODAL_EVENTS,
};

const tags = ["owner: products"];
const ProductParams = siteParams("productId");
const Cents = Type.Integer({ minimum: 0, maximum: 100_000_000 });
const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([Type.Null(), t]);

const Variant = Type.Object(
  {
    id: Type.Optional(Id),
    sku: Type.Optional(Type.String({ maxLength: 100 })),
    attributes: Type.Optional(
      Type.Record(Type.String({ maxLength: 60 }), Type.String({ maxLength: 200 }), { maxProperties: 6 }),
    ),
    priceCents: Cents,
    salePriceCents: Type.Optional(Cents),
    onSale: Type.Optional(Type.Boolean()),
    qtyInStock: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
    unlimited: Type.Optional(Type.Boolean()),
    weightGrams: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    mainImageId: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false },
);

const Product = Type.Object(
  {
    collectionId: Type.Optional(Id),
    title: Type.String({ maxLength: 1000 }),
    urlId: Type.Optional(Type.String({ maxLength: 2100 })),
    productType: Type.Integer({ minimum: 1, maximum: 5 }),
    status: Type.Optional(Type.Union([Type.Literal("published"), Type.Literal("draft")])),
    body: Type.Optional(Type.String({ maxLength: 200_000 })),
    excerpt: Type.Optional(Type.String({ maxLength: 5000 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    categories: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    mainImageId: Type.Optional(Nullable(Id)),
    imageIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    variantOptionOrdering: Type.Optional(Type.Array(Type.String({ maxLength: 60 }), { maxItems: 10 })),
    variants: Type.Array(Variant, { maxItems: 300 }),
    isSubscribable: Type.Optional(Type.Boolean()),
    subscriptionPlan: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object(
          {
            billingPeriod: Type.Object(
              {
                value: Type.Integer({ minimum: 1, maximum: 1000 }),
                unit: Type.Union([Type.Literal("WEEK"), Type.Literal("MONTH"), Type.Literal("YEAR")]),
              },
              { additionalProperties: false },
            ),
            numBillingCycles: Type.Integer({ minimum: 0, maximum: 10000 }),
          },
          { additionalProperties: false },
        ),
      ]),
    ),
    giftCardDenominations: Type.Optional(Type.Array(Cents, { maxItems: 50 })),
    scarcityText: Type.Optional(Type.String({ maxLength: 1000 })),
    seoTitle: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 1000 })])),
    seoDescription: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 2000 })])),
    seoHidden: Type.Optional(Type.Boolean()),
    useCustomAddButtonText: Type.Optional(Type.Boolean()),
    customAddButtonText: Type.Optional(Type.String({ maxLength: 500 })),
    additionalFieldsFormId: Type.Optional(Nullable(Id)),
  },
  { additionalProperties: false },
);

/** Product editing and the inventory panel of the owner API. */
export const catalogAdminRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const site = siteApiRoutes(app, { tags, area: "products" });

  site.get(
    "/products",
    {
      summary: "Products with price and stock: search (name or SKU), sort by name, stock or price, paging",
      querystring: Type.Object(
        {
          q: Type.Optional(Type.String({ maxLength: 200 })),
          collectionId: Type.Optional(Id),
          sort: Type.Optional(
            Type.Union([Type.Literal("name"), Type.Literal("stock"), Type.Literal("price")]),
          ),
          dir: Type.Optional(Type.Union([Type.Literal("asc"), Type.Literal("desc")])),
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => listProducts(db, siteOf(request).id, request.query as ProductQuery),
  );

  site.post("/products", { body: Product }, async (request, reply) => {
    const product = await createProduct(db, siteOf(request).id, request.body as ProductInput);
    return reply.status(201).send({ product });
  });

  site.get("/products/:productId", { params: ProductParams }, async (request) => ({
    product: await getProduct(db, siteOf(request).id, pathParam(request, "productId")),
  }));

  site.put("/products/:productId", { params: ProductParams, body: Product }, async (request) => ({
    product: await updateProduct(
      db,
      siteOf(request).id,
      pathParam(request, "productId"),
      request.body as ProductInput,
    ),
  }));

  site.delete("/products/:productId", { params: ProductParams }, async (request) => {
    await deleteProduct(db, siteOf(request).id, pathParam(request, "productId"));
    return { ok: true };
  });

  site.patch(
    "/variants/:variantId/stock",
    {
      summary: "Set a variant's stock, adjust it by a delta, or make it unlimited",
      params: siteParams("variantId"),
      body: Type.Object(
        {
          qtyInStock: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
          delta: Type.Optional(Type.Integer({ minimum: -10_000_000, maximum: 10_000_000 })),
          unlimited: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => ({
      variant: await setStock(db, siteOf(request).id, pathParam(request, "variantId"), request.body as never),
    }),
    "inventory.write",
  );

  site.post(
    "/panel-events",
    {
      summary: "Tracking events of the merchant panels (SPEC §2), stored in analytics_events",
      body: Type.Object(
        {
          objectType: Type.Union(Object.keys(PANEL_ACTIONS).map((o) => Type.Literal(o))),
          action: Type.Union([...new Set(Object.values(PANEL_ACTIONS).flat())].map((a) => Type.Literal(a))),
          pagePath: Type.Optional(Type.String({ maxLength: 500 })),
          sessionId: Type.Optional(Type.String({ maxLength: 100 })),
          data: Type.Optional(
            Type.Record(
              Type.String({ maxLength: 60 }),
              Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]),
              { maxProperties: 20 },
            ),
          ),
        },
        { additionalProperties: false },
      ),
    },
    async (request, reply) => {
      const { objectType, action } = request.body as { objectType: string; action: string };
      if (!PANEL_ACTIONS[objectType]?.includes(action))
        throw badRequest(`${action} is not an event of the ${objectType}.`, { action: "Invalid" });
      await recordPanelEvent(db, siteOf(request).id, request.body as never);
      return reply.status(202).send({ ok: true });
    },
    // Any member using the product or inventory panels reports its clicks.
    ANY_MEMBER,
  );
};
