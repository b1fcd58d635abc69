/**
 * Export: one zip streamed as it is made. Each site-scoped table becomes `data/<table>.jsonl`
 * (one row a line, read from the database in pages of PAGE rows by primary key), each media
 * original `media/<id>/<filename>`, and `manifest.json` comes last with counts and checksums.
 * Memory stays flat: at most one page of rows and one stream buffer are held at a time.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { type PassThrough, Readable, Transform } from "node:stream";
import { finished } from "node:stream/promises";
import { and, eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import yazl from "yazl";
import type { Db } from "../../db/client.js";
import type { contentItems, media } from "../../db/schema.js";
import type { MediaStore } from "../../media/store.js";
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  MANIFEST_NAME,
  type Manifest,
  type ManifestDownload,
  type ManifestMedia,
  type ManifestTable,
  dataFileName,
  downloadFileName,
  mediaFileName,
} from "./manifest.js";
import {
  type ArchiveTable,
  EXCLUDED_TABLES,
  SECRET_COLUMNS,
  archiveTables,
  encodeValue,
  keyOf,
} from "./tables.js";

const PAGE = 500;

/**
 * The rows of one table for one site, page by page in the table's physical order (keyset on
 * `ctid`): an import inserts them in this order, so queries without an ORDER BY list the copy's
 * rows as they list the original's. A row updated meanwhile moves to a later ctid; the seen set
 * keeps it from being written twice.
 */
async function* siteRows(db: Db, t: ArchiveTable, siteId: string): AsyncGenerator<Record<string, unknown>> {
  const scope = (t.websiteColumn ?? t.columns.find((c) => c.name === "id")!).column as PgColumn;
  const seen = new Set<string>();
  let last = "(0,0)";
  for (;;) {
    const rows = await db
      .select({ row: t.table, ctid: sql<string>`${t.table}.ctid::text` })
      .from(t.table)
      .where(and(eq(scope, siteId), sql`${t.table}.ctid > ${last}::tid`))
      .orderBy(sql`${t.table}.ctid`)
      .limit(PAGE);
    for (const { row } of rows) {
      const key = keyOf(t, row as Record<string, unknown>, "key");
      if (key) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      yield row as Record<string, unknown>;
    }
    if (rows.length < PAGE) return;
    last = rows[rows.length - 1]!.ctid;
  }
}

const tableNamed = (name: string) => archiveTables().find((t) => t.name === name)!;

/** The store key of a digital product's file (see checkout/store.ts), if it has one in the store. */
export function digitalFileKey(structuredContent: unknown): string | undefined {
  const key = (structuredContent as { digitalFile?: { storagePath?: unknown } } | null)?.digitalFile
    ?.storagePath;
  return typeof key === "string" && key.startsWith("downloads/") ? key : undefined;
}

/** A row as archived: database column names, JSON values, secrets left out. */
function archivedRow(t: ArchiveTable, row: Record<string, unknown>): Record<string, unknown> {
  const secret = SECRET_COLUMNS[t.name] ?? [];
  const out: Record<string, unknown> = {};
  for (const c of t.columns) if (!secret.includes(c.name)) out[c.name] = encodeValue(row[c.key]);
  return out;
}

/** Counts bytes and hashes what passes through (in the transform, so nothing flows before it is piped). */
function measuring(): { stream: Transform; result: () => { bytes: number; sha256: string } } {
  const hash = createHash("sha256");
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      hash.update(chunk);
      bytes += chunk.length;
      callback(null, chunk);
    },
  });
  let digest: string | undefined;
  const result = () => {
    digest ??= hash.digest("hex");
    return { bytes, sha256: digest };
  };
  return { stream, result };
}

export interface ExportProgress {
  table?: string;
  rows: number;
  mediaFiles: number;
}

interface SiteExport {
  /** The zip, to pipe to a response or a file. */
  stream: NodeJS.ReadableStream;
  /** Settles when the whole archive has been produced (rejects on a failure). */
  done: Promise<Manifest>;
}

/** Starts streaming the site's archive. The caller must consume `stream`. */
export function exportSite(
  db: Db,
  store: MediaStore,
  site: { id: string; identifier: string; title: string },
  onProgress?: (p: ExportProgress) => void,
): SiteExport {
  const zip = new yazl.ZipFile();
  const done = (async (): Promise<Manifest> => {
    const tables: ManifestTable[] = [];
    const progress: ExportProgress = { rows: 0, mediaFiles: 0 };
    for (const t of archiveTables()) {
      let rows = 0;
      const m = measuring();
      const lines = Readable.from(
        (async function* () {
          for await (const row of siteRows(db, t, site.id)) {
            rows++;
            progress.rows++;
            if (progress.rows % 1000 === 0) onProgress?.({ ...progress, table: t.name });
            yield `${JSON.stringify(archivedRow(t, row), bigintAsText)}\n`;
          }
        })(),
      );
      lines.pipe(m.stream);
      zip.addReadStream(m.stream, dataFileName(t.name));
      await finished(m.stream);
      const secret = SECRET_COLUMNS[t.name] ?? [];
      tables.push({
        name: t.name,
        file: dataFileName(t.name),
        rows,
        ...m.result(),
        columns: t.columns.map((c) => c.name).filter((c) => !secret.includes(c)),
      });
    }
    /** Adds a stored file to the zip; a file that is gone is left out, a store that fails fails the export. */
    const addStored = async (key: string, name: string) => {
      const original = await store.open(key);
      if (!original) return undefined;
      const m = measuring();
      original.body.on("error", (err) => m.stream.destroy(err));
      original.body.pipe(m.stream);
      zip.addReadStream(m.stream, name);
      await finished(m.stream);
      return m.result();
    };
    const files: ManifestMedia[] = [];
    for await (const row of siteRows(db, tableNamed("media"), site.id)) {
      const m0 = row as typeof media.$inferSelect;
      const name = mediaFileName(m0.id, path.posix.basename(m0.storagePath));
      const sum = await addStored(m0.storagePath, name);
      if (!sum) continue;
      files.push({ id: m0.id, file: name, ...sum });
      progress.mediaFiles++;
      onProgress?.({ ...progress, table: "media" });
    }
    const downloads: ManifestDownload[] = [];
    for await (const row of siteRows(db, tableNamed("content_items"), site.id)) {
      const item = row as typeof contentItems.$inferSelect;
      const key = digitalFileKey(item.structuredContent);
      if (!key || downloads.some((d) => d.key === key)) continue;
      const name = downloadFileName(item.id, path.posix.basename(key));
      const sum = await addStored(key, name);
      if (sum) downloads.push({ key, file: name, ...sum });
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      exportedAt: new Date().toISOString(),
      generator: "Atelier",
      site: { id: site.id, identifier: site.identifier, title: site.title },
      tables,
      media: files,
      downloads,
      excluded: EXCLUDED_TABLES,
    };
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), MANIFEST_NAME);
    zip.end();
    return manifest;
  })();
  done.catch((err) => (zip.outputStream as PassThrough).destroy(err));
  return { stream: zip.outputStream, done };
}

/** 64-bit columns read as BigInt (the analytics visitor hashes) are written as their decimal text. */
function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
