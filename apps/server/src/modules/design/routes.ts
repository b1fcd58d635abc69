/**
 * Design: the owner API (GET and PATCH /api/owner/sites/:siteId/design) and the files a published
 * page links: self-hosted font files, the site's custom CSS, its icons and the theme screenshots.
 */
import { createReadStream } from "node:fs";
import { type Static, type TNumber, type TString, Type } from "@sinclair/typebox";
import type { FastifyPluginAsync } from "fastify";
import { noSuchFile } from "../../http/errors.js";
import { mediaById } from "../content/service.js";
import { SiteParams, ownerRead, ownerWrite, siteOf } from "../owner-sites/access.js";
import { websiteForHost } from "../sites/service.js";
import { fontFileByName } from "./fonts.js";
import { iconBytes, parseIconName } from "./icons.js";
import { screenshotOf } from "./screenshots.js";
import {
  type DesignPatch,
  customCssOf,
  customCssUrl,
  getDesign,
  previewStyles,
  updateDesign,
} from "./service.js";
import { BUTTON_SHAPES, BUTTON_STYLES, COLOR_KEYS, SPACINGS } from "@atelier/owner-api";

const tags = ["owner: design"];
const IMMUTABLE = "public, max-age=31536000, immutable";
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
/**
 * A string or number that may be null. One `type` list rather than anyOf: the validator coerces
 * types, and in an anyOf it would turn null into "" or 0 before the null branch is tried.
 */
const OrNull = <T extends TString | TNumber>(t: T) =>
  Type.Unsafe<Static<T> | null>({ ...t, type: [t.type, "null"] });
const Color = Type.String({ maxLength: 50, description: "#rgb or #rrggbb" });
const FontId = Type.String({ maxLength: 50, description: "an id from `fonts`" });
const Choice = (values: readonly string[]) => Type.String({ maxLength: 20, description: values.join(" | ") });

const StylesOut = Type.Object({
  colors: Type.Object(Object.fromEntries(COLOR_KEYS.map((k) => [k, Color]))),
  fonts: Type.Object({ heading: FontId, body: FontId }),
  fontSizeBase: Type.Number({ description: "px, 14–22" }),
  headingScale: Type.Number({ description: "1.1–1.6" }),
  contentWidth: Type.Number({ description: "px, 720–1600" }),
  spacing: Choice(SPACINGS),
  buttonShape: Choice(BUTTON_SHAPES),
  buttonStyle: Choice(BUTTON_STYLES),
});

/** Any part of the style model; null puts a key (or a whole group) back to the theme's default. */
const StylesPatch = Type.Object(
  {
    colors: Type.Optional(
      Nullable(Type.Object(Object.fromEntries(COLOR_KEYS.map((k) => [k, Type.Optional(OrNull(Color))])))),
    ),
    fonts: Type.Optional(
      Nullable(Type.Object({ heading: Type.Optional(OrNull(FontId)), body: Type.Optional(OrNull(FontId)) })),
    ),
    fontSizeBase: Type.Optional(OrNull(Type.Number())),
    headingScale: Type.Optional(OrNull(Type.Number())),
    contentWidth: Type.Optional(OrNull(Type.Number())),
    spacing: Type.Optional(OrNull(Choice(SPACINGS))),
    buttonShape: Type.Optional(OrNull(Choice(BUTTON_SHAPES))),
    buttonStyle: Type.Optional(OrNull(Choice(BUTTON_STYLES))),
  },
  { description: "Partial styles, deep-merged into the site's; null resets to the theme default." },
);

const MediaId = Type.String({ maxLength: 50, description: "a media id of this site's library" });
const Image = Nullable(Type.Object({ mediaId: Type.String(), url: Type.String() }));

const DesignOut = Type.Object({
  theme: Type.String(),
  themes: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      description: Type.String(),
      screenshotUrl: Nullable(Type.String()),
      websiteTypes: Type.Array(Type.Integer()),
    }),
  ),
  styles: StylesOut,
  overrides: Type.Object({}, { additionalProperties: true, description: "what the site changed" }),
  defaults: StylesOut,
  warnings: Type.Array(Type.Object({ field: Type.String(), message: Type.String() })),
  customCss: Type.String(),
  customCssUrl: Nullable(Type.String()),
  logo: Nullable(
    Type.Object({
      mediaId: Type.String(),
      url: Type.String(),
      alt: Type.String(),
      maxHeight: Type.Integer(),
    }),
  ),
  siteIcon: Image,
  socialImage: Image,
  fonts: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), category: Type.String() })),
});

