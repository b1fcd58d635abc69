/**
 * Running an import from another platform: within the request when it copies few files, else in
 * the background as a job (the jobs table), its progress and report kept in `site_imports` for
 * the dashboard to poll; the activity log's entry of the call that queued it is written by the
 * job, with the content, so an import that fails leaves none. The upload waits under
 * DATA_DIR/imports/<siteId>/<importId>/ until its job has read it.
 */
import type { PlatformImportReport, PlatformImportStatus } from "@atelier/owner-api";
import { copyFile, mkdir, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { siteImports } from "../../db/schema.js";
import { type HandedEntry, recordingAs } from "../activity/recording.js";
import type { Deps } from "../../http/deps.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import type { PlatformImportOptions } from "./platform-import.js";

const IMPORT_JOB = "site-archive.platform-import";
const KEEP_UPLOADS_MS = 24 * 3600_000;
/** An import's progress and report are kept this long (the content and URL mappings stay). */
const KEEP_RECORDS_MS = 30 * 24 * 3600_000;
/** An import that copies more files than this runs in the background (202 and progress). */
export const INLINE_COPY_LIMIT = 8;

export type ImportSource = "wordpress" | "products-csv";

/** An import, given its upload (a file on disk) and its options. */
export type ImportRunner = (
  deps: Deps,
  websiteId: string,
  upload: { file: string; fileName: string },
  opts: Omit<PlatformImportOptions, "store" | "allowPrivate">,
) => Promise<PlatformImportReport>;

const runners = new Map<ImportSource, ImportRunner>();

/** The routes register how each source is imported (once, at start). */
export function registerImportRunner(source: ImportSource, run: ImportRunner) {
  runners.set(source, run);
}

const uploadDir = (dataDir: string, siteId: string, importId: string) =>
  path.join(dataDir, "imports", siteId, importId);

/** Queues an import: keeps the upload, records the import as running, adds its job; answers its id. */
export async function startBackgroundImport(
  db: Db,
  dataDir: string,
  siteId: string,
  job: {
    source: ImportSource;
    file: string;
    fileName: string;
    name: string;
    copyRemoteFiles: boolean;
    files: number;
    /** The activity log's entry of the call that queued it, written with the import's content. */
    activity?: HandedEntry;
  },
): Promise<string> {
  const importId = newId();
  const dir = uploadDir(dataDir, siteId, importId);
  await mkdir(dir, { recursive: true });
  const kept = path.join(dir, "upload");
  await copyFile(job.file, kept);
  await db.transaction(async (tx) => {
    await tx.insert(siteImports).values({
      id: importId,
      websiteId: siteId,
      source: job.source,
      fileName: job.fileName.slice(0, 300),
      progress: { done: 0, failed: 0, left: job.files },
    });
    await enqueueJob(
      tx,
      IMPORT_JOB,
      {
        siteId,
        importId,
        source: job.source,
        fileName: job.fileName,
        name: job.name,
        copyRemoteFiles: job.copyRemoteFiles,
        ...(job.activity ? { activity: job.activity } : {}),
      },
      { maxAttempts: 1 },
    );
  });
  return importId;
}

export async function importStatus(
  db: Db,
  siteId: string,
  importId: string,
): Promise<PlatformImportStatus | undefined> {
  const [row] = await db
    .select()
    .from(siteImports)
    .where(and(eq(siteImports.websiteId, siteId), eq(siteImports.id, importId)));
  if (!row) return undefined;
  return {
    importId: row.id,
    status: row.status as PlatformImportStatus["status"],
    progress: row.progress,
    report: (row.report as PlatformImportReport | null) ?? null,
    ...(row.error ? { error: row.error } : {}),
  };
}

registerJobHandler(IMPORT_JOB, async (deps, payload) => {
  const siteId = String(payload.siteId);
  const importId = String(payload.importId);
  const source = payload.source as ImportSource;
  const where = and(eq(siteImports.websiteId, siteId), eq(siteImports.id, importId));
  const dir = uploadDir(deps.config.dataDir, siteId, importId);
  try {
    const run = runners.get(source);
    if (!run) throw new Error(`no importer for ${source}`);
    // The person's entry goes in the transaction of the content: none when the import fails.
    const activity = payload.activity as HandedEntry | undefined;
    const report = await recordingAs(activity && { ...activity, entityId: importId }, deps.clock.now(), () =>
      run(
        deps,
        siteId,
        { file: path.join(dir, "upload"), fileName: String(payload.fileName ?? "") },
        {
          name: String(payload.name),
          copyRemoteFiles: Boolean(payload.copyRemoteFiles),
          onProgress: async (progress) => {
            await deps.db.update(siteImports).set({ progress, updatedAt: new Date() }).where(where);
          },
        },
      ),
    );
    await deps.db
      .update(siteImports)
      .set({
        status: "done",
        report: { ...report },
        progress: { done: report.files.copied, failed: report.files.notCopied.length, left: 0 },
        updatedAt: new Date(),
      })
      .where(where);
  } catch (err) {
    const error =
      err instanceof ApiError ? err.message : "The import failed; nothing of it was kept. Please try again.";
    await deps.db.update(siteImports).set({ status: "failed", error, updatedAt: new Date() }).where(where);
    if (!(err instanceof ApiError)) throw err;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

registerHousekeeping("site-archive import uploads", async (deps) => {
  const old = new Date(deps.clock.now().getTime() - KEEP_RECORDS_MS);
  await deps.db.delete(siteImports).where(lt(siteImports.updatedAt, old));
  const root = path.join(deps.config.dataDir, "imports");
  const before = deps.clock.now().getTime() - KEEP_UPLOADS_MS;
  for (const site of await readdir(root).catch(() => [] as string[])) {
    for (const name of await readdir(path.join(root, site)).catch(() => [] as string[])) {
      const dir = path.join(root, site, name);
      const info = await stat(dir).catch(() => undefined);
      if (info && info.mtimeMs < before) await rm(dir, { recursive: true, force: true });
    }
  }
});
