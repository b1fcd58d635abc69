/** Sites and what they publish: websites and their settings, owners, content, forms, site users, templates and design. */
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps, updatedAt } from "./columns.js";

// ─── Websites, their domains and settings ────────────────────────────────────────────────────────────

export const websites = pgTable(
  "websites",
  {
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
    /**
     * The site's primary verified domain (kept by the domains module): its canonical address is
     * there; null, the platform address (siteBaseUrl in modules/sites/service.ts).
     */
    primaryHost: text("primary_host"),
    /** The `www.` name of the primary domain (or the bare one, when the primary is `www.`) redirects to it. */
    redirectWww: boolean("redirect_www").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    // Every store call finds its site by host (cart/site-reads.ts siteVersionOfHost): by a primary
    // domain's `www.` name, or the default site.
    index("websites_primary_host_idx").on(t.primaryHost),
    index("websites_default_idx").on(t.isDefault).where(sql`${t.isDefault}`),
  ],
);

/** The `website_id` column of a site-scoped table: deleting the site deletes its rows. */
export const websiteId = () => belongsTo("website_id", () => websites.id);

/** The first columns of a site-scoped table: the row's own id and its website's. */
export const siteRowKeys = () => ({ id: text("id").primaryKey(), websiteId: websiteId() });

/** The key of a table with at most one row per website: the website's id. */
export const siteKey = () =>
  text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" });

/**
 * Host names owners connect. A name serves its site only once verified (DNS records checked);
 * several sites may have the same name pending, and the first to verify it holds it.
 */
export const domains = pgTable(
  "domains",
  {
    host: text("host").notNull(),
    websiteId: websiteId(),
    isPrimary: boolean("is_primary").notNull().default(false),
    /** "pending" (checked again for 72 hours), "verified", or "failed" (no longer checked by itself). */
    status: text("status").notNull().default("pending"),
    /** What the TXT record at `_atelier.<host>` must hold: made for this site and name. */
    token: text("token").notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    /** Why the last check failed, in plain words. */
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.host] }),
    uniqueIndex("domains_verified_host").on(t.host).where(sql`${t.status} = 'verified'`),
    index("domains_host").on(t.host),
  ],
);

export const websiteSettings = pgTable("website_settings", {
  websiteId: siteKey(),
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
  /** The owner closed the setup guide of the site overview (docs/starters.md). */
  setupGuideDismissed: boolean("setup_guide_dismissed").notNull().default(false),
  updatedAt: updatedAt(),
});

export const storeSettings = pgTable("store_settings", {
  websiteId: siteKey(),
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

// ─── Site owners: accounts, their sessions and memberships ───────────────────────────────────────────

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  displayName: text("display_name").notNull(),
  createdAt: createdAt(),
});

export const accountSessions = pgTable(
  "account_sessions",
  {
    id: text("id").primaryKey(),
    accountId: belongsTo("account_id", () => accounts.id),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The browser's User-Agent and the client's address at sign-in (the account's Sessions list). */
    userAgent: text("user_agent").notNull().default(""),
    ip: text("ip").notNull().default(""),
    /** The last request made with the session, written at most once a minute. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_sessions_account_idx").on(t.accountId)],
);

export const memberships = pgTable(
  "memberships",
  {
    accountId: belongsTo("account_id", () => accounts.id),
    websiteId: websiteId(),
    /** The roles the member holds (ids of `ROLES` in modules/members/permissions.ts). */
    roles: text("roles").array().notNull().default(sql`'{}'::text[]`),
    /** The site's one Owner, who holds every permission. */
    owner: boolean("owner").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.websiteId] }),
    uniqueIndex("memberships_one_owner").on(t.websiteId).where(sql`${t.owner}`),
  ],
);

/** Invitations to become a member of a site: single-use, valid for 7 days, the token stored hashed. */
export const invitations = pgTable(
  "invitations",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    email: text("email").notNull(),
    roles: text("roles").array().notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => accounts.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("invitations_site_email").on(t.websiteId, t.email)],
);

// ─── Content: media, collections, items, comments and product variants ───────────────────────────────

