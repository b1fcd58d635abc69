import type { Readable } from "node:stream";

/**
 * Where media files live: originals, their resized variants and other stored files. Keys are
 * relative paths such as `media/<websiteId>/<mediaId>/<filename>` (the `storage_path` column),
 * the same on local disk and in an S3 bucket, so `npm run media:to-s3` copies keys one to one.
 */
export interface MediaStore {
  readonly kind: "local" | "s3";
  /** Writes a whole file; readers never see a half-written one. */
  put(key: string, bytes: Buffer | string, contentType: string): Promise<void>;
  /** The file's bytes, or undefined when there is none. */
  read(key: string): Promise<Buffer | undefined>;
  /** The file's size in bytes, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** A stream of the file and its size, or undefined when there is none. */
  open(key: string): Promise<{ body: Readable; size: number } | undefined>;
  /** Removes a file; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Every key that starts with `prefix` (a folder such as `media/<websiteId>/`), sorted. */
  list(prefix: string): Promise<string[]>;
  close(): Promise<void>;
}

/** A key must be a plain relative path: no empty, `.` or `..` segments, no backslashes. */
export function checkKey(key: string): string {
  const parts = key.split("/");
  if (!key || key.includes("\\") || parts.some((p) => !p || p === "." || p === ".."))
    throw new Error(`Not a media key: ${JSON.stringify(key)}`);
  return key;
}

/** The URL a CDN or public bucket serves a key at, under MEDIA_PUBLIC_URL. */
export function publicUrlOf(base: string, key: string): string {
  return `${base.replace(/\/+$/, "")}/${checkKey(key).split("/").map(encodeURIComponent).join("/")}`;
}
