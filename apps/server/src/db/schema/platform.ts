/** The platform around the sites: API keys, plans and billing, redirects, analytics, jobs, email, single-use keys and counters. */
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { belongsTo, createdAt, updatedAt } from "./columns.js";
import { siteKey, siteRowKeys, siteUsers, websiteId } from "./site.js";

// ─── API keys, feature sets, billing plans, subscriptions, redirects, payment methods and invoices ───

export const apiKeys = pgTable("api_keys", {
  ...siteRowKeys(),
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
    ...siteRowKeys(),
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
    ...siteRowKeys(),
    fromPath: text("from_path").notNull(),
    toPath: text("to_path").notNull(),
    /** 301 (moved for good) or 302 (for now). */
    status: integer("status").notNull().default(301),
    /** Added by a slug change rather than by the owner. */
    automatic: boolean("automatic").notNull().default(false),
    /** The import that added it ("WordPress import of export.xml, 28 Nov 2026"), removable as a group. */
    groupName: text("group_name"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("url_redirects_from_idx").on(t.websiteId, t.fromPath)],
);

/**
 * Imports from other platforms (WordPress, Shopify, WooCommerce) that run in the background: the
 * job's progress in copying files and, once done, its line-by-line report.
 */
export const siteImports = pgTable("site_imports", {
  ...siteRowKeys(),
  /** "wordpress" or "products-csv". */
  source: text("source").notNull(),
  /** The uploaded file's name, for the report and the URL mappings' group. */
  fileName: text("file_name").notNull().default(""),
  /** "running", "done" or "failed". */
  status: text("status").notNull().default("running"),
  progress: jsonb("progress")
    .$type<{ done: number; failed: number; left: number }>()
    .notNull()
    .default({ done: 0, failed: 0, left: 0 }),
  report: jsonb("report").$type<Record<string, unknown>>(),
  error: text("error"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** What may be shown of a saved card; the tax on plan charges follows its ISO 3166 billing country. */
const shownCard = () => ({
  cardLast4: text("card_last4").notNull(),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  billingCountry: text("billing_country"),
});

/** The card an owner pays the site's plan with: only the provider's reference and what may be shown. */
export const billingPaymentMethods = pgTable("billing_payment_methods", {
  websiteId: siteKey(),
  provider: text("provider").notNull(),
  savedMethod: text("saved_method").notNull(),
  ...shownCard(),
  updatedAt: updatedAt(),
});

/** A card being saved that waits for its holder's authentication (3-D Secure). */
export const billingCardSetups = pgTable("billing_card_setups", {
  websiteId: siteKey(),
  /** The provider's idempotency key of the verification charge, to look it up afterwards. */
  chargeKey: text("charge_key").notNull(),
  providerRef: text("provider_ref").notNull(),
  ...shownCard(),
  createdAt: createdAt(),
});

export const invoices = pgTable("invoices", {
  ...siteRowKeys(),
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

// ─── Analytics, background jobs and outbound email ───────────────────────────────────────────────────

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

/**
 * Analytics rollups (docs/analytics.md): one row per site and local day (the site's time zone) that
 * the reports read instead of raw hits and orders. A day is marked dirty when a hit or an order of
 * that day arrives or changes; a job rebuilds it from the raw rows.
 */
export const analyticsRollupDays = pgTable(
  "analytics_rollup_days",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    dirty: boolean("dirty").notNull().default(true),
    builtAt: timestamp("built_at", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day] })],
);

/** Sales of a local day: placed orders (not pending), in minor units; refunds on the order's day. */
export const analyticsDailySales = pgTable(
  "analytics_daily_sales",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    orders: integer("orders").notNull(),
    units: integer("units").notNull(),
    grossCents: bigint("gross_cents", { mode: "number" }).notNull(),
    discountCents: bigint("discount_cents", { mode: "number" }).notNull(),
    refundedCents: bigint("refunded_cents", { mode: "number" }).notNull(),
    refundedOrders: integer("refunded_orders").notNull(),
    shippingCents: bigint("shipping_cents", { mode: "number" }).notNull(),
    taxCents: bigint("tax_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day] })],
);

/** Per product and variant of a local day: views and adds to cart (variant ""), units and revenue sold. */
export const analyticsDailyProducts = pgTable(
  "analytics_daily_products",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    itemId: text("item_id").notNull(),
    variantId: text("variant_id").notNull(),
    name: text("name").notNull(),
    views: integer("views").notNull(),
    adds: integer("adds").notNull(),
    orders: integer("orders").notNull(),
    units: integer("units").notNull(),
    revenueCents: bigint("revenue_cents", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day, t.itemId, t.variantId] })],
);

/**
 * Traffic of a local day in one row: page views, visits, visitors (distinct that day), and the
 * funnel's visits that viewed a product, added to the cart, started checkout. The funnel report
 * and the traffic report's series read only these (one row a day).
 */
export const analyticsDailyTotals = pgTable(
  "analytics_daily_totals",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    pageViews: integer("page_views").notNull(),
    visits: integer("visits").notNull(),
    visitors: integer("visitors").notNull(),
    productViews: integer("product_views").notNull(),
    adds: integer("adds").notNull(),
    checkouts: integer("checkouts").notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day] })],
);

