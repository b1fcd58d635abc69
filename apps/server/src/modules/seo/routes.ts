/**
 * What search engines and feed readers ask a site for: /robots.txt and /sitemap.xml (with its
 * parts over 50,000 addresses), for the site at the request's host. The sitemap is rebuilt only
 * when the site's content version changes (every content change bumps it).
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { notFound } from "../../http/errors.js";
import { type Website, settingsOf, siteAtHost, siteBaseUrl } from "../sites/service.js";
import { robotsTxt } from "./robots.js";
import { sitemapDocuments, sitemapEntries } from "./sitemap.js";

/** Sitemaps kept per site and content version (the newest few sites). */
const CACHE_SITES = 100;

export const seoRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.deps;
  const cache = new Map<string, { version: number; docs: { main: string; parts: string[] } }>();
  const origin = (site: Website) => siteBaseUrl(site, config.publicUrl);

  async function siteAt(request: FastifyRequest): Promise<Website> {
    return siteAtHost(db, request.headers.host);
  }

  async function documents(site: Website, request: FastifyRequest) {
    const key = `${site.id} ${origin(site)}`;
    const hit = cache.get(key);
    if (hit && hit.version === site.contentVersion) return hit.docs;
    const entries = await sitemapEntries(db, site.id, origin(site), clock.now());
    const docs = sitemapDocuments(entries, origin(site));
    cache.delete(key);
    cache.set(key, { version: site.contentVersion, docs });
    if (cache.size > CACHE_SITES) cache.delete(cache.keys().next().value!);
    return docs;
  }

  app.get(
    "/robots.txt",
    { schema: { tags: ["site"], summary: "The site's robots rules, naming its sitemap" } },
    async (request, reply) => {
      const site = await siteAt(request);
      const { site: settings } = await settingsOf(db, site.id);
      return reply
        .type("text/plain; charset=utf-8")
        .header("cache-control", "public, max-age=300")
        .send(robotsTxt(origin(site), Boolean(settings?.hideFromSearchEngines)));
    },
  );

  app.get(
    "/sitemap.xml",
    { schema: { tags: ["site"], summary: "The site's sitemap (an index of parts over 50,000 addresses)" } },
    async (request, reply) => {
      const docs = await documents(await siteAt(request), request);
      return reply.type("application/xml; charset=utf-8").header("cache-control", "no-cache").send(docs.main);
    },
  );

  app.get(
    "/sitemap-:part(^\\d+).xml",
    {
      schema: {
        tags: ["site"],
        summary: "One part of a large site's sitemap",
        params: Type.Object({ part: Type.Integer({ minimum: 1, maximum: 100_000 }) }),
      },
    },
    async (request, reply) => {
      const docs = await documents(await siteAt(request), request);
      const part = docs.parts[(request.params as { part: number }).part - 1];
      if (!part) throw notFound("No such sitemap part.");
      return reply.type("application/xml; charset=utf-8").header("cache-control", "no-cache").send(part);
    },
  );
};
