/**
 * Developer mode's owner API (Design → Templates, `jsont pull|push`): the theme's templates, the
 * site's overrides of them, and an owner's drafts for the editing frame. The owner's session (with
 * the crumb on changes) opens every call; an API key of the site with the templates.read or
 * templates.write scope opens the list, get, save and revert calls, for the CLI.
 */
import { setActor } from "../history/context.js";
import { Type } from "@sinclair/typebox";
import { eq } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { websites } from "../../db/schema.js";
import { requireCrumb } from "../../http/crumb.js";
import { notFound } from "../../http/errors.js";
import { pathParam, siteApiRoutes } from "../../http/site-routes.js";
import { Themes } from "../../render/themes.js";
import type { ApiScope } from "@atelier/owner-api";
import { authenticate, requireScope } from "../api-keys/service.js";
import { Id } from "../../http/schemas.js";
import { NO_SUCH_SITE, requireSite, siteOf } from "../owner-sites/access.js";
import {
  TemplateSyntaxError,
  dropDrafts,
  getTemplate,
  listTemplates,
  revertTemplate,
  saveDraft,
  saveTemplate,
} from "./service.js";

const tags = ["owner: templates"];
const Name = Type.String({ pattern: "^[a-z0-9][a-z0-9.-]{0,99}$" });
const NameParams = Type.Object({ siteId: Id, name: Name });
const Source = Type.Object(
  { source: Type.String({ maxLength: 1_000_000 }) },
  { additionalProperties: false },
);
const TemplateJson = Type.Object({
  name: Type.String(),
  source: Type.String(),
  themeSource: Type.String(),
  overridden: Type.Boolean(),
});
const SyntaxErrorJson = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    fields: Type.Optional(Type.Record(Type.String(), Type.String())),
    line: Type.Optional(Type.Integer()),
    column: Type.Optional(Type.Integer()),
  }),
});

/**
 * preHandler: an API key of the site in `Authorization: Bearer …` with the scope (templates.write
 * also reads), else the owner's session (and the crumb on a change).
 */
function ownerOrKey(scope: ApiScope) {
  return async (request: FastifyRequest) => {
    if (!/^Bearer\s/i.test(request.headers.authorization ?? "")) {
      if (request.method !== "GET") await requireCrumb(request);
      return requireSite(request);
    }
    const { db, clock } = request.server.deps;
    const caller = await authenticate(db, request.headers.authorization, clock.now());
    const siteId = (request.params as { siteId: string }).siteId;
    if (caller.websiteId !== siteId) throw notFound(NO_SUCH_SITE);
    if (!(scope === "templates.read" && caller.scopes.includes("templates.write")))
      requireScope(caller, scope);
    const [site] = await db.select().from(websites).where(eq(websites.id, siteId));
    if (!site) throw notFound(NO_SUCH_SITE);
    request.site = site;
    setActor({ type: "api_key", id: caller.keyId });
  };
}

const ownerOnly = [requireCrumb, requireSite];

export const templateRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;
  const themes = new Themes();
  const themeOf = (request: FastifyRequest) => themes.forSite(siteOf(request));
  const nameOf = (request: FastifyRequest) => pathParam(request, "name");
  const sourceOf = (request: FastifyRequest) => (request.body as { source: string }).source;
  const withSyntaxErrors = async <T>(reply: FastifyReply, run: () => Promise<T>) => {
    try {
      return await run();
    } catch (err) {
      if (err instanceof TemplateSyntaxError) return reply.status(400).send(err.body());
      throw err;
    }
  };

  const site = siteApiRoutes(app, {
    tags,
    area: "design",
    read: ownerOrKey("templates.read"),
    write: ownerOrKey("templates.write"),
  });
  const drafts = siteApiRoutes(app, { tags, area: "design", write: ownerOnly });

  site.get(
    "/templates",
    {
      summary:
        "The theme's JSON-T templates (site, page types, blocks, partials), marked when the site overrides one",
      response: {
        200: Type.Object({
          templates: Type.Array(Type.Object({ name: Type.String(), overridden: Type.Boolean() })),
        }),
      },
    },
    async (request) => ({ templates: await listTemplates(db, siteOf(request).id, themeOf(request)) }),
  );

  site.get(
    "/templates/:name",
    {
      summary: "A template: the site's source (its override, else the theme's) and the theme's",
      params: NameParams,
      response: { 200: TemplateJson },
    },
    async (request) => getTemplate(db, siteOf(request).id, themeOf(request), nameOf(request)),
  );

  site.put(
    "/templates/:name",
    {
      summary:
        "Saves the site's version of a template, live at once; a syntax error answers 400 with its line and column and saves nothing",
      params: NameParams,
      body: Source,
      response: { 200: TemplateJson, 400: SyntaxErrorJson },
    },
    (request, reply) =>
      withSyntaxErrors(reply, () =>
        saveTemplate(db, siteOf(request).id, themeOf(request), nameOf(request), sourceOf(request)),
      ),
  );

  site.delete(
    "/templates/:name",
    {
      summary: "Reverts a template to the theme's version",
      params: NameParams,
      response: { 200: TemplateJson },
    },
    async (request) => revertTemplate(db, siteOf(request).id, themeOf(request), nameOf(request)),
  );

  drafts.put(
    "/templates/:name/draft",
    {
      summary:
        "Keeps the owner's unsaved edit of a template, shown only in this owner's editing frame (the preview cookie)",
      params: NameParams,
      body: Source,
    },
    async (request) => {
      await saveDraft(
        db,
        siteOf(request).id,
        request.owner!.id,
        themeOf(request),
        nameOf(request),
        sourceOf(request),
        app.deps.clock.now(),
      );
      return { ok: true };
    },
  );

  drafts.delete(
    "/templates/:name/draft",
    { summary: "Drops the owner's unsaved edit of a template", params: NameParams },
    async (request) => {
      await dropDrafts(db, siteOf(request).id, request.owner!.id, nameOf(request));
      return { ok: true };
    },
  );
};
