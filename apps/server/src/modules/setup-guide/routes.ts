/** The setup guide of a site's overview (docs/starters.md): its steps, and closing it. */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { SiteParams, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import { setSetupGuideDismissed, setupGuide } from "./service.js";

const tags = ["owner: setup guide"];

const Guide = Type.Object({
  steps: Type.Array(
    Type.Object({ id: Type.String(), title: Type.String(), done: Type.Boolean(), href: Type.String() }),
  ),
  dismissed: Type.Boolean(),
});

export const setupGuideRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  const guideOf = (site: Parameters<typeof setupGuide>[1]) =>
    setupGuide(db, site, Boolean(config.stripeSecretKey));

  app.get(
    "/api/owner/sites/:siteId/setup",
    {
      preHandler: ownerRead,
      config: { permission: "settings.read" },
      schema: {
        tags,
        summary: "The setup guide: what is left to do on a new site",
        params: SiteParams,
        response: { 200: Guide },
      },
    },
    async (request) => guideOf(siteOf(request)),
  );

  app.put(
    "/api/owner/sites/:siteId/setup",
    {
      preHandler: ownerWrite,
      config: { permission: "settings.write" },
      schema: {
        tags,
        summary: "Hides or shows the setup guide on the site overview",
        params: SiteParams,
        body: Type.Object({ dismissed: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: Guide },
      },
    },
    async (request) => {
      const site = siteOf(request);
      await setSetupGuideDismissed(db, site.id, (request.body as { dismissed: boolean }).dismissed);
      return guideOf(site);
    },
  );
};
