/**
 * The owner API of the activity log: read it with filters and a cursor, or as CSV. There is no call
 * that changes or deletes an entry.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { Id } from "../../http/schemas.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import { AREAS } from "../members/permissions.js";
import { siteOf } from "../owner-sites/access.js";
import { type ActivityFilter, activityActors, activityCsv, listActivity } from "./service.js";

const Day = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD (UTC)" });
const Filter = {
  actor: Type.Optional(Id),
  area: Type.Optional(Type.Union(Object.keys(AREAS).map((a) => Type.Literal(a)))),
  from: Type.Optional(Day),
  to: Type.Optional(Day),
};
const Nullable = (t: ReturnType<typeof Type.String>) => Type.Union([t, Type.Null()]);
const Entry = Type.Object({
  id: Type.String(),
  at: Type.String({ format: "date-time" }),
  actor: Type.Object({
    type: Type.String({ description: "account or api_key" }),
    id: Nullable(Type.String()),
    email: Nullable(Type.String()),
    name: Type.String({ description: "The account's email or the API key's name" }),
  }),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  area: Nullable(Type.String()),
  action: Type.String({ description: "<entity>.<verb>, e.g. product.updated" }),
  entity: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }),
  fields: Type.Array(Type.String(), { description: "Names of the fields the change sent, never values" }),
});

export const activityRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const site = siteApiRoutes(app, { tags: ["owner: activity"], area: "activity" });

  site.get(
    "/activity",
    {
      summary: "The site's activity log, newest first: who changed what, when and from where",
      querystring: Type.Object(
        { ...Filter, cursor: Type.Optional(Type.String({ pattern: "^[0-9]{1,15}$" })) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          entries: Type.Array(Entry),
          nextCursor: Nullable(Type.String()),
          actors: Type.Array(
            Type.Object({ type: Type.String(), id: Nullable(Type.String()), name: Type.String() }),
          ),
        }),
      },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const query = request.query as ActivityFilter & { cursor?: string };
      return { ...(await listActivity(db, websiteId, query)), actors: await activityActors(db, websiteId) };
    },
  );

  site.get(
    "/activity/export",
    {
      summary: "The site's activity log as CSV (the same filters), newest first",
      querystring: Type.Object(Filter, { additionalProperties: false }),
    },
    async (request, reply) => {
      const website = siteOf(request);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${website.identifier}-activity.csv"`)
        .header("cache-control", "no-store")
        .send(await activityCsv(db, website.id, request.query as ActivityFilter));
    },
  );
};
