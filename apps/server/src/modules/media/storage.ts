import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/** Media files live under DATA_DIR/media/<websiteId>/<mediaId>/<filename>. */
export function mediaPath(dataDir: string, websiteId: string, mediaId: string, filename: string): string {
  return path.join(dataDir, "media", websiteId, mediaId, filename);
}

export function mediaUrl(mediaId: string, filename: string): string {
  return `/media/${mediaId}/${encodeURIComponent(filename)}`;
}

export async function writeMediaFile(
  dataDir: string,
  websiteId: string,
  mediaId: string,
  filename: string,
  bytes: Buffer | string,
): Promise<string> {
  const file = mediaPath(dataDir, websiteId, mediaId, filename);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return path.relative(dataDir, file);
}
