import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { registerHousekeeping } from "../jobs/plugin.js";
import { siteOf } from "../owner-sites/access.js";
import { OUTBOX_RETENTION_DAYS, listOutbox, pruneOutbox } from "./service.js";
import { OffsetPaging, offsetPage } from "../../http/schemas.js";
import { siteApiRoutes } from "../../http/site-routes.js";

registerHousekeeping("outbox", (deps) =>
  pruneOutbox(deps.db, new Date(deps.clock.now().getTime() - OUTBOX_RETENTION_DAYS * 86400_000)),
);

const OutboxEmail = Type.Object({
  id: Type.String(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  createdOn: Type.Number(),
  sentOn: Type.Union([Type.Number(), Type.Null()]),
});

/** The owner's view of a site's outbox. */
export const emailRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const site = siteApiRoutes(app, { tags: ["owner"], area: "settings" });
  site.get(
    "/outbox",
    {
      summary: "Emails the site sent or keeps (newest first)",
      querystring: Type.Object(
        {
          ...OffsetPaging,
          status: Type.Optional(
            Type.Union([
              Type.Literal("queued"),
              Type.Literal("sent"),
              Type.Literal("failed"),
              Type.Literal("kept"),
            ]),
          ),
        },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ emails: Type.Array(OutboxEmail), total: Type.Integer() }) },
    },
    async (request) => {
      const q = request.query as { limit?: number; offset?: number; status?: string };
      const websiteId = siteOf(request).id;
      return listOutbox(db, websiteId, { ...offsetPage(q), status: q.status });
    },
  );
};
