/**
 * Exports in the background, for sites too large to wait for: a job (the jobs table) writes the
 * archive under DATA_DIR/exports/<siteId>/<exportId>.zip and its progress beside it as
 * <exportId>.json, which the dashboard polls until it offers the download link. Files older than
 * a day are removed by housekeeping.
 */
import type { ExportStatus } from "@atelier/owner-api";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { websites } from "../../db/schema.js";
import type { Deps } from "../../http/deps.js";
import { registerHousekeeping } from "../jobs/plugin.js";
import { enqueueJob, registerJobHandler } from "../jobs/service.js";
import { type ExportProgress, exportSite } from "./export.js";

const EXPORT_JOB = "site-archive.export";
const KEEP_MS = 24 * 3600_000;

export type { ExportStatus };

const dirOf = (dataDir: string, siteId: string) => path.join(dataDir, "exports", siteId);
export const archivePath = (dataDir: string, siteId: string, id: string) =>
  path.join(dirOf(dataDir, siteId), `${id}.zip`);
const statusPath = (dataDir: string, siteId: string, id: string) =>
  path.join(dirOf(dataDir, siteId), `${id}.json`);

async function saveStatus(dataDir: string, siteId: string, status: ExportStatus) {
  const file = statusPath(dataDir, siteId, status.id);
  await writeFile(`${file}.tmp`, JSON.stringify(status));
  await rename(`${file}.tmp`, file);
}

export async function exportStatus(
  dataDir: string,
  siteId: string,
  id: string,
): Promise<ExportStatus | undefined> {
  try {
    return JSON.parse(await readFile(statusPath(dataDir, siteId, id), "utf8")) as ExportStatus;
  } catch {
    return undefined;
  }
}

export async function startExport(db: Db, dataDir: string, siteId: string): Promise<ExportStatus> {
  await mkdir(dirOf(dataDir, siteId), { recursive: true });
  const id = String(await enqueueJob(db, EXPORT_JOB, { siteId }, { maxAttempts: 1 }));
  const status: ExportStatus = { id, state: "queued", rows: 0, mediaFiles: 0 };
  await saveStatus(dataDir, siteId, status);
  return status;
}

registerJobHandler(EXPORT_JOB, async (deps: Deps, payload, job) => {
  const { db, config } = deps;
  const siteId = String(payload.siteId);
  const id = String(job.id);
  const [site] = await db.select().from(websites).where(eq(websites.id, siteId));
  if (!site) return;
  let last = 0;
  const status: ExportStatus = { id, state: "running", rows: 0, mediaFiles: 0 };
  await saveStatus(config.dataDir, siteId, status);
  const onProgress = (p: ExportProgress) => {
    status.rows = p.rows;
    status.mediaFiles = p.mediaFiles;
    if (Date.now() - last > 500) {
      last = Date.now();
      void saveStatus(config.dataDir, siteId, { ...status });
    }
  };
  const target = archivePath(config.dataDir, siteId, id);
  try {
    const archive = exportSite(db, deps.media, site, onProgress);
    await pipeline(archive.stream, createWriteStream(`${target}.part`));
    const manifest = await archive.done;
    await rename(`${target}.part`, target);
    await saveStatus(config.dataDir, siteId, {
      id,
      state: "done",
      rows: manifest.tables.reduce((n, t) => n + t.rows, 0),
      mediaFiles: manifest.media.length,
      bytes: (await stat(target)).size,
    });
  } catch (err) {
    await rm(`${target}.part`, { force: true });
    await saveStatus(config.dataDir, siteId, { ...status, state: "failed", error: (err as Error).message });
    throw err;
  }
});

registerHousekeeping("site-archive exports", async (deps) => {
  const root = path.join(deps.config.dataDir, "exports");
  const sites = await readdir(root).catch(() => [] as string[]);
  const before = deps.clock.now().getTime() - KEEP_MS;
  for (const site of sites) {
    for (const name of await readdir(path.join(root, site)).catch(() => [] as string[])) {
      const file = path.join(root, site, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < before) await rm(file, { force: true });
    }
  }
});
