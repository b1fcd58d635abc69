/** Custom domains of a site (Settings → Domains) and the TLS proxy's question (Caddy's `ask`). */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { notFound } from "../../http/errors.js";
import { pathParam, siteApiRoutes } from "../../http/site-routes.js";
import { SiteParams, siteOf } from "../owner-sites/access.js";
import {
  addDomain,
  listDomains,
  makePrimaryDomain,
  removeDomain,
  setRedirectWww,
  tlsAllowed,
  verifyDomain,
} from "./service.js";

const DomainParams = Type.Object({
  siteId: SiteParams.properties.siteId,
  host: Type.String({ maxLength: 260 }),
});

export const domainRoutes: FastifyPluginAsync = async (app) => {
  const deps = app.deps;
  const { db, config } = deps;
  const site = siteApiRoutes(app, { tags: ["owner: domains"], area: "settings" });
  const list = (siteId: string) => listDomains(db, config, siteId);

  site.get(
    "/domains",
    { summary: "The site's domains, the records to set for each and their status" },
    (request) => list(siteOf(request).id),
  );

  site.post(
    "/domains",
    {
      summary: "Adds a domain to the site, pending until its DNS records are verified",
      body: Type.Object({ host: Type.String({ maxLength: 300 }) }, { additionalProperties: false }),
    },
    async (request, reply) => {
      const { host } = request.body as { host: string };
      return reply.status(201).send(await addDomain(deps, siteOf(request).id, host));
    },
  );

  site.patch(
    "/domains",
    {
      summary: "Chooses whether the www. and bare names of the primary domain redirect to it",
      body: Type.Object({ redirectWww: Type.Boolean() }, { additionalProperties: false }),
    },
    (request) =>
      setRedirectWww(db, config, siteOf(request).id, (request.body as { redirectWww: boolean }).redirectWww),
  );

  site.post(
    "/domains/:host/verify",
    { summary: "Looks the domain's DNS records up now and records the outcome", params: DomainParams },
    async (request) => {
      const siteId = siteOf(request).id;
      await verifyDomain(deps, siteId, pathParam(request, "host"));
      return list(siteId);
    },
  );

  site.put(
    "/domains/:host/primary",
    { summary: "Makes a verified domain the site's primary address", params: DomainParams },
    (request) => makePrimaryDomain(db, config, siteOf(request).id, pathParam(request, "host")),
  );

  site.delete(
    "/domains/:host",
    { summary: "Removes a domain from the site", params: DomainParams },
    (request) => removeDomain(db, config, siteOf(request).id, pathParam(request, "host")),
  );

  app.get(
    "/internal/tls/allowed",
    {
      schema: {
        tags: ["internal"],
        summary: "Whether the TLS proxy may get a certificate for a name (Caddy's on-demand ask)",
        querystring: Type.Object(
          { domain: Type.String({ maxLength: 300 }) },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const { domain } = request.query as { domain: string };
      if (!(await tlsAllowed(db, config, domain))) throw notFound("No site has this domain.");
      return { allowed: true };
    },
  );
};