/**
 * The visitors of a local day, one row each: a 64-bit hash of the visitor id (the first part of
 * the visitor cookie), so a range's visitors are counted once however many days they came
 * (`count(distinct visitor)`). Exact but for a hash collision (odds about n²/2⁶⁵: under one in
 * a million for six million visitors).
 */
export const analyticsDailyVisitors = pgTable(
  "analytics_daily_visitors",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    visitor: bigint("visitor", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day, t.visitor] })],
);

/**
 * Traffic of a local day by dimension (source, domain, utm_source, utm_medium, utm_campaign,
 * page, entry, device) and key: visits and page views (its visitors are in
 * `analytics_daily_traffic_visitors`, counted once over a range).
 */
export const analyticsDailyTraffic = pgTable(
  "analytics_daily_traffic",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    visits: integer("visits").notNull(),
    pageViews: integer("page_views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.day, t.dimension, t.key] })],
);

/**
 * The visitors of a local day by visit dimension (source, domain, utm_source, utm_medium,
 * utm_campaign, entry, device) and key, one row each: the same 64-bit hash of the visitor id as
 * `analytics_daily_visitors`, and `prev`, the visitor's last earlier day with this key within 730
 * days (or, when none, the day 731 days before). A range of at most 731 days holds each of a
 * key's visitors once as a row whose `prev` is before the range: its first day in the range.
 */
export const analyticsDailyTrafficVisitors = pgTable(
  "analytics_daily_traffic_visitors",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    visitor: bigint("visitor", { mode: "bigint" }).notNull(),
    prev: date("prev", { mode: "string" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.day, t.dimension, t.key, t.visitor] }),
    index("analytics_daily_traffic_visitors_visitor_idx").on(
      t.websiteId,
      t.dimension,
      t.key,
      t.visitor,
      t.day,
    ),
  ],
);

/**
 * `analytics_daily_traffic_visitors` counted per local day, dimension, key and `prev`: the
 * distinct visitors of a key over a range are the sum of its rows in the range whose `prev` is
 * before the range's first day (a few rows a day and key, however many visitors).
 */
export const analyticsDailyTrafficVisitorCounts = pgTable(
  "analytics_daily_traffic_visitor_counts",
  {
    websiteId: websiteId(),
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    prev: date("prev", { mode: "string" }).notNull(),
    visitors: integer("visitors").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.websiteId, t.dimension, t.key, t.day, t.prev] }),
    index("analytics_daily_traffic_visitor_counts_day_idx").on(t.websiteId, t.day),
  ],
);

/**
 * The daily traffic rows summed over a whole ISO week (span "week", `start` its Monday) or a
 * whole month (span "month", `start` its first day), kept with the days: a long range reads its
 * full months and weeks here and only its edge days from `analytics_daily_traffic`.
 */
export const analyticsSpanTraffic = pgTable(
  "analytics_span_traffic",
  {
    websiteId: websiteId(),
    span: text("span").notNull(),
    start: date("start", { mode: "string" }).notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    visits: integer("visits").notNull(),
    pageViews: integer("page_views").notNull(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.span, t.start, t.dimension, t.key] })],
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
  (t) => [
    index("jobs_due_idx").on(t.runAt),
    // Claims look for unfinished jobs only; finished ones stay a week and would be scanned.
    index("jobs_pending_idx").on(t.runAt, t.id).where(sql`${t.doneAt} is null`),
  ],
);

