import type { MediaStore } from "../../media/store.js";

/** The store key of a media file: media/<websiteId>/<mediaId>/<filename> (the storage_path column). */
export function mediaKey(websiteId: string, mediaId: string, filename: string): string {
  return `media/${websiteId}/${mediaId}/${filename}`;
}

export function mediaUrl(mediaId: string, filename: string): string {
  return `/media/${mediaId}/${encodeURIComponent(filename)}`;
}

const typesByExtension: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  svg: "image/svg+xml",
  wav: "audio/wav",
  mp3: "audio/mpeg",
  pdf: "application/pdf",
};

/** The content type a stored file's name suggests. */
export function contentTypeOf(filename: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? "";
  return typesByExtension[ext] ?? "application/octet-stream";
}

/** Stores a media file and returns its key. */
export async function writeMediaFile(
  store: MediaStore,
  websiteId: string,
  mediaId: string,
  filename: string,
  bytes: Buffer | string,
): Promise<string> {
  const key = mediaKey(websiteId, mediaId, filename);
  await store.put(key, bytes, contentTypeOf(filename));
  return key;
}
