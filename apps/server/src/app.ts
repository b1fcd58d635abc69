import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import { randomUUID } from "node:crypto";
import helmet from "@fastify/helmet";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import type { Deps, RouteInfo } from "./http/deps.js";
import { installBodyParsers } from "./http/body-parsers.js";
import { installDefaultCsp } from "./http/csp.js";
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
import { dashboardRoutes } from "./modules/dashboard/routes.js";
import { healthRoutes } from "./modules/health/routes.js";
import { jobsPlugin } from "./modules/jobs/plugin.js";
import { siteUserRoutes } from "./modules/site-users/routes.js";
import { siteUserOwnerRoutes } from "./modules/site-users/owner-routes.js";
import { restockRoutes } from "./modules/restock/routes.js";
import { siteArchiveRoutes } from "./modules/site-archive/routes.js";
import { siteRoutes } from "./render/routes.js";
import { fontPreviewRoutes } from "./modules/design/font-preview.js";
import { designRoutes } from "./modules/design/routes.js";

const storefrontDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../storefront/dist");

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
  const app = Fastify({
    logger: opts.logger ?? { level: opts.config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
    // The caller's request id when it sends a sane one (a load balancer's), else a fresh one.
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { maxParamLength: 500 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: "array", allErrors: false } },
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
  // Every route, so the bad-input test can reach routes added later without being told.
  const routeList: RouteInfo[] = [];
  app.decorate("routeList", routeList);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD") routeList.push({ method, url: route.url, bodySchema: route.schema?.body });
    }
  });
  installErrorHandlers(app);
  if (!opts.media) app.addHook("onClose", () => deps.media.close());

  await app.register(cookie);
  await app.register(formbody);
  installBodyParsers(app);
  await app.register(helmet, {
    // Each kind of HTML sets its own policy (http/csp.ts): the dashboard a strict one, published
    // pages one with a fresh nonce per response, which helmet's static policy cannot give.
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
  });
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
  await app.register(swagger, {
    openapi: {
      info: { title: "Atelier API", version: "0.1.0", description: "Site API (SPEC §7) and the owner API." },
    },
  });
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  await app.register(fastifyStatic, {
    root: storefrontDist,
    prefix: "/assets/storefront/",
    maxAge: "1h",
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
  await app.register(billingRoutes);
  await app.register(siteArchiveRoutes);
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
