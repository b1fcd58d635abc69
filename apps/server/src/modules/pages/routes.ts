import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { collectionKinds, folderBehaviors } from "../../db/enums.js";
import { COLLECTION_OPTION_FIELDS } from "./block-types.js";
import { type EditingMode, setEditingCookies } from "./preview.js";
import { Id } from "../../http/schemas.js";
import { siteOf } from "../owner-sites/access.js";
import { pathParam, siteParams, siteApiRoutes } from "../../http/site-routes.js";
import { ANY_MEMBER } from "../members/permissions.js";
import {
  blockTypes,
  createPage,
  deletePage,
  discardDraft,
  pageLayout,
  pageTree,
  publishPage,
  reorderPages,
  saveDraft,
  updatePage,
} from "./service.js";

const tags = ["owner: pages"];
const PageParams = siteParams("pageId");
/** A layout: rows of columns of blocks. Checked in depth by the service (block types, limits). */
const LayoutBody = Type.Object(
  {
    rows: Type.Array(
      Type.Object({
        columns: Type.Array(
          Type.Object({
            span: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
            blocks: Type.Array(
              Type.Object({ id: Type.String({ maxLength: 64 }), type: Type.String({ maxLength: 40 }) }),
            ),
          }),
          { maxItems: 12 },
        ),
      }),
      { maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);

/** The page tree, page settings and block layouts (drafts and Publish) of an owner's site. */
export const pageRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.deps;
  const secure = config.publicUrl.startsWith("https:");
  const site = siteApiRoutes(app, { tags, area: "content" });

  site.get(
    "/pages",
    {},
    async (request) => ({
      pages: await pageTree(db, siteOf(request).id),
      optionFields: COLLECTION_OPTION_FIELDS,
    }),
    // Every member reads the page tree: a Store manager's product screens pick a store page from it.
    ANY_MEMBER,
  );

  site.post(
    "/pages",
    {
      body: Type.Object(
        {
          kind: Type.Union(collectionKinds.map((k) => Type.Literal(k))),
          title: Type.String({ maxLength: 200 }),
          urlSlug: Type.Optional(Type.String({ maxLength: 2100 })),
          folderId: Type.Optional(Type.Union([Type.Null(), Id])),
        },
        { additionalProperties: false },
      ),
    },
    async (request, reply) => {
      const body = request.body as {
        kind: string;
        title: string;
        urlSlug?: string;
        folderId?: string | null;
      };
      const page = await createPage(db, siteOf(request).id, body);
      return reply.status(201).send({ page });
    },
  );

  site.put(
    "/pages/order",
    {
      body: Type.Object(
        {
          pages: Type.Array(Type.Object({ id: Id, folderId: Type.Union([Type.Null(), Id]) }), {
            maxItems: 1000,
          }),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => {
      const { pages } = request.body as { pages: { id: string; folderId: string | null }[] };
      return { pages: await reorderPages(db, siteOf(request).id, pages) };
    },
  );

  site.patch(
    "/pages/:pageId",
    {
      params: PageParams,
      body: Type.Object(
        {
          title: Type.Optional(Type.String({ maxLength: 1000 })),
          urlSlug: Type.Optional(Type.String({ maxLength: 2100 })),
          description: Type.Optional(Type.String({ maxLength: 10000 })),
          seoTitle: Type.Optional(Type.String({ maxLength: 1000 })),
          seoDescription: Type.Optional(Type.String({ maxLength: 2000 })),
          seoHidden: Type.Optional(Type.Boolean()),
          password: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 200 })])),
          hiddenFromNav: Type.Optional(Type.Boolean()),
          isHome: Type.Optional(Type.Boolean()),
          folderBehavior: Type.Optional(Type.Union(folderBehaviors.map((k) => Type.Literal(k)))),
          options: Type.Optional(
            Type.Record(Type.String({ maxLength: 60 }), Type.Unknown(), { maxProperties: 60 }),
          ),
        },
        { additionalProperties: false },
      ),
    },
    async (request) => ({
      page: await updatePage(db, siteOf(request).id, pathParam(request, "pageId"), request.body as never),
    }),
  );

  site.delete("/pages/:pageId", { params: PageParams }, async (request) => {
    await deletePage(db, siteOf(request).id, pathParam(request, "pageId"));
    return { ok: true };
  });

  site.get("/pages/:pageId/layout", { params: PageParams }, async (request) =>
    pageLayout(db, siteOf(request).id, pathParam(request, "pageId")),
  );

  site.put("/pages/:pageId/draft", { params: PageParams, body: LayoutBody }, async (request) =>
    saveDraft(db, siteOf(request).id, pathParam(request, "pageId"), request.body),
  );

  site.delete("/pages/:pageId/draft", { params: PageParams }, async (request) =>
    discardDraft(db, siteOf(request).id, pathParam(request, "pageId")),
  );

  site.post(
    "/pages/:pageId/publish",
    {
      params: PageParams,
      body: Type.Optional(
        Type.Object({ layout: Type.Optional(LayoutBody) }, { additionalProperties: false }),
      ),
    },
    async (request) => {
      const body = request.body as { layout?: unknown } | undefined;
      return publishPage(db, siteOf(request).id, pathParam(request, "pageId"), body?.layout);
    },
  );

  site.put(
    "/editing-mode",
    {
      description:
        "Sets the editing cookies of SPEC §9 for this browser: preview (drafts), override (see protected pages), expanded frame, disable-user-scripts (safe mode). They count only for owners of the site rendered.",
      body: Type.Object(
        {
          preview: Type.Optional(Type.Boolean()),
          override: Type.Optional(Type.Boolean()),
          expandedFrame: Type.Optional(Type.Boolean()),
          disableUserScripts: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false },
      ),
    },
    async (request, reply) => {
      const mode = request.body as Partial<EditingMode>;
      setEditingCookies(reply, mode, secure);
      return { ok: true, mode };
    },
  );

  site.get("/block-types", {}, async (request) => ({ blockTypes: await blockTypes(db, siteOf(request).id) }));
};
