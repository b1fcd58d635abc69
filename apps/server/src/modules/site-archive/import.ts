/**
 * Import: an archive becomes a new site of the caller. Everything is checked first (validate.ts);
 * then each media file (and digital product file) is read from the zip, checked against its
 * checksum and written to the media store under its final key (media/<newSiteId>/<newMediaId>/
 * <filename>, downloads/<newSiteId>/<newItemId>/<filename>); then the rows go
 * in one transaction with every id remapped (remap.ts). If anything fails after the first file
 * is written, every file written is deleted again: an import stores all or nothing. The activity
 * log's entry of the import (when an owner call makes it) is written in that transaction too.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/client.js";
import { memberships } from "../../db/schema.js";
import { recordNewSite } from "../activity/recording.js";
import { ApiError } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { type MediaStore, checkKey } from "../../media/store.js";
import { contentTypeOf, mediaKey } from "../media/storage.js";
import { type ImportContext, IMPORT_FIXES, safeBaseName } from "./fixes.js";
import type { Manifest, ManifestDownload } from "./manifest.js";
import { pack, unpack } from "../history/service.js";
import { IdMap } from "./remap.js";
import { archiveTables, decodeValue } from "./tables.js";
import { checkData, readManifest } from "./validate.js";
import { type OpenedZip, entryLines, entryStream, invalidArchive, openZip } from "./zip-read.js";

const BATCH = 200;

interface ImportOptions {
  db: Db;
  media: MediaStore;
  owner: { id: string };
  now: Date;
  /** Refuse archives whose files add up to more than this once unpacked. */
  maxUnpackedBytes: number;
  /** Tests only: runs inside the transaction, after the media are written, to inject a failure. */
  beforeCommit?: () => Promise<void>;
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
  const written: string[] = [];
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
      // What is in the trash is in no other table: its ids (and its rows' ids) get fresh values too.
      if (table === "trash_entries") {
        const list = oldIds.get("trashed") ?? [];
        list.push(...trashedIds(row));
        oldIds.set("trashed", list);
      }
    });
    // New ids sort as the old ones did, so lists ordered by id keep their order.
    for (const list of oldIds.values()) {
      const fresh = list.map(() => newId()).sort();
      for (const [i, old] of [...list].sort().entries()) ids.set(old, fresh[i]!);
    }
    const mediaKeys = new Map<string, string>();
    for (const [oldId, storagePath] of storagePaths)
      mediaKeys.set(ids.get(oldId)!, mediaKey(siteId, ids.get(oldId)!, safeBaseName(storagePath)));
    const files: StoredFile[] = manifest.media.map((m) => ({ ...m, key: mediaKeys.get(ids.get(m.id)!)! }));
    for (const d of manifest.downloads ?? []) files.push({ ...d, key: downloadKey(d, ids, siteId) });
    await storeFiles(opened, files, opts.media, written);

    const skipped: string[] = [];
    const counts: Record<string, number> = {};
    await opts.db.transaction(async (tx) => {
      const ctx: ImportContext = { tx, mediaKeys, siteId, now: opts.now, skipped };
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
            throw invalidArchive(`The archive's ${t.name} rows cannot be stored: ${databaseReason(err)}`);
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
            row[c.key] = PACKED.has(`${t.name}.${c.name}`)
              ? remapPacked(ids, decodeValue(c.column, archived[c.name]), t.name)
              : decodeValue(c.column, ids.remap(archived[c.name]));
          }
          if (fix) row = await fix(row, ctx);
          if (row) batch.push(row);
          if (batch.length >= BATCH) await flush();
        }
        await flush();
      }
      await tx.insert(memberships).values({ accountId: opts.owner.id, websiteId: siteId, owner: true });
      await recordNewSite(tx, siteId);
      await opts.beforeCommit?.();
    });
    return { siteId, manifest, counts, skipped };
  } catch (err) {
    await removeAll(opts.media, written);
    throw err;
  } finally {
    opened.close();
  }
}

/**
 * The database's own reason (a duplicate key, a missing reference), without the query and its
 * parameters that the query builder's error wraps around it.
 */
function databaseReason(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : (err as Error).message;
  return message.split("\n")[0]!.slice(0, 300);
}

/** Deletes what a failed import wrote, every file even when one delete fails. */
async function removeAll(store: MediaStore, keys: string[]): Promise<void> {
  const results = await Promise.allSettled(keys.map((k) => store.delete(k)));
  const failed = results.filter((r) => r.status === "rejected").length;
  if (failed) console.error(`site import: ${failed} of ${keys.length} media files could not be removed`);
}

/** A file of the archive and the store key it is written to. */
interface StoredFile {
  file: string;
  bytes: number;
  sha256: string;
  key: string;
}

/** Columns of compressed JSON (a history version's content, a trash entry's rows): ids inside too. */
const PACKED = new Set(["entity_versions.content", "trash_entries.content"]);

/** The ids a trash entry of the archive holds: the deleted thing's and those of every row it took along. */
function trashedIds(row: Record<string, unknown>): string[] {
  const out = new Set<string>();
  if (typeof row.entity_id === "string") out.add(row.entity_id);
  try {
    const rows = unpack<Record<string, Record<string, unknown>[]>>(
      Buffer.from(String(row.content), "base64"),
    );
    for (const list of Object.values(rows))
      for (const r of list) if (typeof r.id === "string" && /^[a-f0-9]{24}$/.test(r.id)) out.add(r.id);
  } catch {
    // Content that cannot be read is refused when the row is stored.
  }
  return [...out];
}

/** Compressed JSON with every old id in it replaced by the new site's, compressed again. */
function remapPacked(ids: IdMap, value: unknown, table: string): unknown {
  if (!Buffer.isBuffer(value)) return value;
  let content: unknown;
  try {
    content = unpack(value);
  } catch {
    throw invalidArchive(`The archive is damaged: a row of ${table} has content that cannot be read.`);
  }
  return pack(ids.remap(content)).bytes;
}

/**
 * A digital product's file goes where the product's remapped digitalFile names it, which must be
 * under the new site's own `downloads/<siteId>/` (never another site's files).
 */
function downloadKey(d: ManifestDownload, ids: IdMap, siteId: string): string {
  const key = String(ids.remap(d.key));
  let valid = key.startsWith(`downloads/${siteId}/`);
  try {
    checkKey(key);
  } catch {
    valid = false;
  }
  if (!valid)
    throw invalidArchive(`The archive is damaged: ${d.file} has a bad key ${JSON.stringify(d.key)}.`);
  return key;
}

/**
 * Reads each file from the zip (at most its declared size, held in memory as `put` takes whole
 * files), checks its checksum, then writes it under its final key; `written` collects the keys
 * so that a failure later can remove them.
 */
async function storeFiles(
  opened: OpenedZip,
  files: StoredFile[],
  store: MediaStore,
  written: string[],
): Promise<void> {
  for (const m of files) {
    const hash = createHash("sha256");
    const chunks: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of await entryStream(opened, m.file)) {
        bytes += (chunk as Buffer).length;
        if (bytes > m.bytes) break;
        hash.update(chunk as Buffer);
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw invalidArchive(`The archive is damaged: ${m.file} cannot be read to its end.`);
    }
    if (bytes !== m.bytes || hash.digest("hex") !== m.sha256)
      throw invalidArchive(`The archive is damaged: ${m.file} does not match its checksum.`);
    written.push(m.key);
    await store.put(m.key, Buffer.concat(chunks), contentTypeOf(m.key));
  }
}
