/**
 * Path to page: resolves a request path of a website to its page type (SPEC §2), its HTTP
 * status, the theme template that renders it, and the JSON context (which `?format=json`
 * answers).
 */
import { enUsFormatTemplate, isSoldOut } from "@atelier/commerce";
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { PageType, RecordType, WebsiteType } from "../db/enums.js";
import { LruMap } from "../lib/lru.js";
import { contentItems } from "../db/schema.js";
import { variantsOf } from "../modules/catalog/service.js";
import {
  type Collection,
  type ContentItem,
  collectionsOf,
  commentCounts,
  commentsOf,
  itemsOf,
  mediaByIds,
} from "../modules/content/service.js";
import { type EditingMode, NOT_EDITING } from "../modules/pages/preview.js";
import { searchSite } from "../modules/search/service.js";
import { type Website, type WebsiteSettings, settingsOf } from "../modules/sites/service.js";
import { Feature } from "../seed/billing-catalog.js";
import { type Visitor, memberRule } from "./access.js";
import { accountPage } from "./account-pages.js";
import { resolveLayout } from "./blocks.js";
import { enabledFeatures } from "./features.js";
import { galleryOptions } from "./gallery.js";
import { htmlToText } from "./sanitize.js";
import {
  collectionJson,
  imageJson,
  itemJson,
  storeSettingsJson,
  websiteJson,
  websiteSettingsJson,
} from "./serialize.js";

export const CATEGORY_MAX = 25;
export const TAG_MAX = 50;
/** Tracks an album page shows (SPEC §9). */
export const MAX_ALBUM_TRACKS = 60;
/** Products a collection page lists (SPEC §9). */
export const MAX_PRODUCTS_PER_COLLECTION = 200;
/** Items a user-orderable collection lists (SPEC §9). */
export const MAX_COLLECTION_ITEMS = 250;
/** Default page size of blog lists. */
export const DEFAULT_BLOG_PAGE_SIZE = 10;

export interface PageRequest {
  path: string;
  query: Record<string, string | undefined>;
  now: Date;
  publicUrl: string;
  visitor: Visitor;
  /** The owner's editing mode (preview drafts, override passwords, editing frame, safe mode). */
  editing?: EditingMode;
  /**
   * The site's content version read before this request read anything else: the site-wide
   * data (collections, settings, features) is then reused from earlier requests at that version.
   */
  version?: number;
}

interface SiteData {
  all: Collection[];
  settings: Awaited<ReturnType<typeof settingsOf>>;
  features: Set<number>;
  /** Published items of a collection and their JSON, by collection id (filled as pages ask). */
  items: Map<string, Promise<CollectionItems>>;
}

interface CollectionItems {
  rows: ContentItem[];
  byId: Map<string, Json>;
}

/**
 * Site-wide data by site, valid for one content version (a change to any of it bumps the version),
 * least recently used dropped first; sized by SITE_CACHE_ENTRIES (render/routes.ts).
 */
export const siteDataCache = new LruMap<string, { version: number; data: Promise<SiteData> }>(1000);

async function loadSiteData(db: Db, site: Website): Promise<SiteData> {
  const [all, settings, features] = await Promise.all([
    collectionsOf(db, site.id),
    settingsOf(db, site.id),
    enabledFeatures(db, site),
  ]);
  return { all, settings, features, items: new Map() };
}

function siteData(db: Db, site: Website, version: number | undefined): Promise<SiteData> {
  if (version === undefined) return loadSiteData(db, site);
  const hit = siteDataCache.get(site.id);
  if (hit && hit.version === version) return hit.data;
  if (hit && hit.version > version) return loadSiteData(db, site);
  const data = loadSiteData(db, site);
  siteDataCache.set(site.id, { version, data });
  data.catch(() => {
    if (siteDataCache.peek(site.id)?.data === data) siteDataCache.delete(site.id);
  });
  return data;
}

export interface PageResult {
  status: number;
  pageType: number;
  /** The theme template that renders the page's main content. */
  template: string;
  context: Record<string, unknown>;
  /** The same for every visitor: may be cached per site and path. */
  cacheable: boolean;
  /** Answer with a redirect instead (folders that redirect to their first page). */
  redirect?: string;
}

type Json = Record<string, unknown>;

/**
 * Props of the `census` island: what the page-view hit says about the page, and the cookie policy
 * (SPEC §4) that decides whether the visitor cookies may be set. `pageViewHit` is false where the
 * page asks for no automatic hit (search) and on the page types the census never counts.
 */
function censusProps(websiteId: string, pageType: number, rest: Json, settings: WebsiteSettings) {
  const item = rest.item as Json | undefined;
  const collection = rest.collection as Json | undefined;
  const asked = (rest.analytics as { pageViewHit?: boolean } | undefined)?.pageViewHit;
  return {
    websiteId,
    pageType,
    pageViewHit: asked !== false && ![100, 103, 106].includes(pageType),
    itemId: item?.id ?? null,
    collectionId: (item?.collectionId as string | undefined) ?? collection?.id ?? null,
    recordType: item?.recordType ?? null,
    contentSource: item ? "i" : "c",
    cookieBannerEnabled: settings.cookieBannerEnabled,
    restrictiveCookiePolicy: settings.restrictiveCookiePolicy,
    restrictiveCookiePolicyAbsolute: settings.restrictiveCookiePolicyAbsolute,
    adPixelId: settings.adPixelId ?? null,
  };
}

