import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { Id } from "../../http/schemas.js";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import {
  type ItemInput,
  createItem,
  deleteItem,
  getItem,
  listItems,
  reorderItems,
  updateItem,
} from "./service.js";

const tags = ["owner: content"];
const CollectionParams = siteParams("collectionId");
const ItemParams = siteParams("collectionId", "itemId");
const Millis = Type.Union([
  Type.Null(),
  Type.Integer({ minimum: -62135596800000, maximum: 253402300799000 }),
]);

const Item = Type.Object(
  {
    title: Type.String({ maxLength: 1000 }),
    urlId: Type.Optional(Type.String({ maxLength: 2100 })),
    body: Type.Optional(Type.String({ maxLength: 300_000 })),
    excerpt: Type.Optional(Type.String({ maxLength: 10_000 })),
    seoTitle: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 1000 })])),
    seoDescription: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 2000 })])),
    seoHidden: Type.Optional(Type.Boolean()),
    authorName: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
    status: Type.Optional(Type.Union([Type.Literal("published"), Type.Literal("draft")])),
    publishOn: Type.Optional(Millis),
    startDate: Type.Optional(Millis),
    endDate: Type.Optional(Millis),
    location: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object(
          {
            addressTitle: Type.Optional(Type.String({ maxLength: 300 })),
            addressLine1: Type.Optional(Type.String({ maxLength: 300 })),
            addressLine2: Type.Optional(Type.String({ maxLength: 300 })),
            addressCountry: Type.Optional(Type.String({ maxLength: 100 })),
            mapLat: Type.Optional(Type.Number()),
            mapLng: Type.Optional(Type.Number()),
          },
          { additionalProperties: false },
        ),
      ]),
    ),
    mainImageId: Type.Optional(Type.Union([Type.Null(), Id])),
    imageIds: Type.Optional(Type.Array(Id, { maxItems: 100 })),
    categories: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    commentsOn: Type.Optional(Type.Boolean()),
    audioUrl: Type.Optional(Type.String({ maxLength: 3000 })),
  },
  { additionalProperties: false },
);

/** Blog posts, events, gallery images and album tracks of the owner API. */
export const contentAdminRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;
  const site = siteApiRoutes(app, { tags, area: "content" });
  const items = "/collections/:collectionId/items";
  const collectionOf = (request: FastifyRequest) => pathParam(request, "collectionId");

  site.get(
    items,
    {
      params: CollectionParams,
      querystring: Type.Object(
        {
          q: Type.Optional(Type.String({ maxLength: 200 })),
          page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000 })),
          pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 250 })),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => listItems(db, siteOf(request).id, collectionOf(request), request.query as never),
  );

  site.post(items, { params: CollectionParams, body: Item }, async (request, reply) => {
    const item = await createItem(
      db,
      clock,
      siteOf(request).id,
      collectionOf(request),
      request.body as ItemInput,
    );
    return reply.status(201).send({ item });
  });

  site.put(
    `${items}/order`,
    {
      params: CollectionParams,
      body: Type.Object({ ids: Type.Array(Id, { maxItems: 300 }) }, { additionalProperties: false }),
    },
    async (request) =>
      reorderItems(db, siteOf(request).id, collectionOf(request), (request.body as { ids: string[] }).ids),
  );

  site.get(`${items}/:itemId`, { params: ItemParams }, async (request) => ({
    item: await getItem(db, siteOf(request).id, collectionOf(request), pathParam(request, "itemId")),
  }));

  site.put(`${items}/:itemId`, { params: ItemParams, body: Item }, async (request) => ({
    item: await updateItem(
      db,
      clock,
      siteOf(request).id,
      collectionOf(request),
      pathParam(request, "itemId"),
      request.body as ItemInput,
    ),
  }));

  site.delete(`${items}/:itemId`, { params: ItemParams }, async (request) => {
    await deleteItem(db, siteOf(request).id, collectionOf(request), pathParam(request, "itemId"));
    return { ok: true };
  });
};
