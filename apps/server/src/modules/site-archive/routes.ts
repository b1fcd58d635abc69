/**
 * Owner API of site archives: export a site as one zip (streamed), import an archive as a new
 * site of the caller.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, open, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { requireCrumb } from "../../http/crumb.js";
import { Type } from "@sinclair/typebox";
import { ApiError, badRequest, notFound } from "../../http/errors.js";
import { requireOwner } from "../../http/owner-auth.js";
import { SiteParams, siteOf } from "../owner-sites/access.js";
import { pathParam, siteApiRoutes } from "../../http/site-routes.js";
import { siteJson } from "../owner-sites/service.js";
import { websites } from "../../db/schema.js";
import { eq } from "drizzle-orm";
import { exportSite } from "./export.js";
import { type ExportStatus, archivePath, exportStatus, startExport } from "./export-jobs.js";
import { importArchive, tooLarge } from "./import.js";
import { importProductsCsv, productsAsShopifyCsv } from "./product-csv.js";
import { importWxr } from "./wxr.js";
import { type WxrBundle, openWxrBundle } from "./wxr-bundle.js";

const tags = ["owner: site archives"];
const SEND_FILE = "Send the site archive as multipart/form-data in the field file.";

/** An archive's download name: `<identifier>-<YYYY-MM-DD>.atelier.zip`. */
const archiveFileName = (identifier: string, now: Date) =>
  `${identifier}-${now.toISOString().slice(0, 10)}.atelier.zip`;

