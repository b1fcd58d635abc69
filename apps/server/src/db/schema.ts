/**
 * The data model (SPEC §3). Every site-scoped table carries `website_id`. Money columns are
 * integers of minor units (`*_cents`); timestamps are `timestamptz`; enumerations are the
 * SPEC's integers (see enums.ts).
 */
import { sql } from "drizzle-orm";
import {
  bigserial,
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

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const websiteId = () =>
  text("website_id")
    .notNull()
    .references(() => websites.id, { onDelete: "cascade" });

// ─── Websites and their settings ────────────────────────────────────────────────────────────

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

// ─── Site owners ─────────────────────────────────────────────────────────────────────────────

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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("account_sessions_account_idx").on(t.accountId)],
);

export const memberships = pgTable(
  "memberships",
  {
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    websiteId: websiteId(),
    role: text("role").notNull().default("owner"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.websiteId] })],
);

// ─── Content ─────────────────────────────────────────────────────────────────────────────────

export const media = pgTable(
  "media",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
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
    createdAt: createdAt(),
  },
  (t) => [index("media_website_idx").on(t.websiteId)],
);

export const collections = pgTable(
  "collections",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("collections_slug_idx").on(t.websiteId, t.urlSlug)],
);

export const contentItems = pgTable(
  "content_items",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    collectionId: text("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
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
    location: jsonb("location").$type<{
      addressTitle?: string;
      addressLine1?: string;
      addressLine2?: string;
      addressCountry?: string;
      mapLat?: number;
      mapLng?: number;
    }>(),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("content_items_url_idx").on(t.websiteId, t.collectionId, t.urlId),
    index("content_items_collection_idx").on(t.collectionId, t.ordering),
  ],
);

export const comments = pgTable(
  "comments",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
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
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("product_variants_sku_idx").on(t.websiteId, t.sku),
    index("product_variants_item_idx").on(t.itemId),
  ],
);

// ─── Carts and orders ────────────────────────────────────────────────────────────────────────

export const carts = pgTable(
  "carts",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    /** Hash of the token kept in the visitor's cart cookie. */
    tokenHash: text("token_hash").notNull().unique(),
    siteUserId: text("site_user_id"),
    isPurchased: boolean("is_purchased").notNull().default(false),
    orderId: text("order_id"),
    shippingLocation: jsonb("shipping_location").$type<Record<string, string>>(),
    selectedShippingOptionId: text("selected_shipping_option_id"),
    couponCodes: text("coupon_codes").array().notNull().default(sql`'{}'::text[]`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("carts_website_idx").on(t.websiteId)],
);

export const cartEntries = pgTable(
  "cart_entries",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
    variantId: text("variant_id").references(() => productVariants.id, { onDelete: "set null" }),
    sku: text("sku").notNull(),
    quantity: integer("quantity").notNull(),
    additionalFields: jsonb("additional_fields").$type<unknown>(),
    /** Gift cards: the chosen denomination; subscriptions: the plan chosen. */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("cart_entries_cart_idx").on(t.cartId)],
);

export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    orderNumber: integer("order_number").notNull(),
    cartId: text("cart_id"),
    siteUserId: text("site_user_id"),
    email: text("email").notNull(),
    shippingAddress: jsonb("shipping_address").$type<Record<string, string>>(),
    billingAddress: jsonb("billing_address").$type<Record<string, string>>(),
    /** pending, paid, fulfilled, refunded, partially_refunded, cancelled */
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    subtotalCents: integer("subtotal_cents").notNull(),
    taxCents: integer("tax_cents").notNull().default(0),
    shippingCents: integer("shipping_cents").notNull().default(0),
    discountCents: integer("discount_cents").notNull().default(0),
    grandTotalCents: integer("grand_total_cents").notNull(),
    refundedCents: integer("refunded_cents").notNull().default(0),
    testMode: boolean("test_mode").notNull().default(true),
    idempotencyKey: text("idempotency_key"),
    trackingNumber: text("tracking_number"),
    /**
     * What the order was priced and paid with, kept as the buyer saw it: shipping option, coupons,
     * tax rules, gift cards, card last four; plus fulfilment (carrier, tracking URL, dates).
     */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("orders_number_idx").on(t.websiteId, t.orderNumber),
    uniqueIndex("orders_idempotency_idx").on(t.websiteId, t.idempotencyKey),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    itemId: text("item_id").notNull(),
    variantId: text("variant_id"),
    sku: text("sku").notNull(),
    productName: text("product_name").notNull(),
    productType: integer("product_type").notNull(),
    attributes: jsonb("attributes").$type<Record<string, string>>().notNull().default({}),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    /** The product form's answers, subscription terms, gift-card recipient, refunded quantity. */
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("order_lines_order_idx").on(t.orderId)],
);

