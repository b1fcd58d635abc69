import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { Id, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
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
const CollectionParams = Type.Object({ siteId: Id, collectionId: Id });
const ItemParams = Type.Object({ siteId: Id, collectionId: Id, itemId: Id });
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
  const base = "/api/owner/sites/:siteId/collections/:collectionId/items";

  app.get(
    base,
    {
      preHandler: ownerRead,
      schema: {
        tags,
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
    },
    async (request) => {
      const { collectionId } = request.params as { collectionId: string };
      return listItems(db, siteOf(request).id, collectionId, request.query as never);
    },
  );

  app.post(
    base,
    { preHandler: ownerWrite, schema: { tags, params: CollectionParams, body: Item } },
    async (request, reply) => {
      const { collectionId } = request.params as { collectionId: string };
      const item = await createItem(db, clock, siteOf(request).id, collectionId, request.body as ItemInput);
      return reply.status(201).send({ item });
    },
  );

  app.put(
    `${base}/order`,
    {
      preHandler: ownerWrite,
      schema: {
        tags,
        params: CollectionParams,
        body: Type.Object({ ids: Type.Array(Id, { maxItems: 300 }) }, { additionalProperties: false }),
      },
    },
    async (request) => {
      const { collectionId } = request.params as { collectionId: string };
      return reorderItems(db, siteOf(request).id, collectionId, (request.body as { ids: string[] }).ids);
    },
  );

  app.get(
    `${base}/:itemId`,
    { preHandler: ownerRead, schema: { tags, params: ItemParams } },
    async (request) => {
      const { collectionId, itemId } = request.params as { collectionId: string; itemId: string };
      return { item: await getItem(db, siteOf(request).id, collectionId, itemId) };
    },
  );

  app.put(
    `${base}/:itemId`,
    { preHandler: ownerWrite, schema: { tags, params: ItemParams, body: Item } },
    async (request) => {
      const { collectionId, itemId } = request.params as { collectionId: string; itemId: string };
      return {
        item: await updateItem(
          db,
          clock,
          siteOf(request).id,
          collectionId,
          itemId,
          request.body as ItemInput,
        ),
      };
    },
  );

  app.delete(
    `${base}/:itemId`,
    { preHandler: ownerWrite, schema: { tags, params: ItemParams } },
    async (request) => {
      const { collectionId, itemId } = request.params as { collectionId: string; itemId: string };
      await deleteItem(db, siteOf(request).id, collectionId, itemId);
      return { ok: true };
    },
  );
};
