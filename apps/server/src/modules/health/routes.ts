import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";

/** GET /healthz: 200 after a database round trip, 503 when the database cannot be reached. */
export const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    "/healthz",
    {
      schema: {
        tags: ["ops"],
        response: {
          200: Type.Object({ ok: Type.Literal(true) }),
          503: Type.Object({ ok: Type.Literal(false), error: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      try {
        await app.deps.database.ping();
        return { ok: true as const };
      } catch (err) {
        request.log.warn({ err }, "health check: database unreachable");
        return reply.status(503).send({ ok: false as const, error: "The database is unreachable." });
      }
    },
  );
};
