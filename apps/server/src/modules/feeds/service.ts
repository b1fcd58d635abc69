/**
 * Product feeds (SPEC §1 "product feed URL copy": the Instagram feed and the dynamic ads feed): the
 * published products of a site as an RSS 2.0 catalog with the `g:` fields that Meta and Google
 * catalogs read, one entry per variant. Instagram shopping takes physical goods only; the dynamic
 * ads feed lists every product.
 */
import { ProductType, fractionDigitsOf, isVariantInStock, tracksStock } from "@atelier/commerce";
import type { Db } from "../../db/client.js";
import { escapeXml } from "../../lib/escape.js";
import { htmlToText } from "../../render/sanitize.js";
import { type CatalogProduct, productsByIds, variantImageUrls } from "../catalog/service.js";
import { collectionsOf, itemsOf } from "../content/service.js";

export const FEED_KINDS = ["instagram", "dynamic-ads"] as const;
export type FeedKind = (typeof FEED_KINDS)[number];

interface FeedSite {
  id: string;
  title: string;
  currency: string;
  /** The origin the feed was asked from: links and images are absolute on it. */
  origin: string;
}

interface FeedProduct extends CatalogProduct {
  description: string;
}

/** The site's published products in their store order, with a plain-text description each. */
async function publishedProducts(db: Db, websiteId: string): Promise<FeedProduct[]> {
  const stores = (await collectionsOf(db, websiteId)).filter((c) => c.kind === "products");
  const items = (await Promise.all(stores.map((c) => itemsOf(db, websiteId, c)))).flat();
  const products = await productsByIds(
    db,
    websiteId,
    items.map((i) => i.id),
  );
  return items.flatMap((i) => {
    const p = products.get(i.id);
    if (!p) return [];
    const description = htmlToText(i.excerpt || i.body)
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 5000);
    return [{ ...p, description: description || p.title }];
  });
}

/** "98.00 USD" (the currency's fraction digits: "9800 JPY"). */
export function feedPrice(minor: number, currency: string): string {
  const digits = fractionDigitsOf(currency);
  return `${(minor / 10 ** digits).toFixed(digits)} ${currency}`;
}

export async function productFeedXml(db: Db, site: FeedSite, kind: FeedKind): Promise<string> {
  const all = await publishedProducts(db, site.id);
  const products = kind === "instagram" ? all.filter((p) => p.productType === ProductType.PHYSICAL) : all;
  const variantImages = await variantImageUrls(
    db,
    products.flatMap((p) => p.variants),
  );
  const abs = (url: string) => (/^https?:\/\//.test(url) ? url : `${site.origin}${url}`);
  const entries: string[] = [];
  for (const p of products) {
    // SPEC §4: digital products and gift cards are never sold out.
    const stocked = tracksStock(p.productType);
    const grouped = p.variants.length > 1;
    for (const v of p.variants) {
      const options = Object.values(v.attributes ?? {}).filter(Boolean);
      const available = !stocked || isVariantInStock(v);
      const image = variantImages.get(v.id) ?? p.imageUrl;
      const fields = [
        ["g:id", v.sku || v.id],
        ["title", options.length ? `${p.title} – ${options.join(" / ")}` : p.title],
        ["description", p.description],
        ["link", abs(p.url)],
        image ? ["g:image_link", abs(image)] : undefined,
        ["g:availability", available ? "in stock" : "out of stock"],
        ["g:price", feedPrice(v.priceCents, site.currency)],
        v.onSale && v.salePriceCents < v.priceCents
          ? ["g:sale_price", feedPrice(v.salePriceCents, site.currency)]
          : undefined,
        ["g:brand", site.title],
        ["g:condition", "new"],
        grouped ? ["g:item_group_id", p.id] : undefined,
        ...Object.entries(v.attributes ?? {}).flatMap(([name, value]) => {
          const key = name.toLowerCase();
          return key === "size" || key === "color" || key === "colour"
            ? [[key === "size" ? "g:size" : "g:color", value]]
            : [];
        }),
      ].filter((f): f is string[] => f !== undefined);
      entries.push(
        `<item>${fields.map(([k, val]) => `<${k}>${escapeXml(String(val))}</${k}>`).join("")}</item>`,
      );
    }
  }
  const title = kind === "instagram" ? "Instagram shopping feed" : "Dynamic ads feed";
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">',
    "<channel>",
    `<title>${escapeXml(`${site.title}: ${title}`)}</title>`,
    `<link>${escapeXml(`${site.origin}/`)}</link>`,
    `<description>${escapeXml(`The products of ${site.title}, one entry per variant.`)}</description>`,
    ...entries,
    "</channel>",
    "</rss>",
    "",
  ].join("\n");
}
