/**
 * Site icons: the owner's image made into the favicon (16 and 32 px PNG), the apple-touch-icon
 * (180 px) and the home-screen icon (192 and 512 px) with sharp, on first request, kept on disk.
 * The media id names the image and a media file never changes, so the addresses are stable.
 */
import { mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { Media } from "../media/service.js";

export const ICON_SIZES = [16, 32, 180, 192, 512] as const;

export const iconUrl = (mediaId: string, size: number) => `/assets/site-icons/${mediaId}-${size}.png`;

/** Parses `<mediaId>-<size>.png`. */
export function parseIconName(name: string): { mediaId: string; size: number } | undefined {
  const m = /^([a-f0-9]{24})-(\d{2,3})\.png$/.exec(name);
  const size = m ? Number(m[2]) : 0;
  return m && (ICON_SIZES as readonly number[]).includes(size) ? { mediaId: m[1]!, size } : undefined;
}

const inFlight = new Map<string, Promise<string>>();

/** The PNG file of an icon size, made now if needed: the image cropped square around its focal point. */
export async function iconFile(dataDir: string, m: Media, size: number): Promise<string> {
  const file = path.join(dataDir, "site-icons", `${m.id}-${size}.png`);
  if (
    await stat(file).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return file;
  const pending = inFlight.get(file);
  if (pending) return pending;
  const job = (async () => {
    const original = await readFile(path.join(dataDir, m.storagePath));
    const isSvg = m.contentType === "image/svg+xml";
    // SVG is rasterised at 72 dpi by default: raise the density so the largest icon stays sharp.
    const side = Math.max(1, Math.min(m.width, m.height));
    const density = isSvg ? Math.min(2400, Math.max(72, Math.ceil((72 * 512) / side))) : undefined;
    const bytes = await sharp(original, { density, animated: false, limitInputPixels: 12000 * 12000 })
      .rotate()
      .resize(size, size, { fit: "cover", position: "attention" })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, bytes);
    await rename(tmp, file);
    return file;
  })().finally(() => inFlight.delete(file));
  inFlight.set(file, job);
  return job;
}
