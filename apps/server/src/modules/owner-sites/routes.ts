import { CART_PILL_POSITIONS } from "@atelier/commerce";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { requireOwner } from "../../http/owner-auth.js";
import { STARTERS } from "../starters/catalog.js";
import { siteOf } from "./access.js";
import { ANY_MEMBER } from "../members/permissions.js";
import { siteApiRoutes } from "../../http/site-routes.js";
import {
  BUILT_IN_THEMES,
  LOCALES,
  SHARE_SERVICES,
  SOCIAL_SERVICES,
  createSite,
  listSites,
  siteJson,
  siteSettings,
  updateSite,
  updateSiteSettings,
} from "./service.js";

const tags = ["owner: sites"];

/** An owner's sites: list, create, rename, time zone, domains and site settings. */
export const ownerSiteRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;

  app.get("/api/owner/themes", { preHandler: requireOwner, schema: { tags } }, async () => ({
    themes: BUILT_IN_THEMES,
    locales: LOCALES,
    timeZones: Intl.supportedValuesOf("timeZone"),
  }));

  app.get("/api/owner/sites", { preHandler: requireOwner, schema: { tags } }, async (request) => ({
    sites: await listSites(db, request.owner!.id, config.publicUrl),
  }));

  app.post(
    "/api/owner/sites",
    {
      preHandler: [requireCrumb, requireOwner],
      schema: {
        tags,
        body: Type.Object(
          {
            title: Type.String({ maxLength: 1000 }),
            starter: Type.Optional(Type.Union(STARTERS.map((s) => Type.Literal(s.id)))),
            theme: Type.Optional(Type.Union(BUILT_IN_THEMES.map((t) => Type.Literal(t.id)))),
            identifier: Type.Optional(Type.String({ maxLength: 100 })),
            timeZone: Type.Optional(Type.String({ maxLength: 100 })),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request, reply) => {
      const site = await createSite(db, request.owner!, request.body as never, config.publicUrl, {
        media: app.deps.media,
        now: app.deps.clock.now(),
      });
      return reply.status(201).send({ site });
    },
  );

  const site = siteApiRoutes(app, { tags, area: "settings" });

  site.get(
    "",
    {},
    async (request) => ({ site: await siteJson(db, siteOf(request), config.publicUrl, request.member) }),
    ANY_MEMBER,
  );

  site.patch(
    "",
    {
      body: Type.Object(
        {
          title: Type.Optional(Type.String({ maxLength: 1000 })),
          tagline: Type.Optional(Type.String({ maxLength: 1000 })),
          timeZone: Type.Optional(Type.String({ maxLength: 100 })),
          locale: Type.Optional(Type.String({ maxLength: 20 })),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => ({
      site: await updateSite(db, siteOf(request), request.body as never, config.publicUrl),
    }),
  );

  site.get("/settings", {}, async (request) => ({
    settings: await siteSettings(db, siteOf(request).id),
    shareServices: SHARE_SERVICES,
    cartPillPositions: CART_PILL_POSITIONS,
    socialServices: SOCIAL_SERVICES,
  }));

  site.patch(
    "/settings",
    {
      body: Type.Object(
        {
          commentsEnabled: Type.Optional(Type.Boolean()),
          disqusShortName: Type.Optional(Type.String({ maxLength: 100 })),
          simpleLikingEnabled: Type.Optional(Type.Boolean()),
          shareButtonOptions: Type.Optional(
            Type.Record(Type.String({ maxLength: 40 }), Type.Boolean(), { maxProperties: 20 }),
          ),
          cookieBannerEnabled: Type.Optional(Type.Boolean()),
          restrictiveCookiePolicy: Type.Optional(Type.Boolean()),
          restrictiveCookiePolicyAbsolute: Type.Optional(Type.Boolean()),
          socialLinks: Type.Optional(
            Type.Array(
              Type.Object(
                {
                  service: Type.String({ maxLength: 40 }),
                  profileUrl: Type.String({ maxLength: 3000 }),
                  userName: Type.Optional(Type.String({ maxLength: 100 })),
                },
                { additionalProperties: false },
              ),
              { maxItems: 20 },
            ),
          ),
          contactEmail: Type.Optional(Type.String({ maxLength: 300 })),
          cartPillPosition: Type.Optional(Type.String({ maxLength: 40 })),
          adPixelId: Type.Optional(Type.String({ maxLength: 40 })),
          hideFromSearchEngines: Type.Optional(Type.Boolean()),
          useCLDRMoneyFormat: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => ({
      settings: await updateSiteSettings(db, siteOf(request).id, request.body as never),
    }),
  );
};