/** Streams the upload's `file` part to a temporary file (refusing more than `max` bytes). */
async function receiveArchive(
  request: FastifyRequest,
  max: number,
  sendFile = SEND_FILE,
): Promise<{ file: string; dir: string }> {
  if (!request.isMultipart()) throw badRequest(sendFile, { file: "Required" });
  const dir = await mkdtemp(path.join(os.tmpdir(), "atelier-import-"));
  const file = path.join(dir, "archive.zip");
  let received = false;
  try {
    for await (const part of request.parts({ limits: { fileSize: max, files: 1, fields: 2 } })) {
      if (part.type !== "file") continue;
      if (part.fieldname !== "file" || received) {
        part.file.resume();
        continue;
      }
      await pipeline(part.file, createWriteStream(file));
      if (part.file.truncated) throw tooLarge(`uploads may be at most ${max} bytes`);
      received = true;
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE")
      throw tooLarge(`uploads may be at most ${max} bytes`);
    throw err;
  }
  if (!received) {
    await rm(dir, { recursive: true, force: true });
    throw badRequest(sendFile, { file: "Required" });
  }
  return { file, dir };
}

const TEXT_MAX_BYTES = 50 * 1024 * 1024;
const textTooLarge = () =>
  new ApiError(413, "too_large", `The file is too large: at most ${TEXT_MAX_BYTES} bytes.`, {
    file: "Too large",
  });

/** A WXR upload: the bare `.xml`, or a zip bundling it with its uploads (told apart by content). */
async function openWxrUpload(
  file: string,
  maxUnpackedBytes: number,
): Promise<{ xml: string; bundle?: WxrBundle }> {
  const handle = await open(file);
  const head = Buffer.alloc(4);
  try {
    await handle.read(head, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (head.toString("latin1", 0, 2) === "PK") {
    const bundle = await openWxrBundle(file, { maxUnpackedBytes, maxXmlBytes: TEXT_MAX_BYTES });
    return { xml: bundle.xml, bundle };
  }
  if ((await stat(file)).size > TEXT_MAX_BYTES) throw textTooLarge();
  return { xml: await readFile(file, "utf8") };
}

/** The upload's `file` part as text (WXR and CSV files), at most TEXT_MAX_BYTES. */
async function receiveText(request: FastifyRequest, what: string): Promise<string> {
  const message = `Send the ${what} as multipart/form-data in the field file.`;
  if (!request.isMultipart()) throw badRequest(message, { file: "Required" });
  try {
    const part = await request.file({ limits: { fileSize: TEXT_MAX_BYTES, files: 1 } });
    if (part?.fieldname !== "file") throw badRequest(message, { file: "Required" });
    const bytes = await part.toBuffer();
    return bytes.toString("utf8");
  } catch (err) {
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw textTooLarge();
    throw err;
  }
}

export const siteArchiveRoutes: FastifyPluginAsync = async (app) => {
  const { db, config, clock, media } = app.deps;
  await app.register(multipart, { limits: { fileSize: config.archiveMaxBytes, files: 1, fields: 2 } });

  const site = siteApiRoutes(app, { tags, area: "settings" });
  /** Sends the site's archive (of `size` bytes when known) as a download that no cache keeps. */
  const sendArchive = (reply: FastifyReply, identifier: string, archive: unknown, size?: number) => {
    reply.header("content-type", "application/zip");
    if (size !== undefined) reply.header("content-length", size);
    return reply
      .header("content-disposition", `attachment; filename="${archiveFileName(identifier, clock.now())}"`)
      .header("cache-control", "no-store")
      .send(archive);
  };

  site.get(
    "/export",
    { description: "The whole site as one zip archive (format: docs/site-archive.md), streamed." },
    async (request, reply) => {
      const website = siteOf(request);
      const archive = exportSite(db, media, website);
      archive.done.catch((err) => request.log.error({ err, site: website.id }, "site export failed"));
      return sendArchive(reply, website.identifier, archive.stream);
    },
  );

  const ExportParams = Type.Object({
    siteId: SiteParams.properties.siteId,
    exportId: Type.String({ maxLength: 40 }),
  });
  const withLink = (siteId: string, s: ExportStatus) => ({
    ...s,
    downloadUrl: s.state === "done" ? `/api/owner/sites/${siteId}/exports/${s.id}/download` : undefined,
  });

  site.post(
    "/exports",
    { description: "Prepare the site's archive in the background." },
    async (request, reply) => {
      const siteId = siteOf(request).id;
      return reply
        .status(202)
        .send({ export: withLink(siteId, await startExport(db, config.dataDir, siteId)) });
    },
  );

  site.get(
    "/exports/:exportId",
    { params: ExportParams, description: "Progress of a background export." },
    async (request) => {
      const siteId = siteOf(request).id;
      const status = await exportStatus(config.dataDir, siteId, pathParam(request, "exportId"));
      if (!status) throw notFound("No such export.");
      return { export: withLink(siteId, status) };
    },
  );

  site.get("/exports/:exportId/download", { params: ExportParams }, async (request, reply) => {
    const website = siteOf(request);
    const exportId = pathParam(request, "exportId");
    const status = await exportStatus(config.dataDir, website.id, exportId);
    if (status?.state !== "done") throw notFound("No such export, or it is not ready yet.");
    const file = archivePath(config.dataDir, website.id, exportId);
    return sendArchive(reply, website.identifier, createReadStream(file), (await stat(file)).size);
  });

  site.post(
    "/imports/wordpress",
    {
      description:
        "Import a WordPress or Squarespace export (WXR `.xml`, or a `.zip` of it with its wp-content/uploads files; multipart field `file`) into the site.",
    },
    async (request) => {
      const siteId = siteOf(request).id;
      const { file, dir } = await receiveArchive(
        request,
        config.archiveMaxBytes,
        "Send the WordPress export (.xml, or .zip with its uploads) as multipart/form-data in the field file.",
      );
      let bundle: WxrBundle | undefined;
      try {
        const upload = await openWxrUpload(file, config.archiveMaxBytes * 4);
        bundle = upload.bundle;
        return { report: await importWxr(db, clock, siteId, upload.xml, { store: media, bundle }) };
      } finally {
        bundle?.close();
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  site.post(
    "/imports/products-csv",
    { description: "Import products from a Shopify or WooCommerce products CSV (multipart field `file`)." },
    async (request) => ({
      report: await importProductsCsv(db, siteOf(request).id, await receiveText(request, "products CSV")),
    }),
  );

  site.get(
    "/export/shopify-products.csv",
    { description: "The site's products as a Shopify product CSV." },
    async (request, reply) => {
      const website = siteOf(request);
      return reply
        .header("content-type", "text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${website.identifier}-products.csv"`)
        .send(await productsAsShopifyCsv(db, website.id));
    },
  );

  app.post(
    "/api/owner/sites/import",
    {
      preHandler: [requireCrumb, requireOwner],
      schema: {
        tags,
        description: "Import a site archive (multipart/form-data, field `file`) as a new site of the caller.",
      },
    },
    async (request, reply) => {
      const { file, dir } = await receiveArchive(request, config.archiveMaxBytes);
      try {
        const result = await importArchive(file, {
          db,
          media,
          owner: request.owner!,
          now: clock.now(),
          maxUnpackedBytes: config.archiveMaxBytes * 4,
        });
        const [site] = await db.select().from(websites).where(eq(websites.id, result.siteId));
        return reply.status(201).send({
          site: await siteJson(db, site!, config.publicUrl),
          report: { imported: result.counts, skipped: result.skipped },
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
};
