import type { Config } from "../config.js";
import type { FrontDoor } from "./front-door.js";
import type { Database, Db } from "../db/client.js";
import type { Clock } from "../lib/clock.js";
import type { MediaStore } from "../media/store.js";
import type { StoreCache } from "../modules/cart/site-reads.js";
import type { Website } from "../modules/sites/service.js";
import type { SiteVersions } from "../render/cache.js";

/** What every route and service needs, injected once into the app. */
export interface Deps {
  config: Config;
  database: Database;
  db: Db;
  clock: Clock;
  /** Media files: local disk or the S3 bucket. */
  media: MediaStore;
}

/** A route as the bad-input test sees it: its body schema lets it build inputs that pass validation. */
export interface RouteInfo {
  method: string;
  url: string;
  bodySchema?: unknown;
  /** The permission the route declares (`config.permission`), if any. */
  permission?: string;
  /** Only a person signed in to the dashboard makes this call (API keys are refused). */
  personOnly?: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: Deps;
    routeList: RouteInfo[];
    /** The HTTP server's fast paths, in front of Fastify. */
    frontDoor: FrontDoor;
    /** Host → site and each site's content version, kept while the version listener runs. */
    siteVersions: SiteVersions<Website>;
    /** The store's reads of each site kept per content version (cart, quote, order). */
    storeCache: StoreCache;
  }
}