/** System pages: path → page type, template and title (SPEC §2 page types). */
export const SYSTEM_PAGES: Record<
  string,
  { pageType: number; template: string; title: string; cacheable?: boolean }
> = {
  cart: { pageType: PageType.SHOW_CART, template: "cart", title: "Your Cart", cacheable: true },
  checkout: { pageType: PageType.CHECKOUT, template: "checkout", title: "Checkout", cacheable: true },
  "checkout/gift-card": {
    pageType: PageType.CHECKOUT,
    template: "checkout",
    title: "Send a Gift Card",
    cacheable: true,
  },
  search: { pageType: PageType.SEARCH, template: "search", title: "Search" },
  "checkout/order-confirmed": {
    pageType: PageType.ORDER_CONFIRMED,
    template: "system",
    title: "Thank you for your order",
  },
  "checkout/order-received": {
    pageType: PageType.ORDER_RECEIVED,
    template: "system",
    title: "We received your order",
  },
  "checkout/subscription-confirmed": {
    pageType: PageType.SUBSCRIPTION_CONFIRMED,
    template: "system",
    title: "Your subscription is confirmed",
  },
  donate: { pageType: PageType.DONATE, template: "system", title: "Donate" },
  "donate/confirmed": {
    pageType: PageType.CONTRIBUTION_CONFIRMED,
    template: "system",
    title: "Thank you for your contribution",
  },
  "commerce/cart": {
    pageType: PageType.COMMERCE_CART_V2,
    template: "cart",
    title: "Your Cart",
    cacheable: true,
  },
  "membership-confirmed": {
    pageType: PageType.MEMBERSHIP_CONFIRMED,
    template: "system",
    title: "Welcome, you are a member",
  },
  "newsletter/unsubscribe": {
    pageType: PageType.NEWSLETTER_UNSUBSCRIBE,
    template: "system",
    title: "Unsubscribe",
  },
  "popup-overlay": {
    pageType: PageType.POPUP_OVERLAY,
    template: "popup-overlay",
    title: "Stay in touch",
    cacheable: true,
  },
};

/** The island a system page hands over to, and its message. */
const SYSTEM_ISLANDS: Record<number, { island: string; message: string }> = {
  [PageType.ORDER_CONFIRMED]: {
    island: "order-confirmed",
    message: "Your order is confirmed. We have sent a receipt to your email address.",
  },
  [PageType.ORDER_RECEIVED]: {
    island: "order-received",
    message: "We received your order and will email you as soon as it is on its way.",
  },
  [PageType.SUBSCRIPTION_CONFIRMED]: {
    island: "subscription-confirmed",
    message: "Your subscription is active. You can manage it from your account at any time.",
  },
  [PageType.DONATE]: { island: "donate", message: "Every contribution helps us keep making things slowly." },
  [PageType.CONTRIBUTION_CONFIRMED]: {
    island: "contribution-confirmed",
    message: "Thank you for your generosity. A receipt is on its way to your inbox.",
  },
  [PageType.MEMBERSHIP_CONFIRMED]: {
    island: "membership-confirmed",
    message: "Your membership is active: the members' pages are open to you now.",
  },
  [PageType.NEWSLETTER_UNSUBSCRIBE]: {
    island: "newsletter-unsubscribe",
    message: "Enter your email address to stop receiving our newsletter.",
  },
};

const SOCIAL_LABELS: Record<string, string> = {
  instagram: "Instagram",
  facebook: "Facebook",
  pinterest: "Pinterest",
  twitter: "X (Twitter)",
  x: "X",
  youtube: "YouTube",
  tiktok: "TikTok",
  linkedin: "LinkedIn",
  vimeo: "Vimeo",
  email: "Email",
};

