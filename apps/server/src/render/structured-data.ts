/**
 * Search-engine data of a page, built from its page context: schema.org JSON-LD (WebSite with its
 * search and Organization on the home page; Product with offers, BlogPosting and Event on item
 * pages, with a BreadcrumbList), the page's robots rule and its feed link.
 *
 * The JSON-LD goes into a `<script type="application/ld+json">` element: it is serialised with
 * `<`, `>`, `&` and the line separators escaped, so no content can close the element.
 */
import { parseProductType, tracksStock } from "@atelier/commerce";
import { PageType } from "../db/enums.js";

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const iso = (v: unknown): string | undefined =>
  typeof v === "number" && Number.isFinite(v) ? new Date(v).toISOString() : undefined;

/** JSON for a script element: nothing in it can end the element or the line. */
function jsonLdText(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function absolute(origin: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url.startsWith("/") ? "" : "/"}${url}`;
}

function website(ctx: Json, origin: string): Json[] {
  const site = obj(ctx.website);
  const name = str(site.siteTitle);
  const sameAs = (Array.isArray(ctx.socialAccounts) ? ctx.socialAccounts : [])
    .map((a) => str(obj(a).profileUrl))
    .filter((u) => /^https?:\/\//.test(u));
  return [
    {
      "@type": "WebSite",
      "@id": `${origin}/#website`,
      name,
      url: `${origin}/`,
      ...(str(site.siteTagline) ? { description: str(site.siteTagline) } : {}),
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${origin}/search?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    },
    {
      "@type": "Organization",
      "@id": `${origin}/#organization`,
      name,
      url: `${origin}/`,
      ...(sameAs.length ? { sameAs } : {}),
    },
  ];
}

function breadcrumbs(ctx: Json, origin: string): Json {
  const collection = obj(ctx.collection);
  const item = obj(ctx.item);
  const crumbs = [
    { name: str(obj(ctx.website).siteTitle) || "Home", url: `${origin}/` },
    { name: str(collection.title), url: absolute(origin, str(collection.fullUrl)) },
    { name: str(item.title), url: absolute(origin, str(item.fullUrl)) },
  ];
  return {
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: c.name,
      item: c.url,
    })),
  };
}

function images(item: Json, origin: string): string[] {
  const urls = [
    str(item.assetUrl),
    ...(Array.isArray(item.items) ? item.items.map((i) => str(obj(i).assetUrl)) : []),
  ];
  return [...new Set(urls.filter(Boolean).map((u) => absolute(origin, u)))];
}

/** "68.00" from `{value, currency}` or `{decimalValue, currencyCode}`. */
function moneyOf(m: unknown): { price: string; currency: string } | undefined {
  const o = obj(m);
  const price = str(o.value ?? o.decimalValue);
  const currency = str(o.currency ?? o.currencyCode);
  return price && currency ? { price, currency } : undefined;
}

const IN_STOCK = "https://schema.org/InStock";
const OUT_OF_STOCK = "https://schema.org/OutOfStock";

function product(item: Json, ctx: Json, origin: string): Json {
  const content = obj(item.structuredContent);
  const url = absolute(origin, str(item.fullUrl));
  // Digital products and gift cards never sell out.
  const stocked = tracksStock(parseProductType(content.productType));
  const variants = (Array.isArray(content.variants) ? content.variants : []).map(obj);
  const offers = variants.flatMap((v) => {
    const money = moneyOf(v.onSale ? v.salePriceMoney : v.priceMoney) ?? moneyOf(v.priceDecimalMoney);
    if (!money) return [];
    const available = !stocked || v.unlimited === true || Number(v.qtyInStock) > 0;
    return [
      {
        "@type": "Offer",
        price: money.price,
        priceCurrency: money.currency,
        availability: available ? IN_STOCK : OUT_OF_STOCK,
        itemCondition: "https://schema.org/NewCondition",
        url,
        ...(str(v.sku) ? { sku: str(v.sku) } : {}),
      },
    ];
  });
  const prices = offers.map((o) => Number(o.price));
  const description = str(item.excerptText) || str(ctx.metaDescription);
  const brand = str(obj(ctx.website).siteTitle);
  return {
    "@type": "Product",
    name: str(item.title),
    url,
    ...(description ? { description } : {}),
    image: images(item, origin),
    ...(str(variants[0]?.sku) ? { sku: str(variants[0]?.sku) } : {}),
    ...(brand ? { brand: { "@type": "Brand", name: brand } } : {}),
    ...(offers.length === 1
      ? { offers: offers[0] }
      : offers.length > 1
        ? {
            offers: {
              "@type": "AggregateOffer",
              priceCurrency: offers[0]!.priceCurrency,
              lowPrice: Math.min(...prices).toFixed(str(offers[0]!.price).split(".")[1]?.length ?? 0),
              highPrice: Math.max(...prices).toFixed(str(offers[0]!.price).split(".")[1]?.length ?? 0),
              offerCount: offers.length,
              availability: offers.some((o) => o.availability === IN_STOCK) ? IN_STOCK : OUT_OF_STOCK,
              offers,
            },
          }
        : {}),
  };
}

