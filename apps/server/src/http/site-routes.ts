/**
 * Route registration for groups of routes that share tags, a path prefix, params and access
 * checks, above all the owner API's calls on one site, `/api/owner/sites/:siteId/...`.
 */
import type {
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  HTTPMethods,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from "fastify";
import { type TSchema, Type } from "@sinclair/typebox";
import { SiteParams, ownerRead, ownerWrite } from "../modules/owner-sites/access.js";
import { Id } from "./schemas.js";
import type { Area, RoutePermission } from "../modules/members/permissions.js";

/** Where every owner call on a site starts. */
const SITE_API = "/api/owner/sites/:siteId";

type PreHandler = RouteShorthandOptions["preHandler"];

interface RouteGroupOptions {
  /** The OpenAPI tags of every route. */
  tags: string[];
  /** The preHandlers of GET routes. */
  read?: PreHandler;
  /** The preHandlers of the routes that change something. */
  write?: PreHandler;
  /** What every path starts with. */
  prefix?: string;
  /** The params schema of every route, unless a route gives its own. */
  params?: TSchema;
  /**
   * The area of the site the routes work on: GET routes declare `<area>.read`, the others
   * `<area>.write` (`config.permission`, checked by `requireSite`) unless a route names its own.
   */
  area?: Area;
  /** Calls only a person signed in to the dashboard makes (their own drafts): API keys are refused. */
  personOnly?: boolean;
}

/** Registers one call: its path after the prefix, its schema (tags and default params added) and its handler. */
type GroupRoute = (
  path: string,
  schema: Omit<FastifySchema, "tags">,
  handler: RouteHandlerMethod,
  permission?: RoutePermission,
) => void;

/**
 * The registrars, one per HTTP method, of a group of routes that share their tags, path prefix,
 * params and access checks: GET routes get the `read` preHandlers, the others the `write` ones.
 */
export function routeGroup(
  app: FastifyInstance,
  { tags, read, write, prefix = "", params, area, personOnly }: RouteGroupOptions,
) {
  const route =
    (method: HTTPMethods): GroupRoute =>
    (path, schema, handler, permission) => {
      const declared = permission ?? (area && (`${area}.${method === "GET" ? "read" : "write"}` as const));
      app.route({
        method,
        url: `${prefix}${path}`,
        preHandler: method === "GET" ? read : write,
        ...(declared ? { config: { permission: declared, ...(personOnly ? { personOnly } : {}) } } : {}),
        schema: params ? { tags, params, ...schema } : { tags, ...schema },
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

/**
 * The registrars of a module's owner calls on a site: under `SITE_API`, with `SiteParams`, reading
 * with `ownerRead` and writing with `ownerWrite` unless the module gives its own checks.
 */
export function siteApiRoutes(
  app: FastifyInstance,
  { tags, read = ownerRead, write = ownerWrite, ...rest }: Omit<RouteGroupOptions, "prefix" | "params">,
) {
  return routeGroup(app, { tags, read, write, prefix: SITE_API, params: SiteParams, ...rest });
}

/** The params of a call on records of a site: `siteId`, then each named id (all 24 hex digits). */
export function siteParams(...ids: string[]) {
  return Type.Object({ siteId: Id, ...Object.fromEntries(ids.map((name) => [name, Id])) });
}

/** One path parameter of a request, as its params schema checked it. */
export function pathParam(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name];
}
