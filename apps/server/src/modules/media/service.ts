/**
 * Media: uploaded images in the media store (DATA_DIR/media or the S3 bucket), their responsive
 * variants (the SPEC's width buckets 100w…1500w, made with sharp, WebP), focal point and colour data.
 *
 * Variants are made when an image is uploaded and, for images that arrived another way (the
 * demo's generated SVG artwork), on first request; stores write whole files only, so several
 * processes can make the same variant at once.
 */
import { moveToTrash } from "../history/trash.js";
import path from "node:path";
import { and, desc, eq, isNull } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "../../db/client.js";
import { media } from "../../db/schema.js";
import { badRequest, noSuchFile, notFound } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { oncePerKey } from "../../lib/once-per-key.js";
import { siteRowWhere } from "../../lib/site-rows.js";
import type { MediaStore } from "../../media/store.js";
import { writeMediaFile } from "./storage.js";

export type Media = typeof media.$inferSelect;

/** Thumbnail width buckets (SPEC §9). */
export const VARIANT_WIDTHS = [100, 300, 500, 750, 1000, 1500] as const;
export type VariantWidth = (typeof VARIANT_WIDTHS)[number];

/** Largest upload accepted, in bytes. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** Largest side accepted, in pixels (a guard against decompression bombs). */
const MAX_PIXELS = 12000 * 12000;

const ACCEPTED_TYPES: Record<string, string> = {
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  heif: "image/avif",
  svg: "image/svg+xml",
};

export const NOT_AN_IMAGE = "The file is not an image we can read (JPEG, PNG, WebP, GIF, AVIF or SVG).";
export const FILE_TOO_LARGE = "The file is too large: images may be at most 20 MB.";
export const FOCAL_POINT_RANGE = "The focal point must be between 0 and 1.";

/** The variant widths an image of this width offers (never wider than the original, at least 100w). */
export function variantWidthsFor(width: number): VariantWidth[] {
  const list = VARIANT_WIDTHS.filter((w) => w <= width);
  return list.length ? list : [100];
}

/** The variant a `?format=` value names: "500w" → 500; "original" and anything else → undefined. */
export function parseVariant(format: string | undefined): VariantWidth | undefined {
  const m = /^(\d{2,4})w$/.exec(format ?? "");
  const n = m ? Number(m[1]) : Number.NaN;
  return (VARIANT_WIDTHS as readonly number[]).includes(n) ? (n as VariantWidth) : undefined;
}

/** Colour data as templates know it: averages of the four corners and the centre, hex without '#'. */
interface ColorData {
  topLeftAverage: string;
  topRightAverage: string;
  bottomLeftAverage: string;
  bottomRightAverage: string;
  centerAverage: string;
  suggestedBgColor: string;
}

const hex = (r: number, g: number, b: number) =>
  [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, "0")).join("");

function input(bytes: Buffer, isSvg: boolean, targetWidth?: number, originalWidth?: number) {
  // SVG is rasterised at 72 dpi by default: raise the density so a wide variant stays sharp.
  const density =
    isSvg && targetWidth && originalWidth && targetWidth > originalWidth
      ? Math.min(2400, Math.ceil((72 * targetWidth) / originalWidth))
      : undefined;
  return sharp(bytes, { limitInputPixels: MAX_PIXELS, density, animated: false });
}

/** Reads an image: its size, type and colour data. Throws the SPEC-style 400 when it is not an image. */
async function inspectImage(
  bytes: Buffer,
): Promise<{ width: number; height: number; contentType: string; colorData: ColorData }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>["metadata"]>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_PIXELS }).metadata();
  } catch {
    throw badRequest(NOT_AN_IMAGE);
  }
  const contentType = ACCEPTED_TYPES[meta.format ?? ""];
  if (!contentType || !meta.width || !meta.height) throw badRequest(NOT_AN_IMAGE);
  // EXIF orientation 5-8 swaps the sides.
  const swap = (meta.orientation ?? 1) >= 5;
  const width = swap ? meta.height : meta.width;
  const height = swap ? meta.width : meta.height;
  let colorData: ColorData;
  try {
    colorData = await colorDataOf(bytes, contentType === "image/svg+xml");
  } catch {
    throw badRequest(NOT_AN_IMAGE);
  }
  return { width, height, contentType, colorData };
}

