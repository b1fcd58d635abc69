/**
 * A site's sample content (placeholder items, products and images a starter brought): how much
 * is left, and removing all of it in one transaction. Pages and forms stay: they are the site.
 * A block that showed removed content is then left out of the live page (render/blocks.ts).
 */
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import { contentItems, media } from "../../db/schema.js";
import type { MediaStore } from "../../media/index.js";
import { mediaKey } from "../media/storage.js";

export interface SampleCounts {
  items: number;
  products: number;
  images: number;
}

/** How many sample items (products among them) and images the site still has. */
export async function sampleCounts(db: Db, websiteId: string): Promise<SampleCounts> {
  const [rows, [images]] = await Promise.all([
    db
      .select({ recordType: contentItems.recordType, n: count() })
      .from(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.isSample, true)))
      .groupBy(contentItems.recordType),
    db
      .select({ n: count() })
      .from(media)
      .where(and(eq(media.websiteId, websiteId), eq(media.isSample, true))),
  ]);
  const items = rows.reduce((n, r) => n + Number(r.n), 0);
  const products = Number(rows.find((r) => r.recordType === RecordType.STORE_ITEM)?.n ?? 0);
  return { items, products, images: Number(images?.n ?? 0) };
}

/** Removes every sample item, product (with its variants) and image of the site; answers what went. */
export async function removeSampleContent(
  db: Db,
  store: MediaStore,
  websiteId: string,
): Promise<SampleCounts> {
  const removed = await db.transaction(async (tx) => {
    const items = await tx
      .delete(contentItems)
      .where(and(eq(contentItems.websiteId, websiteId), eq(contentItems.isSample, true)))
      .returning({ recordType: contentItems.recordType });
    const images = await tx
      .delete(media)
      .where(and(eq(media.websiteId, websiteId), eq(media.isSample, true)))
      .returning({ id: media.id, filename: media.filename });
    return { items, images };
  });
  // The files go once their rows are gone; a file left behind is only unused space.
  await Promise.all(
    removed.images.map((m) => store.delete(mediaKey(websiteId, m.id, m.filename)).catch(() => undefined)),
  );
  return {
    items: removed.items.length,
    products: removed.items.filter((i) => i.recordType === RecordType.STORE_ITEM).length,
    images: removed.images.length,
  };
}
