/** Owner API on a website's site users: `GET /api/owner/sites/:siteId/site-users`. */
import { type Static, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { siteOf } from "../owner-sites/access.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import { listSiteUsersForOwner, SITE_USERS_PAGE_MAX, SITE_USERS_PAGE_SIZE } from "./owner-service.js";
import { errorResponses } from "../../http/schemas.js";

const ListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: "Search in email, first and last name" })),
    cursor: Type.Optional(Type.String({ maxLength: 400, description: "nextCursor of the previous page" })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: SITE_USERS_PAGE_MAX })),
  },
  { additionalProperties: false },
);

const OwnerSiteUser = Type.Object({
  id: Type.String(),
  email: Type.String(),
  firstName: Type.String(),
  lastName: Type.String(),
  createdOn: Type.Number({ description: "Milliseconds since the epoch" }),
  orderCount: Type.Integer(),
});

export const siteUserOwnerRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  siteApiRoutes(app, { tags: ["owner", "site-users"], area: "site_users" }).get(
    "/site-users",
    {
      summary: "Site users of a website, newest first, with their order counts (cursor pages)",
      querystring: ListQuery,
      response: {
        200: Type.Object({
          siteUsers: Type.Array(OwnerSiteUser),
          nextCursor: Type.Union([Type.String(), Type.Null()]),
        }),
        ...errorResponses(400, 401, 404),
      },
    },
    async (request) => {
      const q = request.query as Static<typeof ListQuery>;
      return listSiteUsersForOwner(db, siteOf(request).id, {
        q: q.q,
        cursor: q.cursor,
        limit: q.limit ?? SITE_USERS_PAGE_SIZE,
      });
    },
  );
};
