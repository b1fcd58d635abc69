/**
 * Database rows to the JSON context themes are rendered from (the shapes SPEC §3 names).
 * Only public fields are copied: nothing private (password hashes, notification addresses,
 * captcha secrets) can reach a page or `?format=json`.
 */
import { decimalMoney, parseProductType, productTypeName, valueMoney } from "@atelier/commerce";
import { RecordType } from "../db/enums.js";
import type { Variant } from "../modules/catalog/service.js";
import type { Collection, ContentItem, Media } from "../modules/content/service.js";
import { variantWidthsFor } from "../modules/media/service.js";
import { mediaUrl } from "../modules/media/storage.js";
import {
  type StoreSettings,
  type Website,
  type WebsiteSettings,
  siteBaseUrl,
} from "../modules/sites/service.js";
import { galleryOptions } from "./gallery.js";
import { htmlToText, richTextForPage, textAsHtml } from "./sanitize.js";

export function websiteJson(site: Website, publicUrl: string) {
  const base = siteBaseUrl(site, publicUrl);
  return {
    id: site.id,
    identifier: site.identifier,
    websiteType: site.websiteType,
    siteStatus: { value: site.siteStatus },
    billingStatus: site.billingStatus,
    siteTitle: site.title,
    siteTagline: htmlToText(site.tagline),
    createdOn: site.createdAt.getTime(),
    timeZone: site.timeZone,
    language: site.locale,
    baseUrl: base,
    authenticUrl: base,
  };
}

export function websiteSettingsJson(settings: WebsiteSettings, store: StoreSettings) {
  return {
    useCLDRMoneyFormat: settings.useCldrMoneyFormat,
    commentsEnabled: settings.commentsEnabled,
    disqusShortName: settings.disqusShortName ?? "",
    disqusShortname: settings.disqusShortName ?? "",
    simpleLikingEnabled: settings.simpleLikingEnabled,
    shareButtonOptions: settings.shareButtonOptions,
    cartPillPosition: settings.cartPillPosition,
    hideFromSearchEngines: settings.hideFromSearchEngines,
    storeSettings: storeSettingsJson(store),
  };
}

export function storeSettingsJson(store: StoreSettings) {
  return { currency: store.currency, selectedCurrency: store.currency, ...storeOptionsJson(store) };
}

/** The store's options as both the page context and the owner's store settings answer them. */
export function storeOptionsJson(store: StoreSettings) {
  return {
    multipleQuantityAllowedForServices: store.multipleQuantityAllowedForServices,
    customSoldOutText: store.customSoldOutText ?? "",
    restockNotificationsEnabled: store.restockNotificationsEnabled,
    restockNotificationsSuccessText: store.restockNotificationsSuccessText ?? "",
    soldOutVariantsDropdownDisabled: store.soldOutVariantsDropdownDisabled,
    measurementStandard: store.measurementStandard,
  };
}

/** An image with everything a theme needs for a responsive `<img>`: srcset variants, focal point, colours. */
export function imageJson(m: Media | undefined) {
  if (!m) return undefined;
  const assetUrl = mediaUrl(m.id, m.filename);
  const isImage = m.contentType.startsWith("image/");
  const widths = isImage ? variantWidthsFor(m.width) : [];
  const largest = widths.at(-1);
  return {
    id: m.id,
    assetUrl,
    title: m.title,
    filename: m.filename,
    contentType: m.contentType,
    originalSize: `${m.width}x${m.height}`,
    width: m.width,
    height: m.height,
    mediaFocalPoint: { x: m.focalX, y: m.focalY },
    /** CSS object-position of the focal point. */
    focalPosition: `${round(m.focalX * 100)}% ${round(m.focalY * 100)}%`,
    colorData: m.colorData ?? undefined,
    /** A placeholder colour while the image loads. */
    bgColor: m.colorData?.centerAverage ? `#${m.colorData.centerAverage}` : "transparent",
    systemDataVariants: widths.map((w) => `${w}w`).join(","),
    /** The variants as a `srcset` value. */
    srcset: widths.map((w) => `${assetUrl}?format=${w}w ${Math.min(w, m.width) || w}w`).join(", "),
    /** A good default `src`: the 1000w variant or the largest there is. */
    src: largest ? `${assetUrl}?format=${Math.min(1000, largest)}w` : assetUrl,
    /** Small variant, for thumbnails. */
    thumbUrl: largest ? `${assetUrl}?format=${Math.min(300, largest)}w` : assetUrl,
  };
}

const round = (n: number) => Math.round(n * 10) / 10;

const typeNames: Record<string, string> = {
  page: "page",
  blog: "blog",
  events: "events",
  products: "products",
  gallery: "gallery",
  album: "album",
  folder: "folder",
};

export function collectionJson(c: Collection) {
  const options = c.options ?? {};
  return {
    id: c.id,
    title: c.title,
    urlId: c.urlSlug,
    fullUrl: c.isHome ? "/" : `/${c.urlSlug}`,
    ...(c.seoHidden ? { seoHidden: true } : {}),
    typeName: typeNames[c.kind] ?? c.kind,
    type: c.kind === "page" ? 10 : 1,
    description: c.description,
    folder: c.kind === "folder",
    folderBehavior: c.folderBehavior ?? undefined,
    passwordProtected: Boolean(c.passwordHash),
    seoTitle: c.seoTitle ?? undefined,
    seoDescription: c.seoDescription ?? undefined,
    showPastOrUpcomingEvents:
      c.kind === "events"
        ? ((options.showPastOrUpcomingEvents as string | undefined) ?? "upcoming")
        : undefined,
    calendarView: c.kind === "events" ? Boolean(options.calendarView) : undefined,
    backgroundSource: (options.backgroundSource as string | undefined) ?? "none",
    options: c.kind === "gallery" ? galleryOptions(options) : publicOptions(options),
  };
}

