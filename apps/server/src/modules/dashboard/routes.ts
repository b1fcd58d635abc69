/** The owner dashboard at /config: the app's files and the editing frame. */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { serveDashboard } from "./app-files.js";
import { serveFrame } from "./frame.js";

/** The editing frame shows the site's pages: reading content. */
const FRAME = { permission: "content.read" as const };
const SiteParam = { siteId: Type.String({ maxLength: 100 }) };

export const dashboardRoutes: FastifyPluginAsync = async (app) => {
  app.get("/config", { schema: { hide: true } }, serveDashboard);
  app.get("/config/*", { schema: { hide: true } }, serveDashboard);
  app.get(
    "/config/frame/:siteId",
    { config: FRAME, schema: { hide: true, params: Type.Object(SiteParam) } },
    serveFrame,
  );
  app.get(
    "/config/frame/:siteId/*",
    { config: FRAME, schema: { hide: true, params: Type.Object({ ...SiteParam, "*": Type.String() }) } },
    serveFrame,
  );
};