export const media = pgTable(
  "media",
  {
    ...siteRowKeys(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    byteSize: integer("byte_size").notNull(),
    title: text("title").notNull().default(""),
    focalX: real("focal_x").notNull().default(0.5),
    focalY: real("focal_y").notNull().default(0.5),
    colorData: jsonb("color_data").$type<Record<string, string>>(),
    /** Path of the original under DATA_DIR/media. */
    storagePath: text("storage_path").notNull(),
    /** Placeholder artwork a starter brought (docs/starters.md): shown with a "Sample" badge. */
    isSample: boolean("is_sample").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("media_website_idx").on(t.websiteId)],
);

export const collections = pgTable(
  "collections",
  {
    ...siteRowKeys(),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    urlSlug: text("url_slug").notNull(),
    description: text("description").notNull().default(""),
    /** Position in the navigation (and inside a folder). */
    ordering: integer("ordering").notNull().default(0),
    folderId: text("folder_id"),
    folderBehavior: text("folder_behavior"),
    hiddenFromNav: boolean("hidden_from_nav").notNull().default(false),
    isHome: boolean("is_home").notNull().default(false),
    passwordHash: text("password_hash"),
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    /** "Hide from search engines": noindex, and left out of the sitemap. */
    seoHidden: boolean("seo_hidden").notNull().default(false),
    /** Block layout of a page (kind "page"): rows of blocks, at most 60 blocks. */
    layout: jsonb("layout").$type<unknown>(),
    draftLayout: jsonb("draft_layout").$type<unknown>(),
    /** Kind-specific options: gallery option set, showPastOrUpcomingEvents, page size… */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [uniqueIndex("collections_slug_idx").on(t.websiteId, t.urlSlug)],
);

/** Where an event takes place (and the point its map shows). */
export interface ItemLocation {
  addressTitle?: string;
  addressLine1?: string;
  addressLine2?: string;
  addressCountry?: string;
  mapLat?: number;
  mapLng?: number;
}

export const contentItems = pgTable(
  "content_items",
  {
    ...siteRowKeys(),
    collectionId: belongsTo("collection_id", () => collections.id),
    recordType: integer("record_type").notNull(),
    urlId: text("url_id").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    excerpt: text("excerpt").notNull().default(""),
    authorName: text("author_name"),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    mainImageId: text("main_image_id").references(() => media.id, { onDelete: "set null" }),
    /** Extra images (galleries, product images) in order. */
    imageIds: text("image_ids").array().notNull().default(sql`'{}'::text[]`),
    location: jsonb("location").$type<ItemLocation>(),
    startDate: timestamp("start_date", { withTimezone: true }),
    endDate: timestamp("end_date", { withTimezone: true }),
    publishOn: timestamp("publish_on", { withTimezone: true }),
    /** Products: productType, isSubscribable, subscriptionPlan, additional fields form… */
    structuredContent: jsonb("structured_content").$type<Record<string, unknown>>(),
    /** What search engines and shares show instead of the title and excerpt (optional). */
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    /** "Hide from search engines": noindex, and left out of the sitemap. */
    seoHidden: boolean("seo_hidden").notNull().default(false),
    commentState: integer("comment_state").notNull().default(1),
    likeCount: integer("like_count").notNull().default(0),
    ordering: integer("ordering").notNull().default(0),
    status: text("status").notNull().default("published"),
    /** Placeholder content a starter brought (docs/starters.md): a sample product cannot be bought. */
    isSample: boolean("is_sample").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("content_items_url_idx").on(t.websiteId, t.collectionId, t.urlId),
    index("content_items_collection_idx").on(t.collectionId, t.ordering),
  ],
);

export const comments = pgTable(
  "comments",
  {
    ...siteRowKeys(),
    itemId: belongsTo("item_id", () => contentItems.id),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    approved: boolean("approved").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("comments_item_idx").on(t.itemId)],
);

export const productVariants = pgTable(
  "product_variants",
  {
    ...siteRowKeys(),
    itemId: belongsTo("item_id", () => contentItems.id),
    sku: text("sku").notNull(),
    /** Option name to value, e.g. {"Size": "M", "Color": "Indigo"}. */
    attributes: jsonb("attributes").$type<Record<string, string>>().notNull().default({}),
    priceCents: integer("price_cents").notNull(),
    salePriceCents: integer("sale_price_cents").notNull().default(0),
    onSale: boolean("on_sale").notNull().default(false),
    qtyInStock: integer("qty_in_stock").notNull().default(0),
    unlimited: boolean("unlimited").notNull().default(false),
    weightGrams: integer("weight_grams").notNull().default(0),
    mainImageId: text("main_image_id").references(() => media.id, { onDelete: "set null" }),
    ordering: integer("ordering").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("product_variants_sku_idx").on(t.websiteId, t.sku),
    index("product_variants_item_idx").on(t.itemId),
  ],
);

// ─── Forms and their submissions ─────────────────────────────────────────────────────────────────────

export const forms = pgTable("forms", {
  ...siteRowKeys(),
  name: text("name").notNull(),
  /** Field definitions: {id, type, title, required, options…} (SPEC §3 field types). */
  fields: jsonb("fields").$type<Record<string, unknown>[]>().notNull(),
  submissionMessage: text("submission_message").notNull().default("Thank you!"),
  submissionHtml: text("submission_html").notNull().default(""),
  successRedirect: text("success_redirect"),
  disclaimerMessage: text("disclaimer_message"),
  captchaEnabled: boolean("captcha_enabled").notNull().default(false),
  captchaTheme: integer("captcha_theme").notNull().default(1),
  captchaAlignment: integer("captcha_alignment").notNull().default(1),
  notifyEmail: text("notify_email"),
  createdAt: createdAt(),
});

export const formSubmissions = pgTable(
  "form_submissions",
  {
    ...siteRowKeys(),
    formId: belongsTo("form_id", () => forms.id),
    values: jsonb("values").$type<Record<string, unknown>>().notNull(),
    summary: jsonb("summary").$type<{ title: string; value: string }[]>().notNull(),
    pagePath: text("page_path"),
    createdAt: createdAt(),
  },
  (t) => [index("form_submissions_form_idx").on(t.formId, t.createdAt)],
);

// ─── Site users (visitor accounts), restock sign-ups and the mailing list ────────────────────────────

export const siteUsers = pgTable(
  "site_users",
  {
    ...siteRowKeys(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    addresses: jsonb("addresses").$type<Record<string, string>[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("site_users_email_idx").on(t.websiteId, t.email)],
);

export const siteUserSessions = pgTable("site_user_sessions", {
  ...siteRowKeys(),
  siteUserId: belongsTo("site_user_id", () => siteUsers.id),
  tokenHash: text("token_hash").notNull().unique(),
  xsrfTokenHash: text("xsrf_token_hash").notNull(),
  rememberMe: boolean("remember_me").notNull().default(false),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const restockSignups = pgTable(
  "restock_signups",
  {
    ...siteRowKeys(),
    itemId: belongsTo("item_id", () => contentItems.id),
    variantId: belongsTo("variant_id", () => productVariants.id),
    email: text("email").notNull(),
    joinMailingList: boolean("join_mailing_list").notNull().default(false),
    notifiedAt: timestamp("notified_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("restock_signups_unique_idx").on(t.variantId, t.email)],
);

export const mailingListSubscribers = pgTable(
  "mailing_list_subscribers",
  {
    ...siteRowKeys(),
    email: text("email").notNull(),
    source: text("source").notNull(),
    /** Double opt-in: signed up but not yet confirmed by the emailed link, so not consented. */
    confirmationPending: boolean("confirmation_pending").notNull().default(false),
    /** When the subscriber confirmed through the emailed link (double opt-in). */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /**
     * When this address had unsubscribed before the sign-up that made this row (a fresh consent
     * cleared it; see campaigns/consent.ts). Null when it never had.
     */
    unsubscribedBeforeAt: timestamp("unsubscribed_before_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** Names given by a CSV import (campaigns' subscribers import). */
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
  },
  (t) => [uniqueIndex("mailing_list_email_idx").on(t.websiteId, t.email)],
);

// ─── Developer mode (template overrides and drafts) and the site's design ────────────────────────────

/**
 * A site's own version of one of its theme's JSON-T templates (Design → Templates, `jsont push`).
 * It replaces the theme's file of the same name on the published site and survives theme updates.
 */
export const templateOverrides = pgTable(
  "template_overrides",
  {
    websiteId: websiteId(),
    name: text("name").notNull(),
    source: text("source").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.name] })],
);

/**
 * An owner's unsaved edit of a template: shown only to that owner, in the editing frame (the
 * preview cookie), never on the published site.
 */
export const templateDrafts = pgTable(
  "template_drafts",
  {
    websiteId: websiteId(),
    accountId: belongsTo("account_id", () => accounts.id),
    name: text("name").notNull(),
    source: text("source").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.accountId, t.name] })],
);

/**
 * A site's design (dashboard → Design): its style choices that differ from the theme's defaults
 * (`styles`, the style model of modules/design), custom CSS and identity images. The theme itself
 * stays on `websites.theme`. No row means the theme's defaults, no custom CSS and no images.
 */
export const siteDesigns = pgTable("site_designs", {
  websiteId: siteKey(),
  styles: jsonb("styles").$type<Record<string, unknown>>().notNull().default({}),
  customCss: text("custom_css").notNull().default(""),
  logoMediaId: text("logo_media_id").references(() => media.id, { onDelete: "set null" }),
  logoAlt: text("logo_alt").notNull().default(""),
  logoMaxHeight: integer("logo_max_height").notNull().default(48),
  siteIconMediaId: text("site_icon_media_id").references(() => media.id, { onDelete: "set null" }),
  socialImageMediaId: text("social_image_media_id").references(() => media.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});