export async function buildPageContext(db: Db, stored: Website, req: PageRequest): Promise<PageResult> {
  // The tagline is plain text wherever a page uses it (rows written before this rule included).
  const site = { ...stored, tagline: htmlToText(stored.tagline) };
  const data = await siteData(db, site, req.version);
  const { all, settings, features } = data;
  const currency = settings.store.currency;
  const segments = req.path.split("/").filter(Boolean).map(safeDecode);
  const topLevel = all.filter((c) => !c.hiddenFromNav && !c.folderId);
  const navItem = (c: Collection): Json => ({
    id: c.id,
    title: c.title,
    fullUrl: c.isHome ? "/" : `/${c.urlSlug}`,
    active: false,
    folder: c.kind === "folder",
    clickable: c.kind !== "folder" || c.folderBehavior !== "none",
    children:
      c.kind === "folder" ? all.filter((x) => x.folderId === c.id && !x.hiddenFromNav).map(navItem) : [],
  });
  const navigation = topLevel.map(navItem);
  const shareOptions = settings.site.shareButtonOptions ?? {};
  const money = enUsFormatTemplate(currency);
  const symbolAfter = money.formatter.startsWith("%v");
  const isCommerce = site.websiteType === WebsiteType.COMMERCE || features.has(Feature.COMMERCE);
  const shop = all.find((c) => c.kind === "products");
  const base: Json = {
    website: { ...websiteJson(site, req.publicUrl), useCLDRMoneyFormat: settings.site.useCldrMoneyFormat },
    websiteSettings: websiteSettingsJson(settings.site, settings.store),
    storeSettings: storeSettingsJson(settings.store),
    socialAccounts: (settings.site.socialLinks ?? []).map((s) => ({
      service: s.service,
      serviceName: s.service,
      label: SOCIAL_LABELS[s.service] ?? s.service,
      profileUrl: s.profileUrl,
      userName: s.userName ?? "",
    })),
    shareButtons: Object.entries(shareOptions)
      .filter(([, on]) => on)
      .map(([service]) => ({ service, label: SOCIAL_LABELS[service] ?? service })),
    navigation,
    isCommerce,
    shopUrl: shop ? `/${shop.urlSlug}` : undefined,
    /** The store currency's symbol, for the legacy money markup (`.sqs-money-native`). */
    currency: {
      code: currency,
      before: cssString(symbolAfter ? "" : money.formatter.includes(" ") ? `${money.symbol} ` : money.symbol),
      after: cssString(symbolAfter ? ` ${money.symbol}` : ""),
    },
    currentYear: req.now.getUTCFullYear(),
    editing: req.editing ?? NOT_EDITING,
    features: {
      amazon: features.has(Feature.AMAZON_BLOCK),
      donation: features.has(Feature.DONATION_BLOCK),
      menu: features.has(Feature.MENU_BLOCK),
      opentable: features.has(Feature.OPENTABLE_BLOCK),
      memberAreas: features.has(Feature.MEMBER_AREAS),
      subscriptions: features.has(Feature.COMMERCE_SUBSCRIPTIONS),
    },
    localizedStrings: {
      productAddToCartText: "Add To Cart",
      productSubscribeText: "Subscribe",
      productQuantityInputLabel: "Quantity",
      searchPlaceholder: "Search",
      cartLinkText: "Cart",
      soldOutText: settings.store.customSoldOutText || "Sold Out",
      saleText: "Sale",
    },
    canonicalUrl: `${req.publicUrl}${req.path === "/" ? "/" : req.path}`,
    metaDescription: site.tagline,
  };
  const markActive = (url: string) => {
    for (const n of navigation) {
      const children = n.children as Json[];
      for (const ch of children) ch.active = ch.fullUrl === url;
      n.active = n.fullUrl === url || children.some((ch) => ch.active);
    }
  };
  // Pages behind a password or a member area differ per visitor: never cached.
  const state = { private: false };
  const page = (
    status: number,
    pageType: number,
    template: string,
    rest: Json,
    cacheable = (status === 200 || status === 404) && !state.private,
  ): PageResult => ({
    status,
    pageType,
    template,
    cacheable,
    context: {
      ...base,
      pageType,
      // SPEC §2: no cart pill on cart and checkout pages.
      showCartPill:
        isCommerce &&
        ![PageType.SHOW_CART, PageType.CHECKOUT, PageType.COMMERCE_CART_V2].includes(
          pageType as 200 | 201 | 205,
        ),
      ...rest,
      census: censusProps(site.id, pageType, rest, settings.site),
    },
  });
  const notFound = () =>
    page(404, PageType.NOT_FOUND, "not-found", { pageTitle: "Page Not Found", notFound: { path: req.path } });
  const items = data.items;
  const load = (c: Collection): Promise<CollectionItems> => {
    let p = items.get(c.id);
    if (!p) {
      p = (async () => {
        const rows = await itemsOf(db, site.id, c);
        const json = await itemsJson(db, site.id, c, rows, currency);
        return { rows, byId: new Map(json.map((j) => [j.id as string, j])) };
      })();
      items.set(c.id, p);
      p.catch(() => items.delete(c.id));
    }
    return p;
  };
  const rowsOf = async (c: Collection) => (await load(c)).rows;
  const jsonOf = async (c: Collection, rows: ContentItem[]): Promise<Json[]> => {
    const { byId } = await load(c);
    const missing = rows.filter((r) => !byId.has(r.id));
    const extra = missing.length ? await itemsJson(db, site.id, c, missing, currency) : [];
    const extraById = new Map(extra.map((j) => [j.id as string, j]));
    return rows.map((r) => byId.get(r.id) ?? extraById.get(r.id)!);
  };
  const ctx: Ctx = {
    db,
    site,
    req,
    all,
    currency,
    features,
    settings,
    page,
    notFound,
    state,
    rowsOf,
    jsonOf,
  };

  // The home page (a cover page site's home is its splash page).
  if (segments.length === 0) {
    const home = all.find((c) => c.isHome);
    if (!home) return notFound();
    const gate = await accessGate(ctx, home);
    if (gate) return gate;
    if (site.websiteType === WebsiteType.COVER_PAGE) {
      return page(200, PageType.SPLASH, "splash", await splashBody(ctx, home));
    }
    return page(200, PageType.PAGE, "page", await pageBody(ctx, home));
  }
  const system = SYSTEM_PAGES[segments.join("/")];
  if (system) return systemPage(ctx, system);
  const account = accountPage(segments);
  if (account) return page(200, PageType.PAGE, "system", account, false);

  const [first, ...rest] = segments as [string, ...string[]];
  const collection = all.find((c) => c.urlSlug === first && !c.isHome);
  if (!collection) return notFound();
  markActive(`/${collection.urlSlug}`);
  const gate = await accessGate(ctx, collection);
  if (gate) return gate;

  if (rest.length === 0) {
    switch (collection.kind) {
      case "page":
        return page(200, PageType.PAGE, "page", await pageBody(ctx, collection));
      case "folder":
        return folderPage(ctx, collection);
      case "products":
        return productsPage(ctx, collection);
      case "blog":
        return blogPage(ctx, collection);
      case "events":
        return eventsPage(ctx, collection);
      case "gallery":
        return galleryPage(ctx, collection);
      case "album":
        return albumPage(ctx, collection);
      default:
        return notFound();
    }
  }
  const slug =
    collection.kind === "products"
      ? rest[0] === "p" && rest.length === 2
        ? rest[1]
        : undefined
      : rest.length === 1 && ["blog", "events", "gallery", "album"].includes(collection.kind)
        ? rest[0]
        : undefined;
  if (!slug) return notFound();
  const item = (await ctx.rowsOf(collection)).find((i) => i.urlId === slug);
  if (!item || (collection.kind === "blog" && item.publishOn && item.publishOn > req.now)) return notFound();
  return itemPage(ctx, collection, item);
}

