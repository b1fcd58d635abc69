/** Item pages (content item, 50): products, blog posts, events, gallery images and album tracks. */
import { isSoldOut, tracksStock } from "@atelier/commerce";
import { PageType, RecordType } from "../../db/enums.js";
import { type Collection, type ContentItem, commentsOf } from "../../modules/content/service.js";
import { htmlToText } from "../sanitize.js";
import { collectionJson } from "../serialize.js";
import type { Ctx, Json, PageResult } from "./shared.js";

/** Scarcity and restock views of a product, keyed by its id (what the commerce formatters read). */
function merchandisingContext(item: Json, store: { restockNotificationsEnabled: boolean }): Json {
  const sc = item.structuredContent as {
    productType: number;
    scarcityText?: string;
    variants: { id: string; qtyInStock: number; unlimited: boolean; attributes: Record<string, string> }[];
  };
  const variants = sc.variants ?? [];
  const finite = variants.filter((v) => !v.unlimited && v.qtyInStock > 0);
  const single = variants.length <= 1;
  const restockable = store.restockNotificationsEnabled && tracksStock(sc.productType);
  const soldOutVariants = variants.filter((v) => !v.unlimited && v.qtyInStock <= 0);
  return {
    scarcityEnabled: Boolean(sc.scarcityText) && finite.length > 0,
    scarcityText: sc.scarcityText ?? "",
    scarcityShownByDefault: single,
    scarcityTemplateViews: finite.map((v) =>
      Object.keys(v.attributes ?? {}).length
        ? { qtyInStock: v.qtyInStock, attributes: v.attributes }
        : { qtyInStock: v.qtyInStock },
    ),
    mailingListSignUpEnabled: true,
    mailingListOptInByDefault: false,
    restockNotificationMessages: {
      buttonText: "Sign Up",
      CTAText: "Get notified by email when this product is back in stock",
      placeholderText: "Your Email",
      mailingListDescription: "Subscribe to our mailing list",
    },
    restockNotificationViews: restockable
      ? soldOutVariants.map((v) => ({ variantId: v.id, hiddenByDefault: !single }))
      : [],
  };
}

export async function itemPage(ctx: Ctx, c: Collection, item: ContentItem): Promise<PageResult> {
  const { db, site } = ctx;
  const [json] = (await ctx.jsonOf(c, [item])) as [Json];
  const extra: Json = {};
  // Neighbours in the collection's order: previous and next item links.
  let siblings = await ctx.rowsOf(c);
  if (c.kind === "blog") siblings = siblings.filter((i) => !i.publishOn || i.publishOn <= ctx.req.now);
  const at = siblings.findIndex((i) => i.id === item.id);
  const neighbour = (i: ContentItem | undefined) =>
    i ? { title: i.title, fullUrl: itemUrlOf(c, i) } : undefined;
  extra.pagination = { prevItem: neighbour(siblings[at - 1]), nextItem: neighbour(siblings[at + 1]) };
  let template = "blog.item";
  if (item.recordType === RecordType.STORE_ITEM) {
    template = "products.item";
    extra.productMerchandisingContext = { [item.id]: merchandisingContext(json, ctx.settings.store) };
    extra.soldOut = isSoldOut(json);
    const related = siblings
      .filter((i) => i.id !== item.id && i.categories.some((cat) => item.categories.includes(cat)))
      .slice(0, 4);
    const more =
      related.length < 4
        ? siblings.filter((i) => i.id !== item.id && !related.includes(i)).slice(0, 4 - related.length)
        : [];
    extra.relatedProducts = await ctx.jsonOf(c, [...related, ...more]);
  } else if (item.recordType === RecordType.EVENT) {
    template = "events.item";
    const loc = (item.location ?? {}) as Record<string, unknown>;
    const lat = Number(loc.mapLat);
    const lng = Number(loc.mapLng);
    const address = [loc.addressLine1, loc.addressLine2, loc.addressCountry].filter(Boolean).join(", ");
    extra.mapUrl =
      address || Number.isFinite(lat)
        ? Number.isFinite(lat) && Number.isFinite(lng) && (lat !== 0 || lng !== 0)
          ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`
          : `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`
        : undefined;
    const end = item.endDate ?? item.startDate;
    extra.eventPast = end ? end.getTime() < ctx.req.now.getTime() : false;
  } else if (item.recordType === RecordType.IMAGE) {
    template = "gallery.item";
  } else if (item.recordType === RecordType.AUDIO) {
    template = "album.item";
  }
  if (item.recordType === RecordType.TEXT) {
    extra.comments = (await commentsOf(db, site.id, item.id)).map((cm) => ({
      id: cm.id,
      authorName: cm.authorName,
      body: cm.body,
      addedOn: cm.createdAt.getTime(),
    }));
  }
  return ctx.page(200, PageType.CONTENT_ITEM, template, {
    collection: collectionJson(c),
    item: json,
    ...extra,
    pageTitle: item.seoTitle || item.title,
    metaDescription:
      item.seoDescription || htmlToText(item.excerpt || item.body).slice(0, 300) || ctx.site.tagline,
    ogImage: (json.mainImage as { src?: string } | undefined)?.src,
  });
}

function itemUrlOf(c: Collection, i: ContentItem): string {
  return c.kind === "products" ? `/${c.urlSlug}/p/${i.urlId}` : `/${c.urlSlug}/${i.urlId}`;
}