/** Collection options a visitor may see (member lists and other private settings are left out). */
function publicOptions(options: Record<string, unknown>): Record<string, unknown> {
  const { memberAreaUsers: _users, ...rest } = options;
  return rest;
}

export function itemUrl(c: Collection, item: ContentItem): string {
  return c.kind === "products" ? `/${c.urlSlug}/p/${item.urlId}` : `/${c.urlSlug}/${item.urlId}`;
}

function variantJson(v: Variant, currency: string, images: Map<string, Media>) {
  return {
    id: v.id,
    sku: v.sku,
    attributes: v.attributes,
    optionValues: Object.entries(v.attributes).map(([optionName, value]) => ({ optionName, value })),
    price: v.priceCents,
    salePrice: v.salePriceCents,
    onSale: v.onSale,
    priceMoney: valueMoney(v.priceCents, currency),
    salePriceMoney: valueMoney(v.salePriceCents, currency),
    priceDecimalMoney: decimalMoney(v.priceCents, currency),
    qtyInStock: v.qtyInStock,
    unlimited: v.unlimited,
    mainImage: v.mainImageId ? imageJson(images.get(v.mainImageId)) : undefined,
  };
}

interface ItemExtras {
  images: Map<string, Media>;
  variants?: Variant[];
  currency: string;
  commentCount?: number;
}

const recordTypeNames: Record<number, string> = {
  1: "text",
  2: "image",
  4: "quote",
  5: "link",
  7: "audio",
  8: "video",
  11: "store-item",
  12: "event",
  13: "gallery",
};

export function itemJson(c: Collection, item: ContentItem, x: ItemExtras) {
  const main = item.mainImageId ? x.images.get(item.mainImageId) : undefined;
  const sc = (item.structuredContent ?? {}) as Record<string, unknown>;
  const excerptText = item.excerpt ? htmlToText(item.excerpt) : "";
  const base = {
    id: item.id,
    collectionId: item.collectionId,
    recordType: item.recordType,
    recordTypeName: recordTypeNames[item.recordType] ?? "text",
    title: item.title,
    ...(item.seoHidden ? { seoHidden: true } : {}),
    // Placeholder content a starter brought (docs/starters.md): shown with a "Sample" badge.
    ...(item.isSample ? { isSample: true } : {}),
    urlId: item.urlId,
    fullUrl: itemUrl(c, item),
    body: richTextForPage(item.body),
    excerpt: richTextForPage(item.excerpt),
    excerptText,
    assetUrl: main ? imageJson(main)!.assetUrl : undefined,
    mainImageId: item.mainImageId ?? undefined,
    systemDataId: item.mainImageId ?? undefined,
    mainImage: imageJson(main),
    items: item.imageIds.map((id) => imageJson(x.images.get(id))).filter(Boolean),
    categories: item.categories,
    category: item.categories[0],
    tags: item.tags,
    author: item.authorName ? { displayName: item.authorName } : undefined,
    publishOn: item.publishOn?.getTime(),
    addedOn: item.createdAt.getTime(),
    updatedOn: item.updatedAt.getTime(),
    likeCount: item.likeCount,
    commentState: item.commentState,
    publicCommentCount: x.commentCount ?? 0,
    location: item.location ?? undefined,
    startDate: item.startDate?.getTime(),
    endDate: item.endDate?.getTime(),
    sourceUrl: typeof sc.sourceUrl === "string" ? sc.sourceUrl : undefined,
    externalLink: typeof sc.externalLink === "string" ? sc.externalLink : undefined,
  };
  if (item.recordType === RecordType.AUDIO) {
    return {
      ...base,
      structuredContent: {
        audioAssetUrl: typeof sc.audioAssetUrl === "string" ? sc.audioAssetUrl : "",
        duration: typeof sc.duration === "number" ? sc.duration : undefined,
        artist: typeof sc.artist === "string" ? sc.artist : undefined,
      },
    };
  }
  if (item.recordType !== RecordType.STORE_ITEM) return base;
  const productType = Number(sc.productType ?? 1);
  // The product-level price (SPEC §3 Product: priceMoney, salePriceMoney, onSale) is the first
  // variant's: digital products and gift cards are priced by it.
  const first = x.variants?.[0];
  return {
    ...base,
    variantOptionOrdering: sc.variantOptionOrdering ?? [],
    structuredContent: {
      productType,
      productTypeName: productTypeName(parseProductType(productType)),
      priceMoney: first ? valueMoney(first.priceCents, x.currency) : undefined,
      salePriceMoney: first ? valueMoney(first.salePriceCents, x.currency) : undefined,
      onSale: first?.onSale ?? false,
      variants: (x.variants ?? []).map((v) => variantJson(v, x.currency, x.images)),
      variantOptionOrdering: sc.variantOptionOrdering ?? [],
      isSubscribable: Boolean(sc.isSubscribable),
      subscriptionPlan: sc.subscriptionPlan,
      useCustomAddButtonText: Boolean(sc.useCustomAddButtonText),
      customAddButtonText: textAsHtml(
        typeof sc.customAddButtonText === "string" ? sc.customAddButtonText : "",
      ),
      scarcityText: sc.scarcityText,
      giftCardDenominations: sc.giftCardDenominations,
      additionalFieldsFormId: sc.additionalFieldsFormId,
    },
  };
}
