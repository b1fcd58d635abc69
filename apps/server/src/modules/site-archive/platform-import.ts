/**
 * What the imports from other platforms (WordPress, Shopify, WooCommerce) share: first the old
 * site's images are copied into the media library (remote-files.ts, outside any transaction:
 * downloads are slow), then the content is written in one transaction with the old addresses'
 * URL mappings, all or nothing (the activity log's entry of the import with them); if it fails,
 * the copies are removed again. Files that could not be copied are reported, never fatal: their
 * links stay.
 */
import type { PlatformImportLine, PlatformImportProgress, PlatformImportReport } from "@atelier/owner-api";
import type { Db, Tx } from "../../db/client.js";
import { safeDecode } from "../../lib/safe-decode.js";
import type { MediaStore } from "../../media/store.js";
import { unrecorded } from "../activity/recording.js";
import type { Media } from "../media/service.js";
import { type ImportedAddress, addImportedRedirects } from "../redirects/service.js";
import { type RemoteFile, copyRemoteFiles, fetchKey, removeCopies } from "./remote-files.js";

export type { PlatformImportLine as ImportLine, PlatformImportReport as PlatformReport };

export interface PlatformImportOptions {
  store: MediaStore;
  /** Copy images from their current addresses into the media library. */
  copyRemoteFiles?: boolean;
  /** IMPORT_ALLOW_PRIVATE: copies may come from loopback and private addresses. */
  allowPrivate?: boolean;
  /** The import's name: its URL mappings' group. */
  name: string;
  onProgress?: (p: PlatformImportProgress) => void | Promise<void>;
}

/** The copies of an import's images, found by the address they were asked for. */
export interface Copies {
  get(url: string): Media | undefined;
}

export const NOT_COPIED_NOTE = "Images were not copied (not asked for): they stay links to the old site.";

/** What the content step of an import answers: its lines and the old addresses to redirect. */
export interface ContentResult {
  lines: PlatformImportLine[];
  addresses: ImportedAddress[];
}

/** The path (decoded, with its query) of an old site's URL, as a URL mapping matches it. */
export function oldPath(url: string): string | undefined {
  if (!url.trim()) return undefined;
  try {
    const u = new URL(url.trim(), "http://old.invalid");
    const path = safeDecode(u.pathname).replace(/(.)\/+$/, "$1");
    return `${path}${u.search}`;
  } catch {
    return undefined;
  }
}

/** A file name for the import's name: "WordPress import of export.xml, 2026-11-28 06:48 UTC". */
export function importName(what: string, fileName: string, now: Date): string {
  const when = now.toISOString().slice(0, 16).replace("T", " ");
  return `${what} import of ${fileName || "a file"}, ${when} UTC`.slice(0, 300);
}

export async function runPlatformImport(
  db: Db,
  websiteId: string,
  source: string,
  files: RemoteFile[],
  opts: PlatformImportOptions,
  content: (tx: Tx, copies: Copies) => Promise<ContentResult>,
): Promise<PlatformImportReport> {
  const wanted = files.filter((f) => /^https?:\/\//i.test(f.url.trim()));
  // The copies are not the import's change for the activity log: its entry goes with the content.
  const copy = opts.copyRemoteFiles
    ? await unrecorded(() =>
        copyRemoteFiles(wanted, {
          db,
          store: opts.store,
          websiteId,
          allowPrivate: Boolean(opts.allowPrivate),
          onProgress: opts.onProgress,
        }),
      )
    : { copied: new Map<string, Media>(), failures: [] };
  const copies: Copies = { get: (url) => copy.copied.get(fetchKey(url)) };
  try {
    return await db.transaction(async (tx) => {
      const result = await content(tx, copies);
      const redirects = await addImportedRedirects(tx, websiteId, opts.name, result.addresses);
      const lines = result.lines.sort((a, b) => a.line - b.line);
      return {
        source,
        name: opts.name,
        imported: lines.filter((l) => l.status === "imported").length,
        skipped: lines.filter((l) => l.status === "skipped").length,
        lines,
        files: {
          copied: copy.copied.size,
          notCopied: copy.failures,
          ...(opts.copyRemoteFiles || !wanted.length ? {} : { note: NOT_COPIED_NOTE }),
        },
        redirects: { group: opts.name, ...redirects },
      };
    });
  } catch (err) {
    await unrecorded(() => removeCopies(db, opts.store, copy.copied.values()));
    throw err;
  }
}
