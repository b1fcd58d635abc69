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
import { pathParam, siteApiRoutes, siteParams } from "../../http/site-routes.js";
import { siteJson } from "../owner-sites/service.js";
import { websites } from "../../db/schema.js";
import { eq } from "drizzle-orm";
import { exportSite } from "./export.js";
import { type ExportStatus, archivePath, exportStatus, startExport } from "./export-jobs.js";
import { importArchive, tooLarge } from "./import.js";
import { handOverEntry } from "../activity/recording.js";
import type { PlatformImportReport } from "@atelier/owner-api";
import type { Deps } from "../../http/deps.js";
import { type PlatformImportOptions, importName } from "./platform-import.js";
import {
  INLINE_COPY_LIMIT,
  type ImportSource,
  importStatus,
  registerImportRunner,
  startBackgroundImport,
} from "./platform-import-jobs.js";
import {
  importProductsCsv,
  parseProductsCsv,
  productsAsShopifyCsv,
  productsCsvFiles,
} from "./product-csv.js";
import { distinctCount } from "./remote-files.js";
import { type WxrOptions, importWxr, parseWxr, wxrRemoteFiles } from "./wxr.js";
import { type WxrBundle, openWxrBundle } from "./wxr-bundle.js";

const tags = ["owner: site archives"];
const SEND_FILE = "Send the site archive as multipart/form-data in the field file.";

/** An archive's download name: `<identifier>-<YYYY-MM-DD>.atelier.zip`. */
const archiveFileName = (identifier: string, now: Date) =>
  `${identifier}-${now.toISOString().slice(0, 10)}.atelier.zip`;

interface ReceivedUpload {
  file: string;
  dir: string;
  /** The name the file had on the sender's machine. */
  fileName: string;
  /** The form's other fields (text parts). */
  fields: Record<string, string>;
}

/** Streams the upload's `file` part to a temporary file (refusing more than `max` bytes), with the form's fields. */
async function receiveArchive(
  request: FastifyRequest,
  max: number,
  sendFile = SEND_FILE,
  tooLargeError: () => ApiError = () => tooLarge(`uploads may be at most ${max} bytes`),
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw badRequest(sendFile, { file: "Required" });
  const dir = await mkdtemp(path.join(os.tmpdir(), "atelier-import-"));
  const file = path.join(dir, "archive.zip");
  let received = false;
  let fileName = "";
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: max, files: 1, fields: 2 } })) {
      if (part.type !== "file") {
        if (typeof part.value === "string") fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== "file" || received) {
        part.file.resume();
        continue;
      }
      await pipeline(part.file, createWriteStream(file));
      if (part.file.truncated) throw tooLargeError();
      received = true;
      fileName = path.basename(part.filename ?? "").slice(0, 200);
    }
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLargeError();
    throw err;
  }
  if (!received) {
    await rm(dir, { recursive: true, force: true });
    throw badRequest(sendFile, { file: "Required" });
  }
  return { file, dir, fileName, fields };
}

/** The form's `copyRemoteFiles` field: "true", "1" or "on" ask for copies (the API's default is not to). */
const copyAsked = (fields: Record<string, string>) =>
  ["true", "1", "on", "yes"].includes((fields.copyRemoteFiles ?? "").trim().toLowerCase());

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

/** A WordPress import from its upload (on disk): opened, read, imported. */
async function wordpressImport(
  deps: Deps,
  websiteId: string,
  upload: { file: string },
  opts: Omit<WxrOptions, "store" | "allowPrivate" | "bundle">,
  beforeImport?: (files: number) => Promise<void>,
): Promise<PlatformImportReport> {
  const opened = await openWxrUpload(upload.file, deps.config.archiveMaxBytes * 4);
  try {
    const wxr = parseWxr(opened.xml);
    await beforeImport?.(opts.copyRemoteFiles ? distinctCount(wxrRemoteFiles(wxr, opened.bundle)) : 0);
    return await importWxr(deps.db, deps.clock, websiteId, wxr, {
      ...opts,
      store: deps.media,
      bundle: opened.bundle,
      allowPrivate: deps.config.importAllowPrivate,
    });
  } finally {
    opened.bundle?.close();
  }
}