interface Ctx {
  db: Db;
  site: Website;
  req: PageRequest;
  all: Collection[];
  currency: string;
  features: Set<number>;
  settings: Awaited<ReturnType<typeof settingsOf>>;
  page(status: number, pageType: number, template: string, rest: Json, cacheable?: boolean): PageResult;
  notFound(): PageResult;
  state: { private: boolean };
  /** Published items of a collection in its order (cached for the content version). */
  rowsOf(c: Collection): Promise<ContentItem[]>;
  /** The JSON of these items (cached for the content version). */
  jsonOf(c: Collection, rows: ContentItem[]): Promise<Json[]>;
}

/** Lock screen (103), protected content (105) or member-area access denied (106), when they apply. */
async function accessGate(ctx: Ctx, c: Collection): Promise<PageResult | undefined> {
  const { req, page } = ctx;
  if (c.passwordHash || memberRule(c).members) ctx.state.private = true;
  if (c.passwordHash && !req.visitor.isUnlocked(c) && !req.editing?.override) {
    return page(
      401,
      PageType.LOCK_SCREEN,
      "lock-screen",
      {
        pageTitle: "This page is password protected",
        lockScreen: {
          collectionId: c.id,
          title: c.title,
          redirect: req.path,
          failed: req.query.unlock === "failed",
        },
      },
      false,
    );
  }
  const rule = memberRule(c);
  if (!rule.members || !ctx.features.has(Feature.MEMBER_AREAS)) return undefined;
  const user = req.visitor.siteUserId;
  if (!user) {
    return page(
      401,
      PageType.PROTECTED_CONTENT,
      "protected-content",
      {
        pageTitle: "Members only",
        protectedContent: {
          title: c.title,
          loginUrl: `/account/login?redirect=${encodeURIComponent(req.path)}`,
        },
      },
      false,
    );
  }
  if (rule.allowed && !rule.allowed.includes(user)) {
    return page(
      403,
      PageType.MEMBER_AREA_ACCESS_DENIED,
      "access-denied",
      { pageTitle: "Access denied", accessDenied: { title: c.title } },
      false,
    );
  }
  return undefined;
}

