import multipart from "@fastify/multipart";
import { Type } from "@sinclair/typebox";
import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { badRequest, forbidden, noSuchFile } from "../../http/errors.js";
import { requireOwner } from "../../http/owner-auth.js";
import { IMMUTABLE } from "../../media/s3.js";
import { publicUrlOf } from "../../media/store.js";
import { membershipOf, requirePermission } from "../owner-sites/access.js";
import { mediaById } from "../content/service.js";
import { websiteForHost } from "../sites/service.js";
import {
  FILE_TOO_LARGE,
  MAX_UPLOAD_BYTES,
  type Media,
  NOT_AN_IMAGE,
  listMedia,
  parseVariant,
  ensureVariant,
  deleteMedia,
  updateMedia,
  uploadImage,
  type VariantWidth,
  variantWidthsFor,
} from "./service.js";
import { mediaUrl } from "./storage.js";
import { Id } from "../../http/schemas.js";

const MediaJson = Type.Object({
  id: Type.String(),
  assetUrl: Type.String(),
  filename: Type.String(),
  title: Type.String(),
  contentType: Type.String(),
  originalSize: Type.String(),
  byteSize: Type.Integer(),
  mediaFocalPoint: Type.Object({ x: Type.Number(), y: Type.Number() }),
  colorData: Type.Optional(Type.Record(Type.String(), Type.String())),
  systemDataVariants: Type.String(),
  /** Placeholder artwork a starter brought (docs/starters.md). */
  isSample: Type.Boolean(),
});

function mediaJson(m: Media) {
  return {
    id: m.id,
    assetUrl: mediaUrl(m.id, m.filename),
    filename: m.filename,
    title: m.title,
    contentType: m.contentType,
    originalSize: `${m.width}x${m.height}`,
    byteSize: m.byteSize,
    mediaFocalPoint: { x: m.focalX, y: m.focalY },
    colorData: m.colorData ?? undefined,
    systemDataVariants: variantWidthsFor(m.width)
      .map((w) => `${w}w`)
      .join(","),
    isSample: m.isSample,
  };
}

const SiteParams = Type.Object({ websiteId: Id });

/** The owner must be a member of the website named in the path. */
async function ownedWebsite(request: FastifyRequest): Promise<string> {
  const { websiteId } = request.params as { websiteId: string };
  if (request.apiKey) return websiteId;
  const member = await membershipOf(request.server.deps.db, request.owner!.id, websiteId).catch(() => {
    throw forbidden("You do not have access to this website.");
  });
  if (!member.member.owner) requirePermission(member.member, request.routeOptions.config.permission);
  return websiteId;
}

