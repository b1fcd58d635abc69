/** The owner's URL mappings (Settings → URL mappings), in the OpenAPI with the owner calls. */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { badRequest } from "../../http/errors.js";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import {
  type RedirectInput,
  addRedirect,
  deleteRedirect,
  deleteRedirectGroup,
  listRedirects,
  redirectJson,
} from "./service.js";

const tags = ["owner"];

export const redirectRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const site = siteApiRoutes(app, { tags, area: "seo" });

  site.get("/redirects", { summary: "The site's URL mappings" }, async (request) => ({
    redirects: (await listRedirects(db, siteOf(request).id)).map(redirectJson),
  }));

  site.post(
    "/redirects",
    {
      summary: "Adds a URL mapping: from an exact path or a /prefix/*, to a path or an https:// address",
      body: Type.Object(
        {
          from: Type.String({ maxLength: 2000 }),
          to: Type.String({ maxLength: 2000 }),
          status: Type.Optional(Type.Union([Type.Literal(301), Type.Literal(302)])),
        },
        { additionalProperties: false },
      ),
    },
    async (request, reply) => {
      const row = await addRedirect(db, siteOf(request).id, request.body as RedirectInput);
      return reply.status(201).send({ redirect: redirectJson(row) });
    },
  );

  site.delete(
    "/redirects",
    {
      summary: "Removes a group of URL mappings (those an import added)",
      // Optional in the schema so that the site is checked first; required below.
      querystring: Type.Object(
        { group: Type.Optional(Type.String({ maxLength: 300 })) },
        { additionalProperties: false },
      ),
    },
    async (request) => {
      const { group } = request.query as { group?: string };
      if (!group) throw badRequest("Name the group of URL mappings to remove.", { group: "Required" });
      return { removed: await deleteRedirectGroup(db, siteOf(request).id, group) };
    },
  );

  site.delete(
    "/redirects/:redirectId",
    { summary: "Removes a URL mapping", params: siteParams("redirectId") },
    async (request) => {
      await deleteRedirect(db, siteOf(request).id, pathParam(request, "redirectId"));
      return { ok: true };
    },
  );
};
