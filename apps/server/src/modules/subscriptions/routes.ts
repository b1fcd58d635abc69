/** The owner's view of customer subscriptions: list (by status) and cancel. */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { siteOf } from "../owner-sites/access.js";
import { cancelSubscription, listSubscriptions } from "./service.js";
import { Loose, OffsetPaging, offsetPage } from "../../http/schemas.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";

const ErrorSchema = Type.Object(
  { error: Type.Object({ code: Type.String(), message: Type.String() }) },
  { additionalProperties: true },
);
const errors = { 401: ErrorSchema, 403: ErrorSchema, 404: ErrorSchema, 409: ErrorSchema };

export const subscriptionRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;

  const site = siteApiRoutes(app, { tags: ["owner", "subscriptions"], area: "orders" });

  site.get(
    "/subscriptions",
    {
      summary: "Customer subscriptions of a site, newest first",
      querystring: Type.Object(
        {
          status: Type.Optional(
            Type.Union(["active", "past_due", "cancelled", "completed"].map((s) => Type.Literal(s))),
          ),
          ...OffsetPaging,
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({ subscriptions: Type.Array(Loose("A subscription")), total: Type.Integer() }),
        ...errors,
      },
    },
    async (request) => {
      const q = request.query as { status?: string; limit?: number; offset?: number };
      return listSubscriptions(db, siteOf(request).id, {
        status: q.status,
        ...offsetPage(q),
      });
    },
  );

  site.post(
    "/subscriptions/:subscriptionId/cancel",
    {
      summary: "Stops a subscription: no further renewals",
      params: siteParams("subscriptionId"),
      response: { 200: Type.Object({ subscription: Loose("The subscription") }), ...errors },
    },
    async (request) => ({
      subscription: await cancelSubscription(
        db,
        siteOf(request).id,
        pathParam(request, "subscriptionId"),
        clock.now(),
      ),
    }),
  );
};
