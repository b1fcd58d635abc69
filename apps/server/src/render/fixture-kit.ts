/**
 * The pieces the renderer's fixture sites (fixtures.ts) are built from: a site with its settings,
 * images drawn by the seed's artwork, layout blocks and rows, and a playable tone.
 */
import type { Tx } from "../db/client.js";
import { BillingStatus, SiteStatus } from "../db/enums.js";
import * as t from "../db/schema.js";
import { newId } from "../lib/ids.js";
import { type Motif, artworkSvg } from "../seed/art.js";

/** A short sine-wave WAV (8 kHz, mono, 16-bit), so albums have something real to play. */
export function toneWav(seconds: number, hz: number): Buffer {
  const rate = 8000;
  const n = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + n * 2);
  buf.write("RIFF", 0);
  buf.writeUInt32LE(36 + n * 2, 4);
  buf.write("WAVE", 8);
  buf.write("fmt ", 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write("data", 36);
  buf.writeUInt32LE(n * 2, 40);
  for (let i = 0; i < n; i++) {
    const fade = Math.min(1, i / 400, (n - i) / 400);
    buf.writeInt16LE(Math.round(Math.sin((2 * Math.PI * hz * i) / rate) * 9000 * fade), 44 + i * 2);
  }
  return buf;
}

export interface Files {
  put(websiteId: string, id: string, filename: string, bytes: Buffer | string): void;
}

let counter = 0;
/** A layout block; ids are numbered in the order blocks are made. */
export const block = (type: string, props: Record<string, unknown> = {}) => ({
  id: `fx-${type}-${++counter}`,
  type,
  ...props,
});
/** A layout row with its columns of equal width. */
export const row = (...columns: Record<string, unknown>[][]) => ({
  columns: columns.map((blocks) => ({ span: Math.floor(12 / columns.length), blocks })),
});

/** A published website with its settings and store settings. */
export async function site(
  tx: Tx,
  v: {
    identifier: string;
    title: string;
    tagline: string;
    type: number;
    theme: string;
    featureSetId: string;
  },
): Promise<string> {
  const id = newId();
  await tx.insert(t.websites).values({
    id,
    identifier: v.identifier,
    title: v.title,
    tagline: v.tagline,
    websiteType: v.type,
    siteStatus: SiteStatus.PAID,
    billingStatus: BillingStatus.SUBSCRIBED,
    theme: v.theme,
    featureSetId: v.featureSetId,
  });
  await tx.insert(t.websiteSettings).values({
    websiteId: id,
    shareButtonOptions: { facebook: true, twitter: true },
    socialLinks: [{ service: "instagram", profileUrl: "https://instagram.com/example", userName: "example" }],
  });
  await tx.insert(t.storeSettings).values({ websiteId: id });
  return id;
}

/** Makes images of the site: an artwork SVG in the media library and on disk. */
export function imageMaker(tx: Tx, websiteId: string, files: Files) {
  return async (name: string, motif: Motif) => {
    const art = artworkSvg(name, motif);
    const id = newId();
    const filename = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.svg`;
    await tx.insert(t.media).values({
      id,
      websiteId,
      filename,
      contentType: "image/svg+xml",
      width: art.width,
      height: art.height,
      byteSize: Buffer.byteLength(art.svg),
      title: name,
      focalX: 0.5,
      focalY: 0.4,
      storagePath: `media/${websiteId}/${id}/${filename}`,
    });
    files.put(websiteId, id, filename, art.svg);
    return id;
  };
}
