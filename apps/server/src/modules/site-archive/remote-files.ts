/**
 * Copies an import's images from the old site into the media library: each address fetched
 * once, at most 4 at a time, 20 s and the upload size limit per file, at most 3 redirects, under
 * the outbound rules (lib/outbound: public addresses only unless IMPORT_ALLOW_PRIVATE). Only
 * real images are kept (the media module reads each with sharp and makes its variants). A file
 * that cannot be copied is answered with the reason, never thrown: its link stays as it was.
 */
import { inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { media } from "../../db/schema.js";
import { ApiError } from "../../http/errors.js";
import { OutboundRefused, outboundRequest } from "../../lib/outbound/request.js";
import type { MediaStore } from "../../media/store.js";
import { MAX_UPLOAD_BYTES, type Media, uploadImage } from "../media/service.js";

export const COPY_CONCURRENCY = 4;
export const COPY_TIMEOUT_MS = 20_000;
export const COPY_MAX_REDIRECTS = 3;

export interface CopyProgress {
  done: number;
  failed: number;
  left: number;
}

export interface RemoteFile {
  url: string;
  /** The media title (an attachment's title), else the file's name. */
  title?: string;
}

export interface CopyResult {
  /** Copied files by the address they were asked for. */
  copied: Map<string, Media>;
  /** Files not copied, with the reason, in the order they were asked for. */
  failures: { url: string; reason: string }[];
}

export interface CopyOptions {
  db: Db;
  store: MediaStore;
  websiteId: string;
  allowPrivate: boolean;
  onProgress?: (p: CopyProgress) => void | Promise<void>;
}

/** The address as fetched: trimmed, without its #fragment. */
export const fetchKey = (url: string) => url.trim().replace(/#.*$/, "");

/** Why a download failed, in words an owner can act on. */
function reasonOf(err: unknown, url: string): string {
  if (err instanceof OutboundRefused || err instanceof ApiError) return err.message;
  const code = (err as { code?: string }).code;
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (code === "ENOTFOUND" || code === "EAI_AGAIN")
    return `The host name ${host} could not be found (no network?).`;
  if (code === "ECONNREFUSED") return `${host} refused the connection.`;
  if (
    code === "ECONNRESET" ||
    code === "EPIPE" ||
    code === "ECONNABORTED" ||
    code === "ERR_STREAM_PREMATURE_CLOSE"
  )
    return `${host} closed the connection before the file was complete.`;
  const message = err instanceof Error ? err.message : String(err);
  return message.endsWith(".") ? message : `${message}.`;
}

/** The last part of a URL's path, for the media file's name. */
function fileNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.split("/").pop() || "image");
  } catch {
    return "image";
  }
}

/** Downloads one file and adds it to the media library; throws with the reason it cannot. */
async function copyOne(file: RemoteFile, opts: CopyOptions): Promise<Media> {
  const res = await outboundRequest(file.url, {
    timeoutMs: COPY_TIMEOUT_MS,
    maxBytes: MAX_UPLOAD_BYTES,
    maxRedirects: COPY_MAX_REDIRECTS,
    allowHttp: true,
    allowPrivate: opts.allowPrivate,
    headers: { accept: "image/*" },
  });
  if (res.status >= 300 && res.status < 400) throw new Error(`More than ${COPY_MAX_REDIRECTS} redirects.`);
  if (res.status !== 200) throw new Error(`The old site answered ${res.status} instead of the file.`);
  return uploadImage(opts.db, opts.store, opts.websiteId, {
    filename: fileNameOf(res.url),
    bytes: res.body,
    title: file.title?.slice(0, 300),
  });
}

/** Copies the files (each distinct address once), reporting progress after each. */
export async function copyRemoteFiles(files: RemoteFile[], opts: CopyOptions): Promise<CopyResult> {
  const unique = new Map<string, RemoteFile>();
  for (const f of files) {
    const key = fetchKey(f.url);
    if (key && !unique.has(key)) unique.set(key, { ...f, url: key });
  }
  const queue = [...unique.values()];
  const result: CopyResult = { copied: new Map(), failures: [] };
  const failed = new Map<string, string>();
  const progress = { done: 0, failed: 0, left: queue.length };
  await opts.onProgress?.({ ...progress });
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const file = queue[next++]!;
      try {
        result.copied.set(file.url, await copyOne(file, opts));
        progress.done++;
      } catch (err) {
        failed.set(file.url, reasonOf(err, file.url));
        progress.failed++;
      }
      progress.left--;
      await opts.onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.min(COPY_CONCURRENCY, queue.length) }, worker));
  for (const f of queue) {
    const reason = failed.get(f.url);
    if (reason) result.failures.push({ url: f.url, reason });
  }
  return result;
}

/** Removes copied files again (their rows and stored files): the import they were for failed. */
export async function removeCopies(db: Db, store: MediaStore, copies: Iterable<Media>): Promise<void> {
  const rows = [...copies];
  if (!rows.length) return;
  await db.delete(media).where(
    inArray(
      media.id,
      rows.map((m) => m.id),
    ),
  );
  for (const m of rows)
    for (const key of await store.list(`media/${m.websiteId}/${m.id}/`)) await store.delete(key);
}

/** How many distinct addresses a list of files asks for (each is fetched once). */
export const distinctCount = (files: RemoteFile[]) =>
  new Set(files.map((f) => fetchKey(f.url)).filter((u) => /^https?:\/\//i.test(u))).size;
