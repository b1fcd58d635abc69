/** The owner's URL mappings (Settings → URL mappings), in the OpenAPI with the owner calls. */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { Id, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import { type RedirectInput, addRedirect, deleteRedirect, listRedirects, redirectJson } from "./service.js";

const tags = ["owner"];
const SiteParams = Type.Object({ siteId: Id });
const base = "/api/owner/sites/:siteId/redirects";

export const redirectRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  app.get(
    base,
    { preHandler: ownerRead, schema: { tags, summary: "The site's URL mappings", params: SiteParams } },
    async (request) => ({ redirects: (await listRedirects(db, siteOf(request).id)).map(redirectJson) }),
  );

  app.post(
    base,
    {
      preHandler: ownerWrite,
      schema: {
        tags,
        summary: "Adds a URL mapping: from an exact path or a /prefix/*, to a path or an https:// address",
        params: SiteParams,
        body: Type.Object(
          {
            from: Type.String({ maxLength: 2000 }),
            to: Type.String({ maxLength: 2000 }),
            status: Type.Optional(Type.Union([Type.Literal(301), Type.Literal(302)])),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const row = await addRedirect(db, siteOf(request).id, request.body as RedirectInput);
      return reply.status(201).send({ redirect: redirectJson(row) });
    },
  );

  app.delete(
    `${base}/:redirectId`,
    {
      preHandler: ownerWrite,
      schema: { tags, summary: "Removes a URL mapping", params: Type.Object({ siteId: Id, redirectId: Id }) },
    },
    async (request) => {
      await deleteRedirect(db, siteOf(request).id, (request.params as { redirectId: string }).redirectId);
      return { ok: true };
    },
  );
};