async function systemPage(ctx: Ctx, system: (typeof SYSTEM_PAGES)[string]): Promise<PageResult> {
  const { req, page, features } = ctx;
  if (system.pageType === PageType.DONATE || system.pageType === PageType.CONTRIBUTION_CONFIRMED) {
    if (!features.has(Feature.DONATION_BLOCK)) return ctx.notFound();
  }
  if (system.pageType === PageType.MEMBERSHIP_CONFIRMED && !features.has(Feature.MEMBER_AREAS))
    return ctx.notFound();
  if (system.pageType === PageType.SEARCH) {
    const q = (req.query.q ?? "").trim().slice(0, 200);
    const results = q ? await searchSite(ctx.db, ctx.site.id, q, { limit: 30, now: req.now }) : [];
    return page(
      200,
      system.pageType,
      system.template,
      {
        pageTitle: q ? `Search: ${q}` : "Search",
        search: { query: q, results, resultCount: results.length, searched: q.length > 0 },
        // SPEC §2: no automatic page-view hit on the search page.
        analytics: { pageViewHit: false },
      },
      false,
    );
  }
  if (system.pageType === PageType.POPUP_OVERLAY) {
    const formId = ctx.all.flatMap((c) => blocksOf(c.layout)).find((b) => b.type === "newsletter")?.formId;
    const layout = formId
      ? await resolveLayout(blockDeps(ctx), {
          rows: [
            {
              columns: [
                {
                  blocks: [
                    {
                      id: "popup-newsletter",
                      type: "newsletter",
                      formId,
                      title: "Letters from the studio",
                      description: "New work, events and the occasional recipe. Once a month, never more.",
                    },
                  ],
                },
              ],
            },
          ],
        })
      : { rows: [] };
    return page(200, system.pageType, system.template, { pageTitle: system.title, layout });
  }
  const island = SYSTEM_ISLANDS[system.pageType];
  const params: Json = {};
  for (const key of ["orderId", "cartToken", "email", "token"]) {
    const v = req.query[key];
    if (typeof v === "string" && v.length <= 200) params[key] = v;
  }
  return page(
    200,
    system.pageType,
    system.template,
    {
      pageTitle: system.title,
      systemPage: {
        title: system.title,
        message: island?.message ?? "",
        island: island?.island,
        props: params,
      },
    },
    Boolean(system.cacheable) && Object.keys(params).length === 0,
  );
}

function blocksOf(layout: unknown): { type: string; formId?: string }[] {
  const rows = (
    layout as { rows?: { columns?: { blocks?: { type: string; formId?: string }[] }[] }[] } | null
  )?.rows;
  return (rows ?? []).flatMap((r) => (r.columns ?? []).flatMap((c) => c.blocks ?? []));
}

function blockDeps(ctx: Ctx) {
  return {
    safeMode: Boolean(ctx.req.editing?.disableUserScripts),
    editingFrame: Boolean(ctx.req.editing?.expandedFrame),
    db: ctx.db,
    websiteId: ctx.site.id,
    collections: ctx.all,
    features: ctx.features,
    summaryItems: async (target: Collection, limit: number) => {
      let rows = await ctx.rowsOf(target);
      if (target.kind === "blog") rows = rows.filter((i) => !i.publishOn || i.publishOn <= ctx.req.now);
      if (target.kind === "events")
        rows = rows.filter((i) => (i.endDate ?? i.startDate ?? ctx.req.now) >= ctx.req.now);
      return ctx.jsonOf(target, rows.slice(0, limit));
    },
    productItems: async (ids: string[]) => {
      const rows = await ctx.db
        .select()
        .from(contentItems)
        .where(
          and(
            eq(contentItems.websiteId, ctx.site.id),
            inArray(contentItems.id, ids),
            eq(contentItems.recordType, RecordType.STORE_ITEM),
            eq(contentItems.status, "published"),
          ),
        );
      const out = new Map<string, unknown>();
      for (const r of rows) {
        const c = ctx.all.find((x) => x.id === r.collectionId);
        if (!c) continue;
        const [json] = await ctx.jsonOf(c, [r]);
        out.set(r.id, json);
      }
      return out;
    },
  };
}

/** A layout page (page type 2). */
async function pageBody(ctx: Ctx, c: Collection): Promise<Json> {
  const source = ctx.req.editing?.preview && c.draftLayout ? c.draftLayout : c.layout;
  const layout = await resolveLayout(blockDeps(ctx), source);
  return {
    collection: collectionJson(c),
    pageTitle: c.isHome ? undefined : c.seoTitle || c.title,
    metaDescription: c.seoDescription || ctx.site.tagline,
    layout,
    isHome: c.isHome,
  };
}

