import { existsSync } from "node:fs";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { buildSerializer, buildValidator } from "./http/schema-compilers.js";
import type { Deps, RouteInfo } from "./http/deps.js";
import { installBodyParsers } from "./http/body-parsers.js";
import { proxyTrust } from "./http/client-address.js";
import { installDefaultCsp } from "./http/csp.js";
import { OPENAPI_OPTIONS } from "./http/openapi.js";
import { FrontDoor } from "./http/front-door.js";
import { requestIdOf } from "./http/request-id.js";
import { HELMET_OPTIONS } from "./http/security-headers.js";
import { registerCompression } from "./http/compression.js";
import { IMMUTABLE } from "./http/hashed-assets.js";
import { STOREFRONT_DIST } from "./render/storefront-assets.js";
import { metricsPlugin } from "./modules/metrics/routes.js";
import { databaseRateLimitStore } from "./http/rate-limit-store.js";
import { clientErrorHandler, errorBody, frameworkErrorHandler, installErrorHandlers } from "./http/errors.js";
import type { Clock } from "./lib/clock.js";
import { systemClock } from "./lib/clock.js";
import { type MediaStore, createMediaStore } from "./media/index.js";
import { accountRoutes } from "./modules/accounts/routes.js";
import { analyticsRoutes } from "./modules/analytics/routes.js";
import { apiKeyRoutes } from "./modules/api-keys/routes.js";
import { billingRoutes } from "./modules/billing/routes.js";
import { cartRoutes } from "./modules/cart/routes.js";
import { checkoutPlugin } from "./modules/checkout/plugin.js";
import { emailRoutes } from "./modules/email/routes.js";
import { feedRoutes } from "./modules/feeds/routes.js";
import { seoRoutes } from "./modules/seo/routes.js";
import { redirectRoutes } from "./modules/redirects/routes.js";
import { templateRoutes } from "./modules/templates/routes.js";
import { formRoutes } from "./modules/forms/routes.js";
import { catalogAdminRoutes } from "./modules/catalog/admin-routes.js";
import { contentAdminRoutes } from "./modules/content-admin/routes.js";
import { dashboardRoutes } from "./modules/dashboard/routes.js";
import { ownerSiteRoutes } from "./modules/owner-sites/routes.js";
import { setupGuideRoutes } from "./modules/setup-guide/routes.js";
import { starterRoutes } from "./modules/starters/routes.js";
import { memberRoutes } from "./modules/members/routes.js";
import { permissionGate } from "./modules/owner-sites/access.js";
import { pageRoutes } from "./modules/pages/routes.js";
import { storeSettingsRoutes } from "./modules/store-settings/routes.js";
import { discountsRoutes } from "./modules/discounts/routes.js";
import { healthRoutes } from "./modules/health/routes.js";
import { jobsPlugin } from "./modules/jobs/plugin.js";
import { siteUserRoutes } from "./modules/site-users/routes.js";
import { siteUserOwnerRoutes } from "./modules/site-users/owner-routes.js";
import { restockRoutes } from "./modules/restock/routes.js";
import { siteArchiveRoutes } from "./modules/site-archive/routes.js";
import { siteRoutes } from "./render/routes.js";
import { SiteVersions } from "./render/cache.js";
import { domainRoutes } from "./modules/domains/routes.js";
import {
  type Website,
  canonicalRedirect,
  hostName,
  isPlatformHost,
  knownWebsiteForHost,
  usePlatformAddress,
} from "./modules/sites/service.js";
import { HSTS, isHttps } from "./http/hsts.js";
import { StoreCache } from "./modules/cart/site-reads.js";
import { fontPreviewRoutes } from "./modules/design/font-preview.js";
import { designRoutes } from "./modules/design/routes.js";
import { webhookRoutes } from "./modules/webhooks/routes.js";
import { activityRoutes } from "./modules/activity/routes.js";
import { installActivityRecording } from "./modules/activity/recording.js";
import { changeContextHook, historyRoutes } from "./modules/history/routes.js";
import { sitePopupRoutes } from "./modules/site-popups/routes.js";
import { recoveryRoutes } from "./modules/recovery/routes.js";
import { campaignRoutes } from "./modules/campaigns/routes.js";

const storefrontDist = STOREFRONT_DIST;
/** Vite's content-hashed file names, `<name>-<8 characters of hash>.<ext>`, or their .br/.gz. */
const HASHED_NAME = /-[\w-]{8}\.\w+(\.br|\.gz)?$/;

export interface AppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  logger?: FastifyServerOptions["logger"];
  /** Defaults to the store the configuration names. */
  media?: MediaStore;
}