function blogPosting(item: Json, ctx: Json, origin: string): Json {
  const author = str(obj(item.author).displayName);
  const image = images(item, origin);
  const published = iso(item.publishOn) ?? iso(item.addedOn);
  return {
    "@type": "BlogPosting",
    headline: str(item.title).slice(0, 110),
    url: absolute(origin, str(item.fullUrl)),
    mainEntityOfPage: absolute(origin, str(item.fullUrl)),
    ...(published ? { datePublished: published } : {}),
    ...(iso(item.updatedOn) ? { dateModified: iso(item.updatedOn) } : {}),
    author: author
      ? { "@type": "Person", name: author }
      : { "@type": "Organization", name: str(obj(ctx.website).siteTitle) },
    ...(image.length ? { image } : {}),
    ...(str(item.excerptText) ? { description: str(item.excerptText) } : {}),
  };
}

function event(item: Json, origin: string): Json {
  const location = obj(item.location);
  const street = str(location.addressLine1);
  const address = {
    "@type": "PostalAddress",
    ...(street ? { streetAddress: street } : {}),
    ...(str(location.addressLine2) ? { addressLocality: str(location.addressLine2) } : {}),
    ...(str(location.addressCountry) ? { addressCountry: str(location.addressCountry) } : {}),
  };
  const image = images(item, origin);
  return {
    "@type": "Event",
    name: str(item.title),
    url: absolute(origin, str(item.fullUrl)),
    ...(iso(item.startDate) ? { startDate: iso(item.startDate) } : {}),
    ...(iso(item.endDate) ? { endDate: iso(item.endDate) } : {}),
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    location: {
      "@type": "Place",
      name: str(location.addressTitle) || street || str(obj(item).title),
      address,
    },
    ...(image.length ? { image } : {}),
    ...(str(item.excerptText) ? { description: str(item.excerptText) } : {}),
  };
}

/** The JSON-LD of a page, or undefined when it has none. */
export function structuredDataFor(pageType: number, ctx: Json, origin: string): string | undefined {
  const graph: Json[] = [];
  const kind = str(obj(ctx.collection).typeName) || str(obj(ctx.collection).kind);
  if (ctx.isHome === true) graph.push(...website(ctx, origin));
  if (pageType === PageType.CONTENT_ITEM && ctx.item) {
    const item = obj(ctx.item);
    if (kind === "products") graph.push(product(item, ctx, origin));
    else if (kind === "blog") graph.push(blogPosting(item, ctx, origin));
    else if (kind === "events") graph.push(event(item, origin));
    graph.push(breadcrumbs(ctx, origin));
  }
  return graph.length ? jsonLdText({ "@context": "https://schema.org", "@graph": graph }) : undefined;
}

/** noindex for every system page (not found, search, lock screens, cart and checkout…) and hidden sites. */
export function robotsMetaFor(pageType: number, hiddenFromSearch: boolean): string | undefined {
  return hiddenFromSearch || pageType >= PageType.NOT_FOUND ? "noindex" : undefined;
}

/** The RSS feed of a blog page or post, for the alternate link. */
export function feedUrlFor(ctx: Json): string | undefined {
  const collection = obj(ctx.collection);
  const kind = str(collection.typeName) || str(collection.kind);
  return kind === "blog" && str(collection.fullUrl) ? `${str(collection.fullUrl)}?format=rss` : undefined;
}
