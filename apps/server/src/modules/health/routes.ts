import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";

/** A round trip slower than this counts as unreachable: a health check must answer, not hang. */
export const HEALTH_TIMEOUT_MS = 3000;

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

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
        await withTimeout(app.deps.database.ping(), HEALTH_TIMEOUT_MS);
        return { ok: true as const };
      } catch (err) {
        request.log.warn({ err }, "health check: database unreachable");
        return reply.status(503).send({ ok: false as const, error: "The database is unreachable." });
      }
    },
  );
};