export const outboundEmails = pgTable("outbound_emails", {
  id: text("id").primaryKey(),
  websiteId: text("website_id"),
  toAddress: text("to_address").notNull(),
  subject: text("subject").notNull(),
  textBody: text("text_body").notNull(),
  htmlBody: text("html_body"),
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post on marketing mail. */
  headers: jsonb("headers").$type<Record<string, string>>(),
  /** queued, sent, failed, or kept (no SMTP configured: the outbox is the record) */
  status: text("status").notNull().default("queued"),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  createdAt: createdAt(),
  sentAt: timestamp("sent_at", { withTimezone: true }),
});

// ─── Single-use keys and shared counters ─────────────────────────────────────────────────────────────

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
  siteUserId: belongsTo("site_user_id", () => siteUsers.id),
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

// ─── Domain events: the transactional outbox ─────────────────────────────────────────────────────────

/**
 * One row per change that matters outside its module (an order paid, stock changed, a product
 * saved, a member added…), written in the same transaction as the change. Consumers (webhooks,
 * the activity log, analytics, recovery) get one job per event each, so a crash never loses an
 * event nor delivers one for a rolled-back change.
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** A stable public id (webhook-id, activity entry id). */
    publicId: text("public_id").notNull().unique(),
    websiteId: text("website_id"),
    /** e.g. order.created, product.updated, member.added */
    type: text("type").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    /** account, api_key, site_user, visitor or system */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("events_website_idx").on(t.websiteId, t.id), index("events_type_idx").on(t.type, t.id)],
);

/**
 * The activity log of a site: one row for each change made through the owner API (by a person in
 * the dashboard or by an API key), written in the change's own transaction (modules/activity).
 * Only names of fields, never their values; nothing in the API changes or deletes a row, and rows
 * older than a year are pruned by the job queue's housekeeping.
 */
export const activityEntries = pgTable(
  "activity_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    websiteId: websiteId(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** account or api_key */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    /** The account's email, or the key's name, when the change was made. */
    actorLabel: text("actor_label").notNull().default(""),
    ip: text("ip"),
    userAgent: text("user_agent"),
    /** The area of the permission table the change belongs to (products, design, members…). */
    area: text("area"),
    /** `<entity>.<verb>`, e.g. product.updated, order.fulfil, site.exported */
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    /** The names of the fields the change sent (never their values). */
    fields: jsonb("fields").$type<string[]>().notNull().default([]),
  },
  (t) => [index("activity_site_idx").on(t.websiteId, t.id), index("activity_at_idx").on(t.at)],
);

// ─── Webhooks: subscriptions, the messages they are sent and each attempt ────────────────────────────

/** An owner's webhook subscription: where to POST which event types, signed with its secret. */
export const webhooks = pgTable(
  "webhooks",
  {
    ...siteRowKeys(),
    url: text("url").notNull(),
    topics: text("topics").array().notNull(),
    description: text("description").notNull().default(""),
    active: boolean("active").notNull().default(true),
    /** The signing secret (`whsec_…`), encrypted with the server's key (modules/webhooks/secrets.ts). */
    secret: text("secret").notNull(),
    /** After a rotation, the previous secret keeps signing beside the new one until `previousSecretUntil`. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    /** The first failed attempt since the last success: 3 days of failure disable the subscription. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** Why the server paused it (3 days of failure), if it did. */
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhooks_website_idx").on(t.websiteId)],
);

/** One event to send to one subscription: the exact body every attempt sends, frozen when it is made. */
export const webhookMessages = pgTable(
  "webhook_messages",
  {
    ...siteRowKeys(),
    webhookId: belongsTo("webhook_id", () => webhooks.id),
    /** The event's public id: the `webhook-id` header of every attempt. */
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** pending, delivered or failed (retries used up, or the subscription was paused or removed). */
    status: text("status").notNull().default("pending"),
    createdAt: createdAt(),
  },
  (t) => [index("webhook_messages_created_idx").on(t.createdAt)],
);

/** The delivery log: one row per attempt, kept 30 days. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    ...siteRowKeys(),
    webhookId: belongsTo("webhook_id", () => webhooks.id),
    messageId: belongsTo("message_id", () => webhookMessages.id),
    attempt: integer("attempt").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    /** The HTTP status, or null when no answer came (refused address, timeout, connection error). */
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    /** The first 2 KB of the answer's body, or why there was no answer. */
    responseExcerpt: text("response_excerpt").notNull().default(""),
  },
  (t) => [
    index("webhook_deliveries_log_idx").on(t.webhookId, t.at, t.id),
    index("webhook_deliveries_at_idx").on(t.at),
  ],
);