// ─── Forms ───────────────────────────────────────────────────────────────────────────────────

export const forms = pgTable("forms", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
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
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    formId: text("form_id")
      .notNull()
      .references(() => forms.id, { onDelete: "cascade" }),
    values: jsonb("values").$type<Record<string, unknown>>().notNull(),
    summary: jsonb("summary").$type<{ title: string; value: string }[]>().notNull(),
    pagePath: text("page_path"),
    createdAt: createdAt(),
  },
  (t) => [index("form_submissions_form_idx").on(t.formId, t.createdAt)],
);

// ─── Site users (visitor accounts) ───────────────────────────────────────────────────────────

export const siteUsers = pgTable(
  "site_users",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
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
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  siteUserId: text("site_user_id")
    .notNull()
    .references(() => siteUsers.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  xsrfTokenHash: text("xsrf_token_hash").notNull(),
  rememberMe: boolean("remember_me").notNull().default(false),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

export const restockSignups = pgTable(
  "restock_signups",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
    variantId: text("variant_id")
      .notNull()
      .references(() => productVariants.id, { onDelete: "cascade" }),
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
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    email: text("email").notNull(),
    source: text("source").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("mailing_list_email_idx").on(t.websiteId, t.email)],
);

// ─── API keys, billing, features ─────────────────────────────────────────────────────────────

export const apiKeys = pgTable("api_keys", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  name: text("name").notNull(),
  /** First characters of the key, shown in the panel; the key itself is only stored hashed. */
  prefix: text("prefix").notNull(),
  keyHash: text("key_hash").notNull().unique(),
  scopes: text("scopes").array().notNull().default(sql`'{}'::text[]`),
  createdAt: createdAt(),
  lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

export const featureSets = pgTable("feature_sets", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  productLine: text("product_line").notNull(),
  enabledFeatures: integer("enabled_features").array().notNull().default(sql`'{}'::integer[]`),
  /** Feature limits by name; a missing limit means unlimited. */
  limits: jsonb("limits").$type<Record<string, number>>().notNull().default({}),
});

export const billingPlans = pgTable("billing_plans", {
  id: text("id").primaryKey(),
  planDisplayName: text("plan_display_name").notNull(),
  productLine: text("product_line").notNull(),
  featureSetId: text("feature_set_id")
    .notNull()
    .references(() => featureSets.id),
  priceCents: integer("price_cents").notNull(),
  basePriceCents: integer("base_price_cents").notNull(),
  currency: text("currency").notNull().default("USD"),
  billingPeriodUnit: text("billing_period_unit").notNull(),
  billingPeriodValue: integer("billing_period_value").notNull().default(1),
});

export const billingSubscriptions = pgTable(
  "billing_subscriptions",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    /** website, resold, or another product line */
    type: text("type").notNull(),
    planId: text("plan_id")
      .notNull()
      .references(() => billingPlans.id),
    pastDue: boolean("past_due").notNull().default(false),
    autoRenew: boolean("auto_renew").notNull().default(true),
    nextChargeAt: timestamp("next_charge_at", { withTimezone: true }),
    nextChargeAmountCents: integer("next_charge_amount_cents").notNull().default(0),
    nextChargeTaxCents: integer("next_charge_tax_cents").notNull().default(0),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    createdAt: createdAt(),
    /** Start of the period paid for; the period ends at nextChargeAt. */
    periodStart: timestamp("period_start", { withTimezone: true }),
    /** When a trial ends (the site expires then unless upgraded). */
    trialEndsAt: timestamp("trial_ends_at", { withTimezone: true }),
    /** A plan change staged by PUT …/plan-change/{planId}, applied by its confirm. */
    pendingPlanId: text("pending_plan_id").references(() => billingPlans.id),
    /** Credit left from a downgrade, taken off the next charges. */
    creditCents: integer("credit_cents").notNull().default(0),
    /** Failed charges of the renewal now due (reset when one succeeds). */
    renewalAttempts: integer("renewal_attempts").notNull().default(0),
    /** When the renewal is tried again after a failure; also a short lease while one is in flight. */
    renewalRetryAt: timestamp("renewal_retry_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("billing_subscriptions_site_type_idx").on(t.websiteId, t.type)],
);

/**
 * URL mappings (Settings → URL mappings): `from` is an exact path or a prefix ending in "/*";
 * `to` a path (ending in "/*" to carry the rest of a prefix) or an absolute URL. Checked before a
 * page answers 404; a changed page or product address adds one automatically.
 */
export const urlRedirects = pgTable(
  "url_redirects",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    fromPath: text("from_path").notNull(),
    toPath: text("to_path").notNull(),
    /** 301 (moved for good) or 302 (for now). */
    status: integer("status").notNull().default(301),
    /** Added by a slug change rather than by the owner. */
    automatic: boolean("automatic").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("url_redirects_from_idx").on(t.websiteId, t.fromPath)],
);

/** The card an owner pays the site's plan with: only the provider's reference and what may be shown. */
export const billingPaymentMethods = pgTable("billing_payment_methods", {
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  provider: text("provider").notNull(),
  savedMethod: text("saved_method").notNull(),
  cardLast4: text("card_last4").notNull(),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  /** ISO 3166 country of the card's billing address: the tax on plan charges follows it. */
  billingCountry: text("billing_country"),
  updatedAt: updatedAt(),
});

/** A card being saved that waits for its holder's authentication (3-D Secure). */
export const billingCardSetups = pgTable("billing_card_setups", {
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  /** The provider's idempotency key of the verification charge, to look it up afterwards. */
  chargeKey: text("charge_key").notNull(),
  providerRef: text("provider_ref").notNull(),
  cardLast4: text("card_last4").notNull(),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  billingCountry: text("billing_country"),
  createdAt: createdAt(),
});

export const invoices = pgTable("invoices", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  subscriptionId: text("subscription_id").references(() => billingSubscriptions.id, { onDelete: "set null" }),
  totalCents: integer("total_cents").notNull(),
  taxCents: integer("tax_cents").notNull().default(0),
  currency: text("currency").notNull().default("USD"),
  status: text("status").notNull(),
  issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
  paidAt: timestamp("paid_at", { withTimezone: true }),
  /** What the invoice is for, e.g. "Plan change: Personal → Business". */
  description: text("description").notNull().default(""),
  subtotalCents: integer("subtotal_cents").notNull().default(0),
  cardLast4: text("card_last4"),
  providerRef: text("provider_ref"),
});