/** A products CSV import from its upload (on disk). */
async function productsImport(
  deps: Deps,
  websiteId: string,
  upload: { file: string },
  opts: Omit<PlatformImportOptions, "store" | "allowPrivate">,
  beforeImport?: (files: number) => Promise<void>,
): Promise<PlatformImportReport> {
  const csv = await parseProductsCsv(deps.db, websiteId, await readFile(upload.file, "utf8"));
  await beforeImport?.(opts.copyRemoteFiles ? distinctCount(productsCsvFiles(csv)) : 0);
  return importProductsCsv(deps.db, websiteId, csv, {
    ...opts,
    store: deps.media,
    allowPrivate: deps.config.importAllowPrivate,
  });
}

registerImportRunner("wordpress", (deps, siteId, upload, opts) =>
  wordpressImport(deps, siteId, upload, opts),
);
registerImportRunner("products-csv", (deps, siteId, upload, opts) =>
  productsImport(deps, siteId, upload, opts),
);

/** Thrown to leave an import for the background: it has too many files to copy within the request. */
class GoesToBackground {
  constructor(readonly files: number) {}
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

  const IMPORT_FORM =
    "multipart/form-data: the field `file`, and `copyRemoteFiles` (true to copy images from their current addresses into the media library). Answers 200 with the report when it is done within the request, or 202 `{ importId }` when it copies many files: follow it at GET …/imports/{importId}.";

  /** Runs an import within the request, or queues it when it has more files to copy than the limit. */
  const platformImport = async (
    request: FastifyRequest,
    reply: FastifyReply,
    source: ImportSource,
    what: string,
    upload: ReceivedUpload,
    run: typeof wordpressImport,
  ) => {
    const siteId = siteOf(request).id;
    const copyRemoteFiles = copyAsked(upload.fields);
    const name = importName(what, upload.fileName, clock.now());
    try {
      const report = await run(app.deps, siteId, upload, { name, copyRemoteFiles }, async (files) => {
        if (files > INLINE_COPY_LIMIT) throw new GoesToBackground(files);
      });
      return { report };
    } catch (err) {
      if (!(err instanceof GoesToBackground)) throw err;
      const importId = await startBackgroundImport(db, config.dataDir, siteId, {
        source,
        file: upload.file,
        fileName: upload.fileName,
        name,
        copyRemoteFiles,
        files: err.files,
        activity: handOverEntry(),
      });
      return reply.status(202).send({ importId });
    } finally {
      await rm(upload.dir, { recursive: true, force: true });
    }
  };

  site.post(
    "/imports/wordpress",
    {
      description: `Import a WordPress or Squarespace export (WXR \`.xml\`, or a \`.zip\` of it with its wp-content/uploads files) into the site. ${IMPORT_FORM}`,
    },
    async (request, reply) => {
      const upload = await receiveArchive(
        request,
        config.archiveMaxBytes,
        "Send the WordPress export (.xml, or .zip with its uploads) as multipart/form-data in the field file.",
      );
      return platformImport(request, reply, "wordpress", "WordPress", upload, wordpressImport);
    },
  );

  site.post(
    "/imports/products-csv",
    { description: `Import products from a Shopify or WooCommerce products CSV. ${IMPORT_FORM}` },
    async (request, reply) => {
      const upload = await receiveArchive(
        request,
        TEXT_MAX_BYTES,
        "Send the products CSV as multipart/form-data in the field file.",
        textTooLarge,
      );
      return platformImport(request, reply, "products-csv", "Products CSV", upload, productsImport);
    },
  );

  site.get(
    "/imports/:importId",
    {
      params: siteParams("importId"),
      description:
        "An import running in the background: its status, progress (files done, failed, left) and, once done, its report.",
    },
    async (request) => {
      const status = await importStatus(db, siteOf(request).id, pathParam(request, "importId"));
      if (!status) throw notFound("No such import.");
      return status;
    },
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
