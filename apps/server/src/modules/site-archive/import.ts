/**
 * Import: an archive becomes a new site of the caller. Everything is checked first (validate.ts);
 * media files are written under a temporary folder; the rows go in one transaction with every id
 * remapped (remap.ts); the files move into place only after the commit, and the temporary folder
 * is removed whatever happens.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Db } from "../../db/client.js";
import { memberships } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { newId, newToken } from "../../lib/ids.js";
import { mediaPath } from "../media/storage.js";
import { type ImportContext, IMPORT_FIXES, safeBaseName } from "./fixes.js";
import type { Manifest } from "./manifest.js";
import { IdMap } from "./remap.js";
import { archiveTables, decodeValue } from "./tables.js";
import { checkData, readManifest } from "./validate.js";
import { type OpenedZip, entryLines, entryStream, invalidArchive, openZip } from "./zip-read.js";

const BATCH = 200;

export interface ImportOptions {
  db: Db;
  dataDir: string;
  owner: { id: string };
  now: Date;
  /** Refuse archives whose files add up to more than this once unpacked. */
  maxUnpackedBytes: number;
}

export interface ImportResult {
  siteId: string;
  manifest: Manifest;
  /** Rows brought in, by table. */
  counts: Record<string, number>;
  skipped: string[];
}

export const tooLarge = (what: string) =>
  new ApiError(413, "too_large", `The archive is too large: ${what}.`, { file: "Too large" });

export async function importArchive(file: string, opts: ImportOptions): Promise<ImportResult> {
  const opened = await openZip(file);
  const tempRoot = path.join(opts.dataDir, "media", `.import-${newToken(9)}`);
  try {
    const manifest = await readManifest(opened);
    let unpacked = 0;
    for (const e of opened.entries.values()) unpacked += e.uncompressedSize;
    if (unpacked > opts.maxUnpackedBytes) throw tooLarge(`${unpacked} bytes unpacked`);

    const ids = new IdMap();
    const siteId = newId();
    ids.set(manifest.site.id, siteId);
    const storagePaths = new Map<string, string>();
    const oldIds = new Map<string, string[]>();
    await checkData(opened, manifest, (table, row) => {
      const t = archiveTables().find((x) => x.name === table)!;
      if (table !== "websites" && t.idColumn) {
        const list = oldIds.get(table) ?? [];
        list.push(String(row.id));
        oldIds.set(table, list);
      }
      if (table === "media") storagePaths.set(String(row.id), String(row.storage_path));
    });
    // New ids sort as the old ones did, so lists ordered by id keep their order.
    for (const list of oldIds.values()) {
      const fresh = list.map(() => newId()).sort();
      for (const [i, old] of [...list].sort().entries()) ids.set(old, fresh[i]!);
    }
    const staged = await stageMedia(opened, manifest, ids, storagePaths, tempRoot, opts.dataDir);

    const skipped: string[] = [];
    const counts: Record<string, number> = {};
    await opts.db.transaction(async (tx) => {
      const ctx: ImportContext = { tx, dataDir: opts.dataDir, siteId, now: opts.now, skipped };
      for (const t of archiveTables()) {
        const entry = manifest.tables.find((m) => m.name === t.name);
        if (!entry) continue;
        const fix = IMPORT_FIXES[t.name];
        let batch: Record<string, unknown>[] = [];
        const flush = async () => {
          if (!batch.length) return;
          try {
            await tx.insert(t.table).values(batch);
          } catch (err) {
            throw invalidArchive(`The archive's ${t.name} rows cannot be stored: ${(err as Error).message}`);
          }
          counts[t.name] = (counts[t.name] ?? 0) + batch.length;
          batch = [];
        };
        for await (const line of entryLines(opened, entry.file, {})) {
          const archived = JSON.parse(line) as Record<string, unknown>;
          let row: Record<string, unknown> | undefined = {};
          for (const c of t.columns) {
            if (!(c.name in archived)) continue;
            if (t.generatedKey && t.primaryKey.includes(c)) continue;
            row[c.key] = decodeValue(c.column, ids.remap(archived[c.name]));
          }
          if (fix) row = await fix(row, ctx);
          if (row) batch.push(row);
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      }
      await tx.insert(memberships).values({ accountId: opts.owner.id, websiteId: siteId, role: "owner" });
    });
    for (const { from, to } of staged) {
      await mkdir(path.dirname(to), { recursive: true });
      await rename(from, to);
    }
    return { siteId, manifest, counts, skipped };
  } finally {
    opened.close();
    await rm(tempRoot, { recursive: true, force: true });
  }
}

/** Unpacks the media files under the temporary folder, checking each one's checksum. */
async function stageMedia(
  opened: OpenedZip,
  manifest: Manifest,
  ids: IdMap,
  storagePaths: Map<string, string>,
  tempRoot: string,
  dataDir: string,
): Promise<{ from: string; to: string }[]> {
  const staged: { from: string; to: string }[] = [];
  const siteId = ids.get(manifest.site.id)!;
  for (const m of manifest.media) {
    const newMediaId = ids.get(m.id)!;
    const base = safeBaseName(storagePaths.get(m.id) ?? m.file);
    const from = path.join(tempRoot, newMediaId, base);
    await mkdir(path.dirname(from), { recursive: true });
    const hash = createHash("sha256");
    let bytes = 0;
    try {
      await pipeline(
        await entryStream(opened, m.file),
        new Transform({
          transform(chunk: Buffer, _enc, cb) {
            hash.update(chunk);
            bytes += chunk.length;
            cb(null, chunk);
          },
        }),
        createWriteStream(from),
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw invalidArchive(`The archive is damaged: ${m.file} cannot be read to its end.`);
    }
    if (bytes !== m.bytes || hash.digest("hex") !== m.sha256)
      throw invalidArchive(`The archive is damaged: ${m.file} does not match its checksum.`);
    staged.push({ from, to: mediaPath(dataDir, siteId, newMediaId, base) });
  }
  return staged;
}
