/**
 * Site icons: the owner's image made into the favicon (16 and 32 px PNG), the apple-touch-icon
 * (180 px) and the home-screen icon (192 and 512 px) with sharp, on first request, kept in the media store.
 * The media id names the image and a media file never changes, so the addresses are stable.
 */
import sharp from "sharp";
import { oncePerKey } from "../../lib/once-per-key.js";
import type { MediaStore } from "../../media/store.js";
import type { Media } from "../media/service.js";

export const ICON_SIZES = [16, 32, 180, 192, 512] as const;

export const iconUrl = (mediaId: string, size: number) => `/assets/site-icons/${mediaId}-${size}.png`;

/** Parses `<mediaId>-<size>.png`. */
export function parseIconName(name: string): { mediaId: string; size: number } | undefined {
  const m = /^([a-f0-9]{24})-(\d{2,3})\.png$/.exec(name);
  const size = m ? Number(m[2]) : 0;
  return m && (ICON_SIZES as readonly number[]).includes(size) ? { mediaId: m[1]!, size } : undefined;
}

/** Each icon is made once at a time. */
const makeOnce = oncePerKey<Buffer>();

/**
 * The PNG bytes of an icon size, made now if the media store has none yet: the image cropped
 * square around its focal point. Kept in the store beside the media, so every process serves it.
 */
export async function iconBytes(store: MediaStore, m: Media, size: number): Promise<Buffer> {
  const key = `site-icons/${m.websiteId}/${m.id}-${size}.png`;
  const stored = await store.read(key);
  if (stored) return stored;
  return makeOnce(key, async () => {
    const original = await store.read(m.storagePath);
    if (!original) throw new Error(`media file missing: ${m.storagePath}`);
    const isSvg = m.contentType === "image/svg+xml";
    // SVG is rasterised at 72 dpi by default: raise the density so the largest icon stays sharp.
    const side = Math.max(1, Math.min(m.width, m.height));
    const density = isSvg ? Math.min(2400, Math.max(72, Math.ceil((72 * 512) / side))) : undefined;
    const bytes = await sharp(original, { density, animated: false, limitInputPixels: 12000 * 12000 })
      .rotate()
      .resize(size, size, { fit: "cover", position: "attention" })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await store.put(key, bytes, "image/png");
    return bytes;
  });
}
