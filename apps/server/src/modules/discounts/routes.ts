/** The owner API of automatic discounts: list, create, read, change and delete (Marketing → Discounts). */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import {
  type DiscountInput,
  createDiscount,
  deleteDiscount,
  getDiscount,
  listDiscounts,
  updateDiscount,
} from "./service.js";

const tags = ["owner: discounts"];
const Params = siteParams("id");
const Ids = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 });
const Count = Type.Integer({ minimum: 0, maximum: 100_000_000 });
// Null first: the request schemas coerce, so a null would otherwise become 0 (0 is read as null,
// no limit); a negative limit reaches the service, which answers in plain words.
const Limit = Type.Union([Type.Null(), Type.Integer({ minimum: -10_000_000, maximum: 10_000_000 })]);
// A string first: null becomes "", read as no date.
const WallTime = Type.Union([
  Type.String({ maxLength: 40, description: "YYYY-MM-DDTHH:mm in the site's time zone" }),
  Type.Null(),
]);

const Body = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 300 })),
    kind: Type.Optional(Type.String({ maxLength: 40 })),
    value: Type.Optional(Count),
    appliesTo: Type.Optional(
      Type.Object(
        {
          productIds: Type.Optional(Ids),
          categoryIds: Type.Optional(Ids),
          shippingOptionIds: Type.Optional(Ids),
        },
        { additionalProperties: false },
      ),
    ),
    conditions: Type.Optional(
      Type.Object(
        {
          minSubtotalCents: Type.Optional(Count),
          minQuantity: Type.Optional(Count),
          firstOrderOnly: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    ),
    buyXGetY: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object(
          {
            buyQuantity: Type.Optional(Count),
            getQuantity: Type.Optional(Count),
            getProductIds: Type.Optional(Ids),
            getCategoryIds: Type.Optional(Ids),
          },
          { additionalProperties: false },
        ),
      ]),
    ),
    startsAt: Type.Optional(WallTime),
    endsAt: Type.Optional(WallTime),
    usageLimit: Type.Optional(Limit),
    perCustomerLimit: Type.Optional(Limit),
    combinesWithCoupons: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const discountsRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;
  const site = siteApiRoutes(app, { tags, area: "store" });

  site.get("/discounts", { summary: "The store's automatic discounts" }, async (request) => ({
    discounts: await listDiscounts(db, siteOf(request).id),
  }));
  site.post("/discounts", { summary: "Create an automatic discount", body: Body }, async (request, reply) =>
    reply.status(201).send({
      discount: await createDiscount(db, siteOf(request).id, request.body as DiscountInput, clock.now()),
    }),
  );
  site.get("/discounts/:id", { summary: "One automatic discount", params: Params }, async (request) => ({
    discount: await getDiscount(db, siteOf(request).id, pathParam(request, "id")),
  }));
  site.patch(
    "/discounts/:id",
    { summary: "Change an automatic discount", params: Params, body: Body },
    async (request) => ({
      discount: await updateDiscount(
        db,
        siteOf(request).id,
        pathParam(request, "id"),
        request.body as DiscountInput,
      ),
    }),
  );
  site.delete(
    "/discounts/:id",
    { summary: "Delete an automatic discount", params: Params },
    async (request) => {
      await deleteDiscount(db, siteOf(request).id, pathParam(request, "id"));
      return { ok: true };
    },
  );
};
