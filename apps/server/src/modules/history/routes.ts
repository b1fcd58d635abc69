/**
 * The owner API of version history: the versions of a page, item, product, the design, a template,
 * the navigation or the settings; one version's content; a comparison of two; a restore. Each call
 * needs the permission of the area the entity belongs to (content, products, design, settings).
 */
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { badRequest } from "../../http/errors.js";
import { Id } from "../../http/schemas.js";
import { pathParam, siteApiRoutes, siteParams } from "../../http/site-routes.js";
import { requireKeyPermission } from "../api-keys/service.js";
import { ANY_MEMBER, type Area } from "../members/permissions.js";
import { requirePermission, siteOf } from "../owner-sites/access.js";
import type { EntityType } from "./entities.js";
import {
  compareVersions,
  entityOfVersion,
  getVersion,
  listVersions,
  parseEntity,
  restoreVersion,
} from "./service.js";
import { changeContextHook } from "./context.js";
import { TRASH_TYPES, type TrashType, deleteFromTrash, listTrash, restoreFromTrash } from "./trash.js";
import "./jobs.js";
import { versionView } from "./view.js";
import { VERSION_VIEW_HEADER, withVersionView } from "../../render/version-view.js";
import { rewriteForFrame } from "../dashboard/frame.js";

const tags = ["owner: history"];

/** The area whose permission reads or restores an entity's history. */
export const AREA_OF: Record<EntityType, Area> = {
  page: "content",
  item: "content",
  navigation: "content",
  product: "products",
  design: "design",
  template: "design",
  settings: "settings",
};

/** Refuses a member whose roles, or an API key whose scopes, lack the area's permission (the Owner has them all). */
export function requireArea(request: FastifyRequest, area: Area, write: boolean): void {
  const permission = `${area}.${write ? "write" : "read"}`;
  const member = request.member;
  if (member && !member.owner) requirePermission(member, permission);
  if (request.apiKey) requireKeyPermission(request.apiKey, permission);
}

const VersionParams = siteParams("versionId");
const Actor = Type.Object({
  type: Type.String(),
  id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
});
const Version = Type.Object({
  id: Type.String(),
  at: Type.String({ format: "date-time" }),
  kind: Type.String(),
  actor: Actor,
  summary: Type.String(),
});
const Change = Type.Object({
  path: Type.String(),
  change: Type.String(),
  before: Type.Optional(Type.Unknown()),
  after: Type.Optional(Type.Unknown()),
  text: Type.Optional(Type.Array(Type.Object({ op: Type.String(), text: Type.String() }))),
});

/** The area whose permission sees and restores each kind of thing in the trash. */
export const TRASH_AREA: Record<TrashType, Area> = {
  page: "content",
  collection: "content",
  item: "content",
  media: "content",
  product: "products",
  form: "forms",
};

const TrashParams = Type.Object({ siteId: Id, entityType: Type.String({ maxLength: 40 }), id: Id });
const TrashEntry = Type.Object({
  id: Type.String(),
  entityType: Type.String(),
  entityId: Type.String(),
  title: Type.String(),
  url: Type.String(),
  deletedAt: Type.String({ format: "date-time" }),
  purgeAfter: Type.String({ format: "date-time" }),
  deletedBy: Type.Optional(Type.String()),
});

/** The trash type of the path, refused in plain words when it is none; the member needs its area. */
function trashTypeOf(request: FastifyRequest, write: boolean): TrashType {
  const type = pathParam(request, "entityType");
  if (!(TRASH_TYPES as readonly string[]).includes(type))
    throw badRequest(`The type is one of ${TRASH_TYPES.join(", ")}.`, { entityType: "Unknown type" });
  requireArea(request, TRASH_AREA[type as TrashType], write);
  return type as TrashType;
}