/** Builds the whole HTTP app; `npm start` listens with it and tests call `app.inject`. */
export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const frontDoor = new FrontDoor();
  const app = Fastify({
    logger: opts.logger ?? { level: opts.config.logLevel },
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For counts only from the proxies TRUST_PROXY names (http/client-address.ts).
    trustProxy: proxyTrust(opts.config.trustProxy),
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Warm published pages are answered in front of Fastify (render/warm-pages.ts).
    serverFactory: frontDoor.serverFactory,
    routerOptions: { maxParamLength: 500 },
    // `verbose`: each error carries the schema it broke, so http/validation-messages.ts can say
    // what the field allows in plain words.
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: "array", allErrors: false, verbose: true },
    },
    schemaController: { compilersFactory: { buildValidator, buildSerializer } },
    // Errors met before a route runs get the one error shape too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  const deps: Deps = {
    config: opts.config,
    database: opts.database,
    db: opts.database.db,
    clock: opts.clock ?? systemClock,
    media: opts.media ?? createMediaStore(opts.config),
  };
  app.decorate("deps", deps);
  app.decorate("frontDoor", frontDoor);
  // Host → site and content versions, for the page cache and the store's per-version caches.
  const siteVersions = new SiteVersions<Website>(deps.database, app.log, opts.config.siteCacheEntries);
  app.decorate("siteVersions", siteVersions);
  usePlatformAddress(opts.config.publicUrl);
  // Another name of a site (a secondary domain, the `www.`/bare pair) answers 301 to its primary one.
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    if (isPlatformHost(hostName(request.headers.host)) || request.url.startsWith("/internal/")) return;
    const site = await knownWebsiteForHost(siteVersions, deps.db, request.headers.host);
    const to = site && canonicalRedirect(site, request.headers.host, opts.config.publicUrl);
    if (to) return reply.redirect(`${to}${request.url}`, 301);
  });
  // Strict-Transport-Security only on answers that went over HTTPS (never pins a plain-HTTP setup).
  app.addHook("onSend", async (request, reply) => {
    if (isHttps(request.raw, request.protocol)) reply.header("strict-transport-security", HSTS);
  });
  app.decorate("storeCache", new StoreCache(opts.config.siteCacheEntries));
  app.addHook("onReady", async () => {
    deps.database.onClose(() => siteVersions.stop());
    await siteVersions.start();
  });
  app.addHook("onClose", () => siteVersions.stop());
  app.addHook("preClose", (done) => {
    frontDoor.close();
    done();
  });
  // Every route, so the bad-input test can reach routes added later without being told.
  const routeList: RouteInfo[] = [];
  app.decorate("routeList", routeList);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD")
        routeList.push({
          method,
          url: route.url,
          bodySchema: route.schema?.body,
          permission: route.config?.permission,
          personOnly: route.config?.personOnly,
        });
    }
  });
  installErrorHandlers(app);
  // Who makes each request's changes, for the versions and trash entries its services write.
  app.addHook("preValidation", changeContextHook);
  // A member whose roles lack a route's permission is refused before the input is even read.
  app.addHook("preValidation", permissionGate);
  // Every change through the owner API gets its activity entry in its own transaction.
  installActivityRecording(app);
  if (!opts.media) app.addHook("onClose", () => deps.media.close());

  await registerCompression(app);
  await app.register(cookie);
  await app.register(formbody);
  installBodyParsers(app);
  // Each kind of HTML sets its own policy (http/csp.ts): the dashboard a strict one, published
  // pages one with the hash of their loader script, which helmet's static policy cannot give.
  await app.register(helmet, HELMET_OPTIONS);
  installDefaultCsp(app);
  await app.register(metricsPlugin);
  await app.register(rateLimit, {
    global: false,
    // Counted in the database, shared by every process (http/rate-limit-store.ts).
    store: databaseRateLimitStore(deps.db, deps.clock),
    errorResponseBuilder: (_req, ctx) => ({
      statusCode: ctx.statusCode,
      ...errorBody("rate_limited", "Please try again in a few seconds."),
    }),
  });
  await app.register(swagger, OPENAPI_OPTIONS);
  // The interactive reference, served from the package's own files (no CDN).
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    uiConfig: { deepLinking: true },
    theme: { title: "Atelier API reference" },
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(fastifyStatic, {
    root: storefrontDist,
    prefix: "/assets/storefront/",
    // Built files come with .br and .gz beside them (scripts/precompress.mjs).
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      reply.header("cache-control", HASHED_NAME.test(file) ? IMMUTABLE : "public, max-age=300");
    },
    // The dist folder may not exist in tests that never build the front ends.
    allowedPath: () => existsSync(storefrontDist),
  });

  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(analyticsRoutes);
  await app.register(cartRoutes);
  await app.register(checkoutPlugin);
  await app.register(restockRoutes);
  await app.register(formRoutes);
  await app.register(emailRoutes);
  await app.register(feedRoutes);
  await app.register(seoRoutes);
  await app.register(redirectRoutes);
  await app.register(templateRoutes);
  await app.register(jobsPlugin);
  await app.register(siteUserRoutes);
  await app.register(siteUserOwnerRoutes);
  await app.register(apiKeyRoutes);
  await app.register(webhookRoutes);
  await app.register(recoveryRoutes);
  await app.register(sitePopupRoutes);
  await app.register(campaignRoutes);
  await app.register(billingRoutes);
  await app.register(siteArchiveRoutes);
  await app.register(ownerSiteRoutes);
  await app.register(domainRoutes);
  await app.register(starterRoutes);
  await app.register(setupGuideRoutes);
  await app.register(memberRoutes);
  await app.register(activityRoutes);
  await app.register(pageRoutes);
  await app.register(catalogAdminRoutes);
  await app.register(contentAdminRoutes);
  await app.register(historyRoutes);
  await app.register(storeSettingsRoutes);
  await app.register(discountsRoutes);
  await app.register(dashboardRoutes);
  await app.register(designRoutes);
  await app.register(fontPreviewRoutes);
  await app.register(siteRoutes);

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(errorBody("not_found", `No such route: ${request.method} ${request.url.split("?")[0]}`));
  });
  return app;
}