/** Averages of a 3×3 reduction: the corners and the centre, and the dominant colour as background. */
export async function colorDataOf(bytes: Buffer, isSvg = false): Promise<ColorData> {
  // A small rendition is enough for averages (and keeps SVG rasterising cheap).
  const base = isSvg ? sharp(bytes, { limitInputPixels: MAX_PIXELS, density: 8 }) : input(bytes, false);
  const small = await base
    .rotate()
    .flatten({ background: "#ffffff" })
    .resize(96, 96, { fit: "inside" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const img = () => sharp(small.data, { raw: small.info });
  const { data } = await img().resize(3, 3, { fit: "fill", kernel: "cubic" }).raw().toBuffer({
    resolveWithObject: true,
  });
  const px = (x: number, y: number) => {
    const i = (y * 3 + x) * small.info.channels;
    return hex(data[i]!, data[i + 1]!, data[i + 2]!);
  };
  const d = (await img().stats()).dominant;
  return {
    topLeftAverage: px(0, 0),
    topRightAverage: px(2, 0),
    bottomLeftAverage: px(0, 2),
    bottomRightAverage: px(2, 2),
    centerAverage: px(1, 1),
    suggestedBgColor: hex(d.r, d.g, d.b),
  };
}

/** The store key of a variant: beside the original, under variants/. */
export function variantKey(m: Media, width: number): string {
  return `media/${m.websiteId}/${m.id}/variants/${width}w.webp`;
}

/** Each variant is made once at a time. */
const makeOnce = oncePerKey<string>();

/**
 * The key of a variant, made now if it does not exist yet: WebP, the bucket's width (never
 * wider than the original), EXIF orientation applied.
 */
export async function ensureVariant(store: MediaStore, m: Media, width: VariantWidth): Promise<string> {
  const key = variantKey(m, width);
  if ((await store.size(key)) !== undefined) return key;
  return makeVariant(store, m, width);
}

/** Makes a variant (once per process at a time) and returns its key. */
function makeVariant(store: MediaStore, m: Media, width: VariantWidth): Promise<string> {
  const key = variantKey(m, width);
  return makeOnce(key, async () => {
    const original = await store.read(m.storagePath);
    if (!original) throw new Error(`media ${m.id}: no original at ${m.storagePath}`);
    const isSvg = m.contentType === "image/svg+xml";
    const target = Math.min(width, Math.max(1, m.width));
    const bytes = await input(original, isSvg, target, m.width)
      .rotate()
      .resize({ width: target, withoutEnlargement: !isSvg })
      .webp({ quality: 80, effort: 4 })
      .toBuffer();
    await store.put(key, bytes, "image/webp");
    return key;
  });
}

/** Uploads an image for a website: stores the original, reads its size and colours, makes every variant. */
export async function uploadImage(
  db: Db,
  store: MediaStore,
  websiteId: string,
  upload: { filename: string; bytes: Buffer; title?: string },
): Promise<Media> {
  if (upload.bytes.length > MAX_UPLOAD_BYTES) throw badRequest(FILE_TOO_LARGE);
  if (!upload.bytes.length) throw badRequest(NOT_AN_IMAGE);
  const info = await inspectImage(upload.bytes);
  const id = newId();
  const filename = safeFilename(upload.filename, info.contentType);
  const storagePath = await writeMediaFile(store, websiteId, id, filename, upload.bytes);
  const title = (upload.title ?? filename.replace(/\.[a-z0-9]+$/i, "")).slice(0, 300);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(media)
      .values({
        id,
        websiteId,
        filename,
        contentType: info.contentType,
        width: info.width,
        height: info.height,
        byteSize: upload.bytes.length,
        title,
        colorData: { ...info.colorData },
        storagePath,
      })
      .returning();
    return created!;
  });
  for (const w of variantWidthsFor(row.width)) await makeVariant(store, row, w);
  return row;
}

const extensions: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/avif": "avif",
  "image/svg+xml": "svg",
};

/** A file name safe in a URL and on disk, with the extension of its real type. */
export function safeFilename(name: string, contentType: string): string {
  const base =
    path
      .basename(name || "image")
      .replace(/\.[^.]*$/, "")
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "image";
  return `${base}.${extensions[contentType] ?? "bin"}`;
}

export async function listMedia(db: Db, websiteId: string, limit = 200): Promise<Media[]> {
  return db
    .select()
    .from(media)
    .where(eq(media.websiteId, websiteId))
    .orderBy(desc(media.createdAt))
    .limit(limit);
}

/** Changes an image's title or focal point (0…1 on each axis). */
export async function updateMedia(
  db: Db,
  websiteId: string,
  id: string,
  patch: { title?: string; focalX?: number; focalY?: number },
): Promise<Media> {
  for (const v of [patch.focalX, patch.focalY]) {
    if (v !== undefined && (!Number.isFinite(v) || v < 0 || v > 1)) throw badRequest(FOCAL_POINT_RANGE);
  }
  return db.transaction(async (tx) => {
    const set: Partial<Media> = {};
    if (patch.title !== undefined) set.title = patch.title.slice(0, 300);
    if (patch.focalX !== undefined) set.focalX = patch.focalX;
    if (patch.focalY !== undefined) set.focalY = patch.focalY;
    const where = siteRowWhere(media, websiteId, id);
    const [row] = Object.keys(set).length
      ? await tx.update(media).set(set).where(where).returning()
      : await tx.select().from(media).where(where);
    if (!row) throw notFound("No such image.");
    return row;
  });
}

/**
 * Completes images stored without colour data (e.g. the demo's generated artwork): reads their
 * colours (their variants are made on first request). Safe to run from several processes at once.
 */
export async function completeMedia(
  db: Db,
  store: MediaStore,
  opts: { signal?: AbortSignal; colorData?: typeof colorDataOf } = {},
): Promise<number> {
  const colorData = opts.colorData ?? colorDataOf;
  const rows = await db.select().from(media).where(isNull(media.colorData)).limit(500);
  const done: { id: string; colorData: ColorData }[] = [];
  for (const m of rows) {
    if (opts.signal?.aborted) break;
    const bytes = await store.read(m.storagePath).catch(() => undefined);
    if (!bytes) continue;
    try {
      if (!m.contentType.startsWith("image/")) continue;
      done.push({ id: m.id, colorData: await colorData(bytes, m.contentType === "image/svg+xml") });
    } catch {
      // An unreadable original stays as it is; its page shows the original file.
    }
  }
  if (!done.length || opts.signal?.aborted) return 0;
  // One transaction: the sites' pages are invalidated once, not once per image.
  await db.transaction(async (tx) => {
    for (const d of done) {
      await tx
        .update(media)
        .set({ colorData: { ...d.colorData } })
        .where(and(eq(media.id, d.id), isNull(media.colorData)));
    }
  });
  return done.length;
}

/** Moves a media file to the trash: its row goes now, its files when the trash is purged. */
export async function deleteMedia(db: Db, websiteId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await moveToTrash(tx, websiteId, "media", id))) throw noSuchFile();
    await tx.delete(media).where(and(eq(media.websiteId, websiteId), eq(media.id, id)));
  });
}