export const historyRoutes: FastifyPluginAsync = async (app) => {
  const { db, media } = app.deps;
  const site = siteApiRoutes(app, { tags });

  site.get(
    "/history",
    {
      summary:
        "The versions of a page, item, product, the design, a template, the navigation or the settings, newest first",
      description:
        "`entity` is `<type>:<id>`: `page`, `item`, `product`, `template` (by name) with their id; `design`, `navigation` and `settings` with the site's id. 50 versions a page; pass `nextCursor` as `cursor` for the next.",
      querystring: Type.Object(
        {
          // Checked after the site (a stranger's call answers "No such site." whatever it sends).
          entity: Type.Optional(Type.String({ maxLength: 300 })),
          cursor: Type.Optional(Id),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Type.Object({
          versions: Type.Array(Version),
          nextCursor: Type.Union([Type.String(), Type.Null()]),
        }),
      },
    },
    async (request) => {
      const q = request.query as { entity?: string; cursor?: string };
      const e = parseEntity(q.entity ?? "", siteOf(request).id);
      requireArea(request, AREA_OF[e.type], false);
      return listVersions(db, siteOf(request).id, e, q.cursor);
    },
    ANY_MEMBER,
  );

  site.get(
    "/history/compare",
    {
      summary: "What changed from one version to another (or to the current state when `to` is left out)",
      querystring: Type.Object(
        { from: Type.Optional(Id), to: Type.Optional(Id) },
        { additionalProperties: false },
      ),
      response: { 200: Type.Object({ from: Type.String(), to: Type.String(), changes: Type.Array(Change) }) },
    },
    async (request) => {
      const q = request.query as { from?: string; to?: string };
      if (!q.from) throw badRequest("Name the version to compare from.", { from: "Required" });
      const e = await entityOfVersion(db, siteOf(request).id, q.from);
      requireArea(request, AREA_OF[e.type], false);
      return compareVersions(db, siteOf(request).id, q.from, q.to);
    },
    ANY_MEMBER,
  );

  site.get(
    "/history/:versionId",
    {
      summary: "One version: who made it, when, and the full content of that moment",
      params: VersionParams,
      response: {
        200: Type.Object({
          version: Version,
          entity: Type.String(),
          content: Type.Record(Type.String(), Type.Unknown()),
        }),
      },
    },
    async (request) => {
      const id = pathParam(request, "versionId");
      const e = await entityOfVersion(db, siteOf(request).id, id);
      requireArea(request, AREA_OF[e.type], false);
      return getVersion(db, siteOf(request).id, id);
    },
    ANY_MEMBER,
  );

  site.get(
    "/history/:versionId/view",
    {
      summary: "A page or post version rendered by the site, read-only: the HTML of the page as it was",
      description:
        "The site's theme, header, footer and design of today around the version's content, for the History panel's preview. Only versions of pages (`page`) and posts, events and gallery items (`item`) can be shown.",
      params: VersionParams,
      response: {
        200: {
          description: "The page's HTML",
          content: { "text/html": { schema: Type.String() } },
        },
      },
    },
    async (request, reply) => {
      const site = siteOf(request);
      const id = pathParam(request, "versionId");
      const e = await entityOfVersion(db, site.id, id);
      requireArea(request, AREA_OF[e.type], false);
      const { content } = await getVersion(db, site.id, id);
      const { view, path } = await versionView(db, site.id, e, content);
      const res = await withVersionView(view, (token) =>
        app.inject({
          method: "GET",
          url: path,
          headers: {
            host: `${site.identifier}.localhost`,
            [VERSION_VIEW_HEADER]: token,
            "user-agent": request.headers["user-agent"] ?? "",
            accept: "text/html",
          },
        }),
      );
      reply
        .status(res.statusCode)
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-store");
      // The page's own policy, with the nonce its scripts carry.
      const csp = res.headers["content-security-policy"];
      if (typeof csp === "string") reply.header("content-security-policy", csp);
      return reply.send(rewriteForFrame(res.body, site.id));
    },
    ANY_MEMBER,
  );

  site.post(
    "/history/:versionId/restore",
    {
      summary: "Restores a version: it becomes the current state, recorded as a new version",
      description:
        "A page is restored to its draft, or published at once with `publish: true`. History is never rewritten: the restore is a version of its own.",
      params: VersionParams,
      body: Type.Object({ publish: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
      response: { 200: Type.Object({ version: Version }) },
    },
    async (request) => {
      const id = pathParam(request, "versionId");
      const e = await entityOfVersion(db, siteOf(request).id, id);
      requireArea(request, AREA_OF[e.type], true);
      const body = (request.body ?? {}) as { publish?: boolean };
      return { version: await restoreVersion(db, siteOf(request).id, id, body.publish === true) };
    },
    ANY_MEMBER,
  );

  site.get(
    "/trash",
    {
      summary:
        "What was deleted in the last 30 days (pages, collections, items, products, forms, media files)",
      response: { 200: Type.Object({ entries: Type.Array(TrashEntry) }) },
    },
    async (request) => {
      const member = request.member;
      const entries = await listTrash(db, siteOf(request).id);
      const sees = (type: string) => {
        if (!member || member.owner) return true;
        try {
          requirePermission(member, `${TRASH_AREA[type as TrashType]}.read`);
          return true;
        } catch {
          return false;
        }
      };
      return { entries: entries.filter((e) => sees(e.entityType)) };
    },
    ANY_MEMBER,
  );

  site.post(
    "/trash/:entityType/:id/restore",
    {
      summary: "Brings something back from the trash with everything it took along",
      description:
        "A page comes back with its items, a product with its variants, images, categories, stock and URL. When another took its URL meanwhile, it gets a free variant of it and `notice` says so.",
      params: TrashParams,
      response: { 200: Type.Object({ restored: TrashEntry, notice: Type.Optional(Type.String()) }) },
    },
    async (request) => {
      const type = trashTypeOf(request, true);
      return restoreFromTrash(db, siteOf(request).id, type, pathParam(request, "id"));
    },
    ANY_MEMBER,
  );

  site.delete(
    "/trash/:entityType/:id",
    {
      summary: "Deletes something in the trash for good, now (media files included)",
      params: TrashParams,
      response: { 200: Type.Object({ ok: Type.Boolean() }) },
    },
    async (request) => {
      const type = trashTypeOf(request, true);
      await deleteFromTrash(db, media, siteOf(request).id, type, pathParam(request, "id"));
      return { ok: true };
    },
    ANY_MEMBER,
  );
};

/** Names who makes each request's changes (registered once, on the root app). */
export { changeContextHook };
