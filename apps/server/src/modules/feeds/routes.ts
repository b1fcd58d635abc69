import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { settingsOf, siteAtHost, siteBaseUrl } from "../sites/service.js";
import { FEED_KINDS, type FeedKind, productFeedXml } from "./service.js";

/** Product feeds of the site at the request's host, for the owner to hand to Instagram and ad catalogs. */
export const feedRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;

  app.get(
    "/api/commerce/feeds/:kind",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        tags: ["site"],
        summary: "The site's product feed (RSS 2.0 with g: fields): instagram.xml or dynamic-ads.xml",
        params: Type.Object({
          kind: Type.Union(FEED_KINDS.map((k) => Type.Literal(`${k}.xml`))),
        }),
      },
    },
    async (request, reply) => {
      const site = await siteAtHost(db, request.headers.host);
      const { store } = await settingsOf(db, site.id);
      const kind = (request.params as { kind: string }).kind.replace(/\.xml$/, "") as FeedKind;
      const body = await productFeedXml(
        db,
        {
          id: site.id,
          title: site.title,
          currency: store?.currency ?? "USD",
          origin: siteBaseUrl(site, config.publicUrl),
        },
        kind,
      );
      return reply
        .type("application/rss+xml; charset=utf-8")
        .header("cache-control", "public, max-age=300")
        .send(body);
    },
  );
};
