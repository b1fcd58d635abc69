/**
 * The sitemap of a site (sitemaps.org protocol 0.9 with Google's image extension): every public
 * page, collection page, product, post, event and gallery item, with the date of its last change
 * and the images of products and posts. Never a password-protected or member-area page (nor
 * their items), a draft or scheduled item, a folder, the cart, checkout or search.
 * Over 50,000 addresses it becomes a sitemap index of parts.
 */
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { collections, contentItems } from "../../db/schema.js";
import { escapeXml } from "../../lib/escape.js";
import { memberRule } from "../../render/access.js";
import { itemUrl } from "../../render/serialize.js";
import { isPublished, mediaByIds } from "../content/service.js";
import { mediaUrl } from "../media/storage.js";

const SITEMAP_LIMIT = 50_000;

export interface SitemapEntry {
  loc: string;
  lastmod: Date;
  images: string[];
}

/** Kinds whose items have pages of their own. */
const ITEM_PAGES = new Set(["blog", "events", "products", "gallery"]);
/** Kinds whose items carry images worth listing. */
const IMAGE_KINDS = new Set(["blog", "products"]);

export async function sitemapEntries(
  db: Db,
  websiteId: string,
  origin: string,
  now: Date,
): Promise<SitemapEntry[]> {
  const all = await db.select().from(collections).where(eq(collections.websiteId, websiteId));
  const isPublic = (c: (typeof all)[number]) => !c.passwordHash && !memberRule(c).members && !c.seoHidden;
  // A page inside a protected folder is no more public than the folder.
  const byId = new Map(all.map((c) => [c.id, c]));
  const open = all.filter(
    (c) => c.kind !== "folder" && isPublic(c) && (!c.folderId || isPublic(byId.get(c.folderId) ?? c)),
  );
  const abs = (path: string) => `${origin}${path}`;
  // Rows come in no set order: pages by their place in the navigation, items by theirs within
  // their page, then by address, so a sitemap reads the same after an export and import.
  open.sort(
    (a, b) =>
      Number(b.isHome) - Number(a.isHome) || a.ordering - b.ordering || a.urlSlug.localeCompare(b.urlSlug),
  );
  const place = new Map(open.map((c, i) => [c.id, i]));

  const withItems = open.filter((c) => ITEM_PAGES.has(c.kind));
  const items = withItems.length
    ? await db
        .select()
        .from(contentItems)
        .where(
          isPublished(
            websiteId,
            inArray(
              contentItems.collectionId,
              withItems.map((c) => c.id),
            ),
          ),
        )
    : [];
  const visible = items
    .filter((i) => (!i.publishOn || i.publishOn <= now) && !i.seoHidden)
    .sort(
      (a, b) =>
        place.get(a.collectionId)! - place.get(b.collectionId)! ||
        a.ordering - b.ordering ||
        a.urlId.localeCompare(b.urlId),
    );
  const imageIds = visible
    .filter((i) => IMAGE_KINDS.has(byId.get(i.collectionId)?.kind ?? ""))
    .flatMap((i) => [i.mainImageId ?? "", ...i.imageIds]);
  const media = await mediaByIds(db, websiteId, imageIds);

  const latest = new Map<string, Date>();
  for (const i of visible) {
    const was = latest.get(i.collectionId);
    if (!was || i.updatedAt > was) latest.set(i.collectionId, i.updatedAt);
  }
  const entries: SitemapEntry[] = open.map((c) => {
    const itemChange = latest.get(c.id);
    return {
      loc: abs(c.isHome ? "/" : `/${c.urlSlug}`),
      lastmod: itemChange && itemChange > c.updatedAt ? itemChange : c.updatedAt,
      images: [],
    };
  });
  for (const i of visible) {
    const c = byId.get(i.collectionId)!;
    const images = [i.mainImageId, ...i.imageIds]
      .map((id) => (id ? media.get(id) : undefined))
      .filter((m) => m?.contentType.startsWith("image/"))
      .map((m) => abs(mediaUrl(m!.id, m!.filename)));
    entries.push({ loc: abs(itemUrl(c, i)), lastmod: i.updatedAt, images: [...new Set(images)] });
  }
  return entries;
}

/** One `<urlset>` of entries. */
function urlsetXml(entries: SitemapEntry[]): string {
  const urls = entries.map(
    (e) =>
      `<url><loc>${escapeXml(e.loc)}</loc><lastmod>${e.lastmod.toISOString()}</lastmod>${e.images
        .map((src) => `<image:image><image:loc>${escapeXml(src)}</image:loc></image:image>`)
        .join("")}</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">',
    ...urls,
    "</urlset>",
    "",
  ].join("\n");
}

/** The index of `count` parts at /sitemap-N.xml. */
function sitemapIndexXml(origin: string, count: number, lastmod: Date): string {
  const parts = Array.from(
    { length: count },
    (_, i) =>
      `<sitemap><loc>${escapeXml(`${origin}/sitemap-${i + 1}.xml`)}</loc><lastmod>${lastmod.toISOString()}</lastmod></sitemap>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...parts,
    "</sitemapindex>",
    "",
  ].join("\n");
}

/** The documents of a sitemap: the one urlset, or the index and its parts (1-based). */
export function sitemapDocuments(
  entries: SitemapEntry[],
  origin: string,
  limit = SITEMAP_LIMIT,
): { main: string; parts: string[] } {
  if (entries.length <= limit) return { main: urlsetXml(entries), parts: [] };
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i += limit) parts.push(urlsetXml(entries.slice(i, i + limit)));
  const lastmod = entries.reduce((d, e) => (e.lastmod > d ? e.lastmod : d), new Date(0));
  return { main: sitemapIndexXml(origin, parts.length, lastmod), parts };
}