// ─── Analytics, jobs, email ──────────────────────────────────────────────────────────────────

export const analyticsHits = pgTable(
  "analytics_hits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    websiteId: websiteId(),
    event: text("event").notNull(),
    visitorCookie: text("visitor_cookie"),
    url: text("url"),
    pagePath: text("page_path"),
    referrer: text("referrer"),
    userAgent: text("user_agent"),
    itemId: text("item_id"),
    collectionId: text("collection_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("analytics_hits_website_idx").on(t.websiteId, t.createdAt)],
);

export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    websiteId: websiteId(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    pagePath: text("page_path"),
    sessionId: text("session_id"),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("analytics_events_website_idx").on(t.websiteId, t.createdAt)],
);

export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    doneAt: timestamp("done_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("jobs_due_idx").on(t.runAt)],
);

export const outboundEmails = pgTable("outbound_emails", {
  id: text("id").primaryKey(),
  websiteId: text("website_id"),
  toAddress: text("to_address").notNull(),
  subject: text("subject").notNull(),
  textBody: text("text_body").notNull(),
  htmlBody: text("html_body"),
  /** queued, sent, failed, or kept (no SMTP configured: the outbox is the record) */
  status: text("status").notNull().default("queued"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  createdAt: createdAt(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

// ─── Store rules: shipping, tax, coupons, gift cards ─────────────────────────────────────────

export const shippingRules = pgTable("shipping_rules", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  name: text("name").notNull(),
  /** flat (priceCents per order), weight (priceCents + perKgCents per started kg), free (above minSubtotalCents) */
  kind: text("kind").notNull(),
  priceCents: integer("price_cents").notNull().default(0),
  perKgCents: integer("per_kg_cents").notNull().default(0),
  minSubtotalCents: integer("min_subtotal_cents").notNull().default(0),
  /** ISO country codes served; empty means everywhere. */
  countries: text("countries").array().notNull().default(sql`'{}'::text[]`),
  ordering: integer("ordering").notNull().default(0),
});

export const taxRules = pgTable("tax_rules", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  name: text("name").notNull(),
  country: text("country").notNull(),
  /** State or region code; null applies to the whole country. */
  region: text("region"),
  /** Rate in basis points (825 = 8.25%). */
  rateBasisPoints: integer("rate_basis_points").notNull(),
  appliesToShipping: boolean("applies_to_shipping").notNull().default(false),
});

export const coupons = pgTable(
  "coupons",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    code: text("code").notNull(),
    /** percent (amount = percent), fixed (amount = cents), free_shipping */
    kind: text("kind").notNull(),
    amount: integer("amount").notNull().default(0),
    minSubtotalCents: integer("min_subtotal_cents").notNull().default(0),
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    usageLimit: integer("usage_limit"),
    timesUsed: integer("times_used").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("coupons_code_idx").on(t.websiteId, t.code)],
);

export const giftCards = pgTable(
  "gift_cards",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    /** SHA-256 of the code (unique per site, so a site's copy keeps its cards); last four kept in clear. */
    codeHash: text("code_hash").notNull(),
    codeLast4: text("code_last4").notNull(),
    initialCents: integer("initial_cents").notNull(),
    balanceCents: integer("balance_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    orderId: text("order_id"),
    recipientEmail: text("recipient_email"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("gift_cards_code_idx").on(t.websiteId, t.codeHash)],
);

// ─── Payments, refunds, customer subscriptions ───────────────────────────────────────────────

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    orderId: text("order_id"),
    cartId: text("cart_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    provider: text("provider").notNull(),
    providerRef: text("provider_ref"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull(),
    /** pending, requires_action, succeeded, failed, refunded */
    status: text("status").notNull(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("payments_idempotency_idx").on(t.websiteId, t.idempotencyKey)],
);

export const refunds = pgTable("refunds", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  orderId: text("order_id")
    .notNull()
    .references(() => orders.id, { onDelete: "cascade" }),
  amountCents: integer("amount_cents").notNull(),
  restocked: boolean("restocked").notNull().default(false),
  reason: text("reason"),
  createdAt: createdAt(),
});

export const customerSubscriptions = pgTable("customer_subscriptions", {
  id: text("id").primaryKey(),
  websiteId: websiteId(),
  siteUserId: text("site_user_id"),
  email: text("email").notNull(),
  itemId: text("item_id").notNull(),
  variantId: text("variant_id"),
  sku: text("sku").notNull(),
  quantity: integer("quantity").notNull().default(1),
  priceCents: integer("price_cents").notNull(),
  currency: text("currency").notNull(),
  billingPeriodValue: integer("billing_period_value").notNull(),
  /** WEEK, MONTH or YEAR */
  billingPeriodUnit: text("billing_period_unit").notNull(),
  /** 0 means indefinite. */
  numBillingCycles: integer("num_billing_cycles").notNull(),
  cyclesBilled: integer("cycles_billed").notNull().default(0),
  /** active, past_due, cancelled, completed */
  status: text("status").notNull(),
  paymentToken: text("payment_token"),
  shippingAddress: jsonb("shipping_address").$type<Record<string, string>>(),
  nextBillingAt: timestamp("next_billing_at", { withTimezone: true }),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  createdAt: createdAt(),
});

// ─── Single-use keys and shared counters ─────────────────────────────────────────────────────

export const formSubmissionKeys = pgTable("form_submission_keys", {
  keyHash: text("key_hash").primaryKey(),
  websiteId: websiteId(),
  createdAt: createdAt(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
});

export const passwordResetTokens = pgTable("password_reset_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  websiteId: websiteId(),
  siteUserId: text("site_user_id")
    .notNull()
    .references(() => siteUsers.id, { onDelete: "cascade" }),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: createdAt(),
});

/** Fixed-window counters for rate limits that must hold across server processes. */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
});

// ─── Developer mode: per-site template overrides ─────────────────────────────────────────────

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
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
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
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  styles: jsonb("styles").$type<Record<string, unknown>>().notNull().default({}),
  customCss: text("custom_css").notNull().default(""),
  logoMediaId: text("logo_media_id").references(() => media.id, { onDelete: "set null" }),
  logoAlt: text("logo_alt").notNull().default(""),
  logoMaxHeight: integer("logo_max_height").notNull().default(48),
  siteIconMediaId: text("site_icon_media_id").references(() => media.id, { onDelete: "set null" }),
  socialImageMediaId: text("social_image_media_id").references(() => media.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});
