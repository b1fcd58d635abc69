/**
 * Writes a starter into a new website, inside the transaction that creates the site: its forms,
 * pages, products, posts and gallery images. Every item and image it adds is marked
 * sample (`is_sample`), so the owner can see and remove the placeholder content in one go.
 * The artwork's files are written after the transaction (`writeArtwork`).
 */
import type { Tx } from "../../db/client.js";
import { RecordType } from "../../db/enums.js";
import * as t from "../../db/schema.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import type { MediaStore } from "../../media/index.js";
import { type Motif, artworkSvg } from "../../seed/art.js";
import { writeMediaFile } from "../media/storage.js";
import { slugify } from "../pages/service.js";
import type { Kit, Starter, StarterPage } from "./kit.js";

/** A generated picture waiting to be written to the media store. */
export interface Artwork {
  id: string;
  filename: string;
  svg: string;
}

function fileName(name: string): string {
  return `${slugify(name) || "image"}.svg`;
}

/** Adds the starter's content to the website; answers the artwork to write once the transaction commits. */
export async function applyStarter(
  tx: Tx,
  websiteId: string,
  starter: Starter,
  ownerEmail: string,
  now: Date,
): Promise<Artwork[]> {
  const art: Artwork[] = [];
  const mediaRows: (typeof t.media.$inferInsert)[] = [];
  const image = async (name: string, motif: Motif) => {
    const drawn = artworkSvg(name, motif);
    const id = newId();
    const filename = fileName(name);
    art.push({ id, filename, svg: drawn.svg });
    mediaRows.push({
      id,
      websiteId,
      filename,
      contentType: "image/svg+xml",
      width: drawn.width,
      height: drawn.height,
      byteSize: Buffer.byteLength(drawn.svg),
      title: name,
      storagePath: `media/${websiteId}/${id}/${filename}`,
      isSample: true,
    });
    return id;
  };
  const formIds = new Map(Object.keys(starter.forms).map((key) => [key, newId()]));
  const pageIds = new Map(starter.pages.map((p) => [p.key, newId()]));
  const kit: Kit = {
    image,
    page: (key) => pageIds.get(key) ?? "",
    form: (key) => formIds.get(key) ?? "",
  };
  if (formIds.size) {
    await tx.insert(t.forms).values(
      Object.entries(starter.forms).map(([key, f]) => ({
        id: formIds.get(key)!,
        websiteId,
        name: f.name,
        notifyEmail: ownerEmail,
        submissionMessage: f.submissionMessage,
        fields: f.fields,
      })),
    );
  }
  const collectionRows: (typeof t.collections.$inferInsert)[] = [];
  for (const [ordering, page] of starter.pages.entries()) {
    collectionRows.push({
      id: pageIds.get(page.key)!,
      websiteId,
      kind: page.kind,
      title: page.title,
      urlSlug: page.slug,
      description: page.description ?? "",
      ordering,
      isHome: Boolean(page.isHome),
      hiddenFromNav: Boolean(page.isHome),
      layout: page.kind === "page" ? { rows: page.layout ? await page.layout(kit) : [] } : null,
      options: page.options ?? {},
    });
  }
  const items: (typeof t.contentItems.$inferInsert)[] = [];
  const variants: (typeof t.productVariants.$inferInsert)[] = [];
  for (const page of starter.pages) {
    await pageItems(page, pageIds.get(page.key)!, { websiteId, image, now, items, variants });
  }
  if (mediaRows.length) await tx.insert(t.media).values(mediaRows);
  await tx.insert(t.collections).values(collectionRows);
  if (items.length) await tx.insert(t.contentItems).values(items);
  if (variants.length) await tx.insert(t.productVariants).values(variants);
  return art;
}

interface ItemSink {
  websiteId: string;
  image: Kit["image"];
  now: Date;
  items: (typeof t.contentItems.$inferInsert)[];
  variants: (typeof t.productVariants.$inferInsert)[];
}

/** The sample items of one page: products with their variants, posts, gallery images. */
async function pageItems(page: StarterPage, collectionId: string, sink: ItemSink): Promise<void> {
  const { websiteId, image, now, items, variants } = sink;
  const base = (ordering: number, title: string) => ({
    id: newId(),
    websiteId,
    collectionId,
    urlId: slugify(title),
    title,
    ordering,
    isSample: true,
  });
  for (const [i, p] of (page.products ?? []).entries()) {
    const mainImageId = await image(p.title, p.motif);
    const item = {
      ...base(i, p.title),
      recordType: RecordType.STORE_ITEM,
      body: p.body,
      excerpt: p.excerpt,
      categories: p.categories ?? [],
      mainImageId,
      imageIds: [mainImageId],
      structuredContent: {
        productType: p.type,
        variantOptionOrdering: p.option ? [p.option[0]] : [],
        isSubscribable: false,
      },
    };
    items.push(item);
    const values = p.option ? p.option[1] : [undefined];
    const code = slugify(p.title)
      .split("-")
      .map((w) => w.slice(0, 3).toUpperCase())
      .join("");
    for (const [j, value] of values.entries()) {
      variants.push({
        id: newId(),
        websiteId,
        itemId: item.id,
        sku: `${code}-${String(j + 1).padStart(2, "0")}`,
        attributes: value && p.option ? { [p.option[0]]: value } : {},
        priceCents: p.priceCents,
        // Services are booked, not counted; physical samples show as in stock.
        unlimited: p.type === 3,
        qtyInStock: p.type === 3 ? 0 : 20,
        ordering: j,
      });
    }
  }
  for (const [i, post] of (page.posts ?? []).entries()) {
    items.push({
      ...base(i, post.title),
      recordType: RecordType.TEXT,
      body: post.body,
      excerpt: post.excerpt,
      authorName: post.author,
      categories: post.categories,
      mainImageId: await image(post.title, post.motif),
      publishOn: new Date(now.getTime() - post.daysAgo * DAY_MS),
    });
  }
  for (const [i, g] of (page.images ?? []).entries()) {
    items.push({
      ...base(i, g.title),
      recordType: RecordType.IMAGE,
      body: g.caption ? `<p>${g.caption}</p>` : "",
      mainImageId: await image(g.title, g.motif),
    });
  }
}

/** Writes the starter's artwork to the media store (after its rows are committed). */
export async function writeArtwork(store: MediaStore, websiteId: string, art: Artwork[]): Promise<void> {
  await Promise.all(art.map((a) => writeMediaFile(store, websiteId, a.id, a.filename, a.svg)));
}