const PatchBody = Type.Object(
  {
    theme: Type.Optional(Type.String({ maxLength: 50 })),
    styles: Type.Optional(Nullable(StylesPatch)),
    customCss: Type.Optional(OrNull(Type.String({ maxLength: 1_000_000, description: "at most 100 KB" }))),
    logoMediaId: Type.Optional(OrNull(MediaId)),
    logoAlt: Type.Optional(OrNull(Type.String({ maxLength: 1000 }))),
    logoMaxHeight: Type.Optional(OrNull(Type.Number({ description: "px, 24–200" }))),
    siteIconMediaId: Type.Optional(OrNull(MediaId)),
    socialImageMediaId: Type.Optional(OrNull(MediaId)),
  },
  { additionalProperties: false },
);

const FileParams = Type.Object({ file: Type.String({ maxLength: 100 }) });
export const designRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app.deps;

  app.get(
    "/api/owner/sites/:siteId/design",
    {
      preHandler: ownerRead,
      config: { permission: "design.read" },
      schema: {
        tags,
        description:
          "The site's theme, styles (with the theme's defaults), custom CSS, logo, icon and sharing image.",
        params: SiteParams,
        response: { 200: DesignOut },
      },
    },
    async (request) => getDesign(db, siteOf(request)),
  );

  app.patch(
    "/api/owner/sites/:siteId/design",
    {
      preHandler: ownerWrite,
      config: { permission: "design.write", rateLimit: { max: 120, timeWindow: "1 minute" } },
      schema: {
        tags,
        description:
          "Changes any part of the design. A bad colour, font, theme, image or CSS answers 400 with the field's message and saves nothing. Live on the published site at once.",
        params: SiteParams,
        body: PatchBody,
        response: { 200: DesignOut },
      },
    },
    async (request) => updateDesign(db, siteOf(request), request.body as DesignPatch),
  );

  app.post(
    "/api/owner/sites/:siteId/design/preview",
    {
      preHandler: ownerWrite,
      config: { permission: "design.write", rateLimit: { max: 600, timeWindow: "1 minute" } },
      schema: {
        tags,
        description:
          "The CSS (font faces and the :root block) that a change of styles would give, without saving it: the editing frame's live preview. Bad styles answer 400 as PATCH does.",
        params: SiteParams,
        body: Type.Object({ styles: Nullable(StylesPatch) }, { additionalProperties: false }),
        response: { 200: Type.Object({ styles: StylesOut, css: Type.String() }) },
      },
    },
    async (request) =>
      previewStyles(db, siteOf(request), (request.body as { styles: Record<string, unknown> | null }).styles),
  );

  app.get("/assets/fonts/:file", { schema: { hide: true, params: FileParams } }, async (request, reply) => {
    const f = fontFileByName((request.params as { file: string }).file);
    if (!f) throw noSuchFile();
    return reply
      .type("font/woff2")
      .header("cache-control", IMMUTABLE)
      .header("access-control-allow-origin", "*")
      .send(createReadStream(f.file));
  });

  app.get(
    "/assets/site-css/:file",
    { schema: { hide: true, params: FileParams } },
    async (request, reply) => {
      const m = /^custom\.([a-f0-9]{12})\.css$/.exec((request.params as { file: string }).file);
      const site = m ? await websiteForHost(db, request.headers.host) : undefined;
      if (!m || !site) throw noSuchFile();
      const css = await customCssOf(db, site.id);
      if (!css) throw noSuchFile();
      const current = customCssUrl(css).endsWith(`.${m[1]}.css`);
      return reply
        .type("text/css; charset=utf-8")
        .header("cache-control", current ? IMMUTABLE : "no-cache")
        .header("x-content-type-options", "nosniff")
        .send(css);
    },
  );

  app.get(
    "/assets/site-icons/:file",
    { schema: { hide: true, params: FileParams } },
    async (request, reply) => {
      const icon = parseIconName((request.params as { file: string }).file);
      if (!icon) throw noSuchFile();
      const [m, site] = await Promise.all([
        mediaById(db, icon.mediaId),
        websiteForHost(db, request.headers.host),
      ]);
      if (!m || !site || m.websiteId !== site.id) throw noSuchFile();
      const png = await iconBytes(app.deps.media, m, icon.size).catch((err) => {
        request.log.warn({ err, media: m.id }, "could not make a site icon");
        return undefined;
      });
      if (!png) throw noSuchFile();
      return reply.type("image/png").header("cache-control", IMMUTABLE).send(png);
    },
  );

  app.get(
    "/assets/theme-screenshots/:file",
    { schema: { hide: true, params: FileParams } },
    async (request, reply) => {
      const m = /^([a-z]+)\.([a-f0-9]{12})\.jpg$/.exec((request.params as { file: string }).file);
      const shot = m ? screenshotOf(m[1]!) : undefined;
      if (!shot) throw noSuchFile();
      return reply
        .type("image/jpeg")
        .header("cache-control", shot.hash === m![2] ? IMMUTABLE : "no-cache")
        .send(createReadStream(shot.file));
    },
  );
};
