import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { badRequest } from "../../http/errors.js";
import { OWNER_SESSION_COOKIE } from "../../http/owner-auth.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import { siteOf } from "../owner-sites/access.js";
import { siteAtHost } from "../sites/service.js";
import { SITE_USER_COOKIE } from "../site-users/routes.js";
import {
  UNTRACKED_PAGE_TYPES,
  hitFromData,
  latestScriptErrors,
  recordHit,
  recordScriptErrors,
  scriptErrorOf,
  validVisitorRecord,
} from "./service.js";
import { registerReportRoutes } from "./report-routes.js";

const HIT_NOT_JSON = "The hit data is not a JSON object.";
const Recorded = Type.Object({ recorded: Type.Boolean() });

/** Visitor analytics (SPEC §7 census calls): page-view hits from published sites, traffic for owners. */
export const analyticsRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.deps;

  app.post(
    "/api/census/RecordHit",
    {
      config: { rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        tags: ["site"],
        summary: "Records a page-view hit of an anonymous visitor (form-encoded: event, data, ss_cvr)",
        body: Type.Object(
          {
            event: Type.String({ minLength: 1, maxLength: 64 }),
            data: Type.String({ maxLength: 16_384 }),
            ss_cvr: Type.Optional(Type.String({ maxLength: 400 })),
          },
          { additionalProperties: false },
        ),
        response: { 202: Recorded },
      },
    },
    async (request, reply) => {
      const body = request.body as { event: string; data: string; ss_cvr?: string };
      let data: unknown;
      try {
        data = JSON.parse(body.data);
      } catch {
        throw badRequest(HIT_NOT_JSON, { data: HIT_NOT_JSON });
      }
      if (!data || typeof data !== "object" || Array.isArray(data)) {
        throw badRequest(HIT_NOT_JSON, { data: HIT_NOT_JSON });
      }
      const site = await siteAtHost(db, request.headers.host);
      const fields = data as Record<string, unknown>;
      // SPEC §1 and §6: only anonymous visitors are counted; never owners or signed-in site users.
      const signedIn = Boolean(request.cookies[OWNER_SESSION_COOKIE] || request.cookies[SITE_USER_COOKIE]);
      const untracked = typeof fields.pageType === "number" && UNTRACKED_PAGE_TYPES.has(fields.pageType);
      if (signedIn || untracked) return reply.status(202).send({ recorded: false });
      const hit = hitFromData(body.event, fields, validVisitorRecord(body.ss_cvr));
      await recordHit(db, site, { ...hit, userAgent: hit.userAgent ?? request.headers["user-agent"] });
      return reply.status(202).send({ recorded: true });
    },
  );

  app.post(
    "/api/events/RecordJavascriptErrors",
    {
      preHandler: requireCrumb,
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
      schema: {
        tags: ["site"],
        summary: "Records the script errors of a published page (at most 10 a batch)",
        body: Type.Array(
          Type.Object(
            {
              event: Type.String({ minLength: 1, maxLength: 64 }),
              data: Type.String({ maxLength: 12_000 }),
              timestamp: Type.Integer({ minimum: 0 }),
            },
            { additionalProperties: false },
          ),
          { maxItems: 10 },
        ),
        response: { 202: Type.Object({ recorded: Type.Integer() }) },
      },
    },
    async (request, reply) => {
      const site = await siteAtHost(db, request.headers.host);
      const batch = request.body as { event: string; data: string; timestamp: number }[];
      const errors = batch
        .filter((e) => e.event === "javascript-error")
        .map((e) => scriptErrorOf(e.data, e.timestamp))
        .filter((e) => e !== undefined);
      await recordScriptErrors(db, site.id, errors);
      return reply.status(202).send({ recorded: errors.length });
    },
  );

  const site = siteApiRoutes(app, { tags: ["owner"], area: "analytics" });

  site.get(
    "/analytics/script-errors",
    {
      summary: "The newest script errors visitors' browsers reported on the published site",
      querystring: Type.Object(
        { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          errors: Type.Array(
            Type.Object({
              message: Type.String(),
              stack: Type.String(),
              url: Type.String(),
              line: Type.Optional(Type.Integer()),
              column: Type.Optional(Type.Integer()),
              timestamp: Type.Integer(),
              pagePath: Type.String(),
              receivedOn: Type.Integer(),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const websiteId = siteOf(request).id;
      const limit = (request.query as { limit?: number }).limit ?? 50;
      return { errors: await latestScriptErrors(db, websiteId, limit) };
    },
  );

  registerReportRoutes(site, db, clock);
};
