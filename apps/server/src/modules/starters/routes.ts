/**
 * Starters (docs/starters.md): the list the dashboard's "new site" flow shows, their
 * screenshots, and removing a site's sample content. Creating a site from a starter is
 * `POST /api/owner/sites` with `starter` (owner-sites).
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { noSuchFile } from "../../http/errors.js";
import { requireOwner } from "../../http/owner-auth.js";
import { SiteParams, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import { STARTERS, starterById } from "./catalog.js";
import { starterScreenshotSvg } from "./preview.js";
import { removeSampleContent, sampleCounts } from "./sample-content.js";

const tags = ["owner: starters"];

const StarterSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  websiteType: Type.Integer({ description: "1 classic, 2 cover page, 4 commerce" }),
  theme: Type.String(),
  screenshotUrl: Type.String(),
});

const SampleCounts = Type.Object({
  items: Type.Integer(),
  products: Type.Integer(),
  images: Type.Integer(),
});

const screenshotUrl = (id: string) => `/api/starters/${id}/screenshot.svg`;

export const starterRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    "/api/owner/starters",
    {
      preHandler: requireOwner,
      schema: {
        tags,
        summary: "The starter sites a new site can begin from",
        response: { 200: Type.Object({ starters: Type.Array(StarterSchema) }) },
      },
    },
    async () => ({
      starters: STARTERS.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        websiteType: s.websiteType,
        theme: s.theme,
        screenshotUrl: screenshotUrl(s.id),
      })),
    }),
  );

  // Public: a drawing of the starter's home page, nobody's data.
  app.get(
    "/api/starters/:starterId/screenshot.svg",
    {
      schema: {
        tags,
        summary: "A starter's preview picture (SVG)",
        params: Type.Object({ starterId: Type.String({ maxLength: 40 }) }),
      },
    },
    async (request, reply) => {
      const starter = starterById((request.params as { starterId: string }).starterId);
      if (!starter) throw noSuchFile();
      return reply
        .header("content-type", "image/svg+xml")
        .header("cache-control", "public, max-age=3600")
        .send(starterScreenshotSvg(starter));
    },
  );

  app.get(
    "/api/owner/sites/:siteId/sample-content",
    {
      preHandler: ownerRead,
      config: { permission: "content.read" },
      schema: {
        tags,
        summary: "How much sample content a starter left on the site",
        params: SiteParams,
        response: { 200: Type.Object({ sample: SampleCounts }) },
      },
    },
    async (request) => ({ sample: await sampleCounts(app.deps.db, siteOf(request).id) }),
  );

  app.delete(
    "/api/owner/sites/:siteId/sample-content",
    {
      preHandler: ownerWrite,
      config: { permission: "content.write" },
      schema: {
        tags,
        summary: "Removes all sample content (items, products and images a starter brought)",
        params: SiteParams,
        response: { 200: Type.Object({ removed: SampleCounts }) },
      },
    },
    async (request) => ({
      removed: await removeSampleContent(app.deps.db, app.deps.media, siteOf(request).id),
    }),
  );
};