/** Media files of published sites (with their responsive variants) and the owner's media library. */
export const mediaRoutes: FastifyPluginAsync = async (app) => {
  const { db, config, media: store } = app.deps;
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 } });

  /** The file to serve: the variant asked for (made now if need be), else the original. */
  async function servedFile(request: FastifyRequest, m: Media, width: VariantWidth | undefined) {
    if (width) {
      try {
        return { key: await ensureVariant(store, m, width), type: "image/webp" };
      } catch (err) {
        request.log.warn({ err, media: m.id }, "could not make an image variant; serving the original");
      }
    }
    return { key: m.storagePath, type: m.contentType };
  }

  app.get(
    "/media/:id/:filename",
    {
      schema: {
        hide: true,
        params: Type.Object({
          id: Id,
          filename: Type.String({ maxLength: 300 }),
        }),
        querystring: Type.Object(
          { format: Type.Optional(Type.String({ maxLength: 20 })) },
          { additionalProperties: true },
        ),
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const { format } = request.query as { format?: string };
      const [m, site] = await Promise.all([mediaById(db, id), websiteForHost(db, request.headers.host)]);
      if (!m || !site || m.websiteId !== site.id) throw noSuchFile();
      const { key, type } = await servedFile(request, m, parseVariant(format));
      if (config.mediaPublicUrl) {
        // A CDN or public bucket serves the file itself; the key of an image never changes.
        return reply
          .header("cache-control", "public, max-age=86400")
          .redirect(publicUrlOf(config.mediaPublicUrl, key), 302);
      }
      const file = await store.open(key);
      if (!file) throw noSuchFile();
      reply
        .header("content-type", type)
        .header("content-length", file.size)
        .header("cache-control", IMMUTABLE)
        .header("x-content-type-options", "nosniff");
      // An SVG opened directly must not run scripts on the site's origin.
      if (type === "image/svg+xml")
        reply.header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox");
      return reply.send(file.body);
    },
  );

  app.get(
    "/api/owner/websites/:websiteId/media",
    {
      preHandler: requireOwner,
      config: { permission: "content.read" },
      schema: {
        tags: ["media"],
        params: SiteParams,
        response: { 200: Type.Object({ media: Type.Array(MediaJson) }) },
      },
    },
    async (request) => {
      const websiteId = await ownedWebsite(request);
      return { media: (await listMedia(db, websiteId)).map(mediaJson) };
    },
  );

  app.post(
    "/api/owner/websites/:websiteId/media",
    {
      preHandler: [requireOwner, requireCrumb],
      config: { permission: "content.write" },
      schema: {
        tags: ["media"],
        description: "Upload an image (multipart/form-data, field `file`, optional field `title`).",
        params: SiteParams,
        response: { 201: Type.Object({ media: MediaJson }) },
      },
    },
    async (request, reply) => {
      const websiteId = await ownedWebsite(request);
      if (!request.isMultipart())
        throw badRequest("Send the image as multipart/form-data in the field file.");
      let upload: { filename: string; bytes: Buffer } | undefined;
      let title: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type === "file") {
            if (part.fieldname !== "file" || upload) {
              await part.toBuffer();
              continue;
            }
            const bytes = await part.toBuffer();
            upload = { filename: part.filename, bytes };
          } else if (part.fieldname === "title" && typeof part.value === "string") {
            title = part.value;
          }
        }
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === "FST_REQ_FILE_TOO_LARGE") throw badRequest(FILE_TOO_LARGE);
        throw badRequest(NOT_AN_IMAGE);
      }
      if (!upload) throw badRequest("Send the image as multipart/form-data in the field file.");
      const m = await uploadImage(db, store, websiteId, { ...upload, title });
      return reply.status(201).send({ media: mediaJson(m) });
    },
  );

  app.patch(
    "/api/owner/websites/:websiteId/media/:id",
    {
      preHandler: [requireOwner, requireCrumb],
      config: { permission: "content.write" },
      schema: {
        tags: ["media"],
        params: Type.Object({
          websiteId: Id,
          id: Id,
        }),
        body: Type.Object(
          {
            title: Type.Optional(Type.String({ maxLength: 300 })),
            mediaFocalPoint: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number() })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ media: MediaJson }) },
      },
    },
    async (request) => {
      const websiteId = await ownedWebsite(request);
      const { id } = request.params as { id: string };
      const body = request.body as { title?: string; mediaFocalPoint?: { x: number; y: number } };
      const m = await updateMedia(db, websiteId, id, {
        title: body.title,
        focalX: body.mediaFocalPoint?.x,
        focalY: body.mediaFocalPoint?.y,
      });
      return { media: mediaJson(m) };
    },
  );

  app.delete(
    "/api/owner/websites/:websiteId/media/:id",
    {
      preHandler: [requireOwner, requireCrumb],
      config: { permission: "content.write" },
      schema: {
        tags: ["media"],
        summary: "Moves a media file to the trash (restorable for 30 days, then deleted with its files)",
        params: Type.Object({ websiteId: Id, id: Id }),
        response: { 200: Type.Object({ ok: Type.Boolean() }) },
      },
    },
    async (request) => {
      const websiteId = await ownedWebsite(request);
      await deleteMedia(db, websiteId, (request.params as { id: string }).id);
      return { ok: true };
    },
  );
};