/** A cover page (splash, page type 3): a full-bleed background and the home page's blocks over it. */
async function splashBody(ctx: Ctx, home: Collection): Promise<Json> {
  const o = home.options ?? {};
  const bgId = typeof o.backgroundImageId === "string" ? o.backgroundImageId : undefined;
  const images = await mediaByIds(ctx.db, ctx.site.id, bgId ? [bgId] : []);
  const background = bgId ? imageJson(images.get(bgId)) : undefined;
  const body = await pageBody(ctx, home);
  const align = ["center", "left", "right"].includes(String(o.alignment)) ? String(o.alignment) : "center";
  return {
    ...body,
    cover: {
      headline: typeof o.headline === "string" ? o.headline : ctx.site.title,
      tagline: typeof o.tagline === "string" ? o.tagline : ctx.site.tagline,
      backgroundSource: background ? "upload" : "none",
      background,
      alignment: align,
      overlayOpacity: Math.min(0.9, Math.max(0, Number(o.overlayOpacity ?? 0.35) || 0)),
      buttons: (Array.isArray(o.buttons) ? o.buttons : [])
        .slice(0, 3)
        .map((b: Record<string, unknown>) => ({
          label: String(b?.label ?? "").slice(0, 80),
          href: String(b?.href ?? "#"),
        }))
        .filter((b: { label: string; href: string }) => b.label && /^(https?:|\/|#|mailto:)/.test(b.href)),
    },
  };
}

async function folderPage(ctx: Ctx, folder: Collection): Promise<PageResult> {
  const children = ctx.all.filter((c) => c.folderId === folder.id && !c.hiddenFromNav);
  if (folder.folderBehavior === "redirect" && children[0]) {
    return { ...ctx.page(302, PageType.MAIN_CONTENT, "folder", {}), redirect: `/${children[0].urlSlug}` };
  }
  if (folder.folderBehavior === "none") return ctx.notFound();
  return ctx.page(200, PageType.MAIN_CONTENT, "folder", {
    collection: collectionJson(folder),
    pageTitle: folder.title,
    items: children.map((c) => ({ ...collectionJson(c), excerpt: c.description })),
  });
}

function pagination(
  path: string,
  filter: Record<string, string>,
  pageNumber: number,
  pageSize: number,
  total: number,
): Json {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const qs = (n: number) => {
    const params = new URLSearchParams(filter);
    if (n > 1) params.set("page", String(n));
    const s = params.toString();
    return s ? `${path}?${s}` : path;
  };
  return {
    pageSize,
    currentPage: pageNumber,
    pageCount,
    totalItems: total,
    nextPage: pageNumber < pageCount,
    nextPageUrl: pageNumber < pageCount ? qs(pageNumber + 1) : undefined,
    prevPage: pageNumber > 1,
    prevPageUrl: pageNumber > 1 ? qs(pageNumber - 1) : undefined,
    pages:
      pageCount > 1
        ? Array.from({ length: pageCount }, (_, i) => ({
            number: i + 1,
            url: qs(i + 1),
            current: i + 1 === pageNumber,
          }))
        : [],
  };
}

function pageNumberOf(req: PageRequest): number {
  const n = Number.parseInt(req.query.page ?? "1", 10);
  return Number.isInteger(n) && n > 0 && n < 100000 ? n : 1;
}

/** Category and tag filters, cut to their SPEC lengths (25 and 50 characters). */
function filtersOf(req: PageRequest): Record<string, string> {
  const filter: Record<string, string> = {};
  const category = req.query.category?.trim().slice(0, CATEGORY_MAX);
  const tag = req.query.tag?.trim().slice(0, TAG_MAX);
  const author = req.query.author?.trim().slice(0, 100);
  if (category) filter.category = category;
  if (tag) filter.tag = tag;
  if (author) filter.author = author;
  return filter;
}

function applyFilters(rows: ContentItem[], filter: Record<string, string>): ContentItem[] {
  return rows.filter(
    (i) =>
      (!filter.category || i.categories.includes(filter.category)) &&
      (!filter.tag || i.tags.includes(filter.tag)) &&
      (!filter.author || i.authorName === filter.author),
  );
}

function countBy(values: string[], selected: string | undefined, base: string, key: string) {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name, count]) => ({
      name,
      count,
      url: `${base}?${new URLSearchParams({ [key]: name })}`,
      active: name === selected,
    }));
}

