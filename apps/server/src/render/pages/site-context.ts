/** The part of every page's JSON context that comes from the site: navigation, settings, currency, census. */
import { enUsFormatTemplate } from "@atelier/commerce";
import { WebsiteType } from "../../db/enums.js";
import type { Collection } from "../../modules/content/service.js";
import { NOT_EDITING } from "../../modules/pages/preview.js";
import { type Website, type WebsiteSettings, siteBaseUrl } from "../../modules/sites/service.js";
import { Feature } from "@atelier/owner-api";
import { storeSettingsJson, websiteJson, websiteSettingsJson } from "../serialize.js";
import type { Ctx, Json, PageRequest } from "./shared.js";

/**
 * Props of the `census` island: what the page-view hit says about the page, and the cookie policy
 * (SPEC §4) that decides whether the visitor cookies may be set. `pageViewHit` is false where the
 * page asks for no automatic hit (search) and on the page types the census never counts.
 */
export function censusProps(websiteId: string, pageType: number, rest: Json, settings: WebsiteSettings) {
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

/**
 * The context every page of the site shares, whether the site sells, and a way to mark the navigation
 * entry of the current page active.
 */
export function siteContext(
  site: Website,
  all: Collection[],
  settings: Ctx["settings"],
  features: Set<number>,
  req: PageRequest,
) {
  const currency = settings.store.currency;
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
    canonicalUrl: `${siteBaseUrl(site, req.publicUrl)}${req.path === "/" ? "/" : req.path}`,
    metaDescription: site.tagline,
  };
  const markActive = (url: string) => {
    for (const n of navigation) {
      const children = n.children as Json[];
      for (const ch of children) ch.active = ch.fullUrl === url;
      n.active = n.fullUrl === url || children.some((ch) => ch.active);
    }
  };
  return { base, isCommerce, markActive };
}

/** A value safe inside a CSS string literal. */
function cssString(s: string): string {
  return s.replace(/[\\"\n\r<>]/g, (c) => `\\${c.charCodeAt(0).toString(16)} `);
}
