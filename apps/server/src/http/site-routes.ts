/**
 * Registration of the owner API's calls on one site, `/api/owner/sites/:siteId/...`: the prefix,
 * the module's OpenAPI tags, the `:siteId` params and the access checks are given once per module.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import { SiteParams, ownerRead, ownerWrite } from "../modules/owner-sites/access.js";

/** Where every owner call on a site starts. */
export const SITE_API = "/api/owner/sites/:siteId";

type PreHandler = RouteShorthandOptions["preHandler"];

export interface SiteRoutesOptions {
  /** The OpenAPI tags of every route. */
  tags: string[];
  /** The preHandlers of GET routes (`ownerRead` unless given). */
  read?: PreHandler;
  /** The preHandlers of the routes that change something (`ownerWrite` unless given). */
  write?: PreHandler;
}

/** Registers one call: its path under the site, its schema (`params` is `SiteParams` unless given) and its handler. */
export type SiteRoute = (
  path: string,
  schema: Omit<FastifySchema, "tags">,
  handler: RouteHandlerMethod,
) => void;

/** The registrars of a module's owner calls on a site, one per HTTP method: GET reads, the others write. */
export function siteRoutes(
  app: FastifyInstance,
  { tags, read = ownerRead, write = ownerWrite }: SiteRoutesOptions,
) {
  const route =
    (method: HTTPMethods): SiteRoute =>
    (path, schema, handler) => {
      app.route({
        method,
        url: `${SITE_API}${path}`,
        preHandler: method === "GET" ? read : write,
        schema: { tags, params: SiteParams, ...schema },
        handler,
      });
    };
  return {
    get: route("GET"),
    post: route("POST"),
    put: route("PUT"),
    patch: route("PATCH"),
    delete: route("DELETE"),
  };
}

/** One path parameter of a request, as its params schema checked it. */
export function pathParam(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name];
}
