/** Websites, their domains and settings. */
import { boolean, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";

export const websites = pgTable("websites", {
  id: text("id").primaryKey(),
  /** Sub-domain name: `<identifier>.localhost`, and the site's handle in the dashboard. */
  identifier: text("identifier").notNull().unique(),
  title: text("title").notNull(),
  tagline: text("tagline").notNull().default(""),
  websiteType: integer("website_type").notNull(),
  siteStatus: integer("site_status").notNull(),
  billingStatus: integer("billing_status").notNull(),
  timeZone: text("time_zone").notNull().default("America/New_York"),
  locale: text("locale").notNull().default("en-US"),
  theme: text("theme").notNull(),
  /** The site served on the bare host (localhost, the machine's name). */
  isDefault: boolean("is_default").notNull().default(false),
  featureSetId: text("feature_set_id"),
  /** Bumped on every content or settings change: rendered pages cached under an older stamp are stale. */
  contentVersion: integer("content_version").notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** The `website_id` column of a site-scoped table: deleting the site deletes its rows. */
export const websiteId = () =>
  text("website_id")
    .notNull()
    .references(() => websites.id, { onDelete: "cascade" });

export const domains = pgTable("domains", {
  host: text("host").primaryKey(),
  websiteId: websiteId(),
  isPrimary: boolean("is_primary").notNull().default(false),
  createdAt: createdAt(),
});

export const websiteSettings = pgTable("website_settings", {
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  useCldrMoneyFormat: boolean("use_cldr_money_format").notNull().default(false),
  commentsEnabled: boolean("comments_enabled").notNull().default(true),
  disqusShortName: text("disqus_short_name"),
  simpleLikingEnabled: boolean("simple_liking_enabled").notNull().default(true),
  shareButtonOptions: jsonb("share_button_options").$type<Record<string, boolean>>().notNull().default({}),
  socialLinks: jsonb("social_links")
    .$type<{ service: string; profileUrl: string; userName?: string }[]>()
    .notNull()
    .default([]),
  cookieBannerEnabled: boolean("cookie_banner_enabled").notNull().default(false),
  restrictiveCookiePolicy: boolean("restrictive_cookie_policy").notNull().default(false),
  restrictiveCookiePolicyAbsolute: boolean("restrictive_cookie_policy_absolute").notNull().default(false),
  captchaSiteKey: text("captcha_site_key"),
  captchaSecretKey: text("captcha_secret_key"),
  captchaProvider: text("captcha_provider"),
  contactEmail: text("contact_email"),
  /** Where the floating cart pill sits: one of the nine drop zones (top-left … bottom-right). */
  cartPillPosition: text("cart_pill_position").notNull().default("bottom-right"),
  /** The Meta (Facebook) pixel id the owner saved for ads (SPEC §1); loaded only where cookies are allowed. */
  adPixelId: text("ad_pixel_id"),
  /** "Hide this site from search engines": robots.txt disallows everything, pages say noindex. */
  hideFromSearchEngines: boolean("hide_from_search_engines").notNull().default(false),
  updatedAt: updatedAt(),
});

export const storeSettings = pgTable("store_settings", {
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  currency: text("currency").notNull().default("USD"),
  multipleQuantityAllowedForServices: boolean("multiple_quantity_allowed_for_services")
    .notNull()
    .default(true),
  customSoldOutText: text("custom_sold_out_text"),
  restockNotificationsEnabled: boolean("restock_notifications_enabled").notNull().default(true),
  restockNotificationsSuccessText: text("restock_notifications_success_text"),
  soldOutVariantsDropdownDisabled: boolean("sold_out_variants_dropdown_disabled").notNull().default(false),
  measurementStandard: text("measurement_standard").notNull().default("imperial"),
  updatedAt: updatedAt(),
});