async function productsPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const all = (await ctx.rowsOf(c)).slice(0, MAX_PRODUCTS_PER_COLLECTION);
  const filter = filtersOf(ctx.req);
  const rows = applyFilters(all, filter);
  const pageSize = Number(c.options.pageSize ?? 0) || MAX_PRODUCTS_PER_COLLECTION;
  const pageNumber = pageNumberOf(ctx.req);
  const items = await ctx.jsonOf(c, rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize));
  const base = `/${c.urlSlug}`;
  return ctx.page(200, PageType.MAIN_CONTENT, "products.list", {
    collection: {
      ...collectionJson(c),
      itemCount: rows.length,
      categories: countBy(
        all.flatMap((i) => i.categories),
        filter.category,
        base,
        "category",
      ),
    },
    items,
    filter,
    filtered: Object.keys(filter).length > 0,
    pagination: pagination(base, filter, pageNumber, pageSize, rows.length),
    pageTitle: filter.category ? `${c.title}: ${filter.category}` : c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

async function blogPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const published = (await ctx.rowsOf(c))
    .filter((i) => !i.publishOn || i.publishOn <= ctx.req.now)
    .slice(0, MAX_COLLECTION_ITEMS);
  const filter = filtersOf(ctx.req);
  const rows = applyFilters(published, filter);
  const pageSize = Math.min(50, Number(c.options.pageSize ?? 0) || DEFAULT_BLOG_PAGE_SIZE);
  const pageNumber = pageNumberOf(ctx.req);
  const slice = rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  if (pageNumber > 1 && !slice.length) return ctx.notFound();
  const items = await ctx.jsonOf(c, slice);
  const base = `/${c.urlSlug}`;
  const heading = filter.category
    ? `Category: ${filter.category}`
    : filter.tag
      ? `Tagged “${filter.tag}”`
      : filter.author
        ? `Posts by ${filter.author}`
        : undefined;
  return ctx.page(200, PageType.MAIN_CONTENT, "blog.list", {
    collection: {
      ...collectionJson(c),
      itemCount: rows.length,
      categories: countBy(
        published.flatMap((i) => i.categories),
        filter.category,
        base,
        "category",
      ),
      tags: countBy(
        published.flatMap((i) => i.tags),
        filter.tag,
        base,
        "tag",
      ),
    },
    items,
    featured: pageNumber === 1 && !Object.keys(filter).length ? items[0] : undefined,
    filter,
    filterHeading: heading,
    filtered: Object.keys(filter).length > 0,
    pagination: pagination(base, filter, pageNumber, pageSize, rows.length),
    pageTitle: heading ? `${c.title}: ${heading}` : c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

const DAY = 86_400_000;

/** Calendar month grid (weeks starting on Sunday) in the site's time zone. */
function calendarMonth(year: number, month: number, events: Json[], timeZone: string, base: string): Json {
  const dayKey = (ms: number) => {
    const parts = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(new Date(ms));
    return parts; // YYYY-MM-DD
  };
  const byDay = new Map<string, Json[]>();
  for (const e of events) {
    const start = e.startDate as number;
    const end = Math.max(start, (e.endDate as number | undefined) ?? start);
    for (let t = start; t <= end; t += DAY) {
      const k = dayKey(t);
      byDay.set(k, [...(byDay.get(k) ?? []), e]);
      if (byDay.size > 500) break;
    }
    const last = dayKey(end);
    if (!byDay.get(last)?.includes(e)) byDay.set(last, [...(byDay.get(last) ?? []), e]);
  }
  const first = new Date(Date.UTC(year, month - 1, 1));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = first.getUTCDay();
  const weeks: Json[][] = [];
  let week: Json[] = [];
  for (let i = 0; i < lead; i++) week.push({ empty: true });
  for (let d = 1; d <= daysInMonth; d++) {
    const key = `${year}-${String(month).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
    const list = byDay.get(key) ?? [];
    week.push({
      empty: false,
      day: d,
      key,
      events: list.map((e) => ({ title: e.title, fullUrl: e.fullUrl, startDate: e.startDate })),
      hasEvents: list.length > 0,
    });
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length) {
    while (week.length < 7) week.push({ empty: true });
    weeks.push(week);
  }
  const prev = month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, "0")}`;
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, "0")}`;
  return {
    year,
    month,
    title: new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(
      first,
    ),
    weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    weeks: weeks.map((days) => ({ days })),
    prevUrl: `${base}?view=calendar&month=${prev}`,
    nextUrl: `${base}?view=calendar&month=${next}`,
  };
}

async function eventsPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c)).filter((i) => i.startDate).slice(0, MAX_COLLECTION_ITEMS);
  const nowMs = ctx.req.now.getTime();
  const isPast = (i: ContentItem) => (i.endDate ?? i.startDate)!.getTime() < nowMs;
  const past = rows.filter(isPast).reverse();
  const upcoming = rows.filter((i) => !isPast(i));
  const setting = (c.options.showPastOrUpcomingEvents as string | undefined) === "past" ? "past" : "upcoming";
  const requested = ctx.req.query.view;
  const view =
    requested === "calendar" || requested === "past" || requested === "upcoming"
      ? requested
      : c.options.calendarView
        ? "calendar"
        : setting;
  const [pastJson, upcomingJson] = await Promise.all([ctx.jsonOf(c, past), ctx.jsonOf(c, upcoming)]);
  const base = `/${c.urlSlug}`;
  let calendar: Json | undefined;
  if (view === "calendar") {
    const m = /^(\d{4})-(\d{2})$/.exec(ctx.req.query.month ?? "");
    const zoned = new Intl.DateTimeFormat("en-CA", {
      timeZone: ctx.site.timeZone,
      year: "numeric",
      month: "2-digit",
    })
      .format(ctx.req.now)
      .split("-");
    let year = m ? Number(m[1]) : Number(zoned[0]);
    let month = m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? Number(m[2]) : Number(zoned[1]);
    if (!m) {
      // Without a month asked for, open on this month, or on the next event's month when this one has none.
      const key = (ms: number) =>
        new Intl.DateTimeFormat("en-CA", {
          timeZone: ctx.site.timeZone,
          year: "numeric",
          month: "2-digit",
        }).format(new Date(ms));
      const thisMonth = `${zoned[0]}-${zoned[1]}`;
      const months = [...pastJson, ...upcomingJson].map((e) => key(e.startDate as number));
      const next = upcomingJson[0];
      if (!months.includes(thisMonth) && next) {
        const [y, mo] = key(next.startDate as number).split("-");
        year = Number(y);
        month = Number(mo);
      }
    }
    if (year < 1583 || year > 9999) return ctx.notFound();
    calendar = calendarMonth(year, month, [...pastJson, ...upcomingJson], ctx.site.timeZone, base);
    const today = new Intl.DateTimeFormat("en-CA", {
      timeZone: ctx.site.timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(ctx.req.now);
    for (const w of calendar.weeks as { days: Json[] }[]) for (const d of w.days) d.today = d.key === today;
  }
  const items = view === "past" ? pastJson : upcomingJson;
  return ctx.page(200, PageType.MAIN_CONTENT, "events.list", {
    collection: { ...collectionJson(c), showPastOrUpcomingEvents: setting },
    items,
    upcoming: upcomingJson,
    past: pastJson,
    view: {
      name: view,
      isCalendar: view === "calendar",
      isPast: view === "past",
      isUpcoming: view === "upcoming",
    },
    viewLinks: {
      upcoming: base + (setting === "upcoming" && !c.options.calendarView ? "" : "?view=upcoming"),
      past: `${base}?view=past`,
      calendar: `${base}?view=calendar`,
    },
    calendar,
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

async function galleryPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c)).slice(0, MAX_COLLECTION_ITEMS);
  const items = await ctx.jsonOf(c, rows);
  const options = galleryOptions(c.options);
  return ctx.page(200, PageType.MAIN_CONTENT, "gallery.list", {
    collection: collectionJson(c),
    items,
    gallery: {
      id: `gallery-${c.id}`,
      options,
      slides: (items as Json[])
        .filter((i) => i.mainImage)
        .map((i) => ({
          image: i.mainImage,
          title: i.title,
          body: htmlToText(String(i.body ?? "")),
          fullUrl: i.fullUrl,
        })),
    },
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

async function albumPage(ctx: Ctx, c: Collection): Promise<PageResult> {
  const rows = (await ctx.rowsOf(c))
    .filter((i) => i.recordType === RecordType.AUDIO)
    .slice(0, MAX_ALBUM_TRACKS);
  const items = await ctx.jsonOf(c, rows);
  const coverId = typeof c.options.coverImageId === "string" ? c.options.coverImageId : undefined;
  const cover = coverId
    ? imageJson((await mediaByIds(ctx.db, ctx.site.id, [coverId])).get(coverId))
    : undefined;
  const tracks = (items as Json[]).map((t, i) => {
    const sc = t.structuredContent as { audioAssetUrl: string; duration?: number; artist?: string };
    return {
      id: t.id,
      number: i + 1,
      title: t.title,
      url: sc.audioAssetUrl,
      artist: sc.artist ?? c.options.artist ?? "",
      duration: sc.duration,
      durationText: sc.duration
        ? `${Math.floor(sc.duration / 60)}:${String(Math.round(sc.duration % 60)).padStart(2, "0")}`
        : "",
    };
  });
  return ctx.page(200, PageType.MAIN_CONTENT, "album.list", {
    collection: collectionJson(c),
    items,
    album: {
      title: c.title,
      artist: typeof c.options.artist === "string" ? c.options.artist : ctx.site.title,
      description: c.description,
      cover,
      tracks,
      trackCount: tracks.length,
      items,
      player: {
        title: c.title,
        artist: typeof c.options.artist === "string" ? c.options.artist : ctx.site.title,
        tracks,
      },
    },
    pageTitle: c.seoTitle || c.title,
    metaDescription: c.seoDescription || c.description || ctx.site.tagline,
  });
}

/** Scarcity and restock views of a product, keyed by its id (what the commerce formatters read). */
export function merchandisingContext(item: Json, store: { restockNotificationsEnabled: boolean }): Json {
  const sc = item.structuredContent as {
    productType: number;
    scarcityText?: string;
    variants: { id: string; qtyInStock: number; unlimited: boolean; attributes: Record<string, string> }[];
  };
  const variants = sc.variants ?? [];
  const finite = variants.filter((v) => !v.unlimited && v.qtyInStock > 0);
  const single = variants.length <= 1;
  const restockable = store.restockNotificationsEnabled && (sc.productType === 1 || sc.productType === 3);
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

async function itemPage(ctx: Ctx, c: Collection, item: ContentItem): Promise<PageResult> {
  const { db, site, currency } = ctx;
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

export async function itemsJson(
  db: Db,
  websiteId: string,
  collection: Collection,
  rows: ContentItem[],
  currency: string,
): Promise<Json[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const products = rows.filter((r) => r.recordType === RecordType.STORE_ITEM).map((r) => r.id);
  const [variants, counts] = await Promise.all([
    variantsOf(db, websiteId, products),
    commentCounts(db, websiteId, ids),
  ]);
  const mediaIds = rows.flatMap((r) => [r.mainImageId ?? "", ...r.imageIds]);
  for (const list of variants.values()) for (const v of list) if (v.mainImageId) mediaIds.push(v.mainImageId);
  const images = await mediaByIds(db, websiteId, mediaIds);
  return rows.map(
    (r) =>
      itemJson(collection, r, {
        images,
        currency,
        variants: variants.get(r.id),
        commentCount: counts.get(r.id) ?? 0,
      }) as Json,
  );
}

/** A value safe inside a CSS string literal. */
function cssString(s: string): string {
  return s.replace(/[\\"\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
