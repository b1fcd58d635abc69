import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { siteAtHost } from "../sites/service.js";
import { searchSite } from "./service.js";

const Result = Type.Object({
  id: Type.String(),
  title: Type.String(),
  fullUrl: Type.String(),
  kind: Type.String(),
  typeLabel: Type.String(),
  snippet: Type.String(),
  imageUrl: Type.Optional(Type.String()),
  startDate: Type.Optional(Type.Number()),
});

/** Site search as JSON (the /search page renders the same results). */
export const searchRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;
  app.get(
    "/api/search",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        tags: ["site"],
        querystring: Type.Object({
          q: Type.String({ maxLength: 200 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
        }),
        response: { 200: Type.Object({ query: Type.String(), results: Type.Array(Result) }) },
      },
    },
    async (request) => {
      const site = await siteAtHost(db, request.headers.host);
      const { q, limit } = request.query as { q: string; limit?: number };
      const query = q.trim();
      return {
        query,
        results: await searchSite(db, site.id, query, { limit: limit ?? 20, now: clock.now() }),
      };
    },
  );
};
