/** The store: carts and orders, shipping, tax, coupons and gift cards, payments, refunds and customer subscriptions. */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { belongsTo, createdAt, timestamps } from "./columns.js";
import { contentItems, productVariants, siteKey, siteRowKeys } from "./site.js";

// ─── Carts and orders ────────────────────────────────────────────────────────────────────────────────

export const carts = pgTable(
  "carts",
  {
    ...siteRowKeys(),
    /** Hash of the token kept in the visitor's cart cookie. */
    tokenHash: text("token_hash").notNull().unique(),
    siteUserId: text("site_user_id"),
    isPurchased: boolean("is_purchased").notNull().default(false),
    orderId: text("order_id"),
    shippingLocation: jsonb("shipping_location").$type<Record<string, string>>(),
    selectedShippingOptionId: text("selected_shipping_option_id"),
    couponCodes: text("coupon_codes").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps(),
  },
  (t) => [index("carts_website_idx").on(t.websiteId)],
);

export const cartEntries = pgTable(
  "cart_entries",
  {
    ...siteRowKeys(),
    cartId: belongsTo("cart_id", () => carts.id),
    itemId: belongsTo("item_id", () => contentItems.id),
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
    ...siteRowKeys(),
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
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("orders_number_idx").on(t.websiteId, t.orderNumber),
    uniqueIndex("orders_idempotency_idx").on(t.websiteId, t.idempotencyKey),
  ],
);

/**
 * The last order number a website gave: its row's lock numbers orders one after the other, in
 * the order's own insert (orders/service.ts). Derived from the orders (the greater of it and their
 * highest number counts), so archives leave it out.
 */
export const orderCounters = pgTable("order_counters", {
  websiteId: siteKey(),
  lastNumber: integer("last_number").notNull(),
});

export const orderLines = pgTable(
  "order_lines",
  {
    ...siteRowKeys(),
    orderId: belongsTo("order_id", () => orders.id),
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

// ─── Store rules: shipping, tax, coupons and gift cards ──────────────────────────────────────────────

export const shippingRules = pgTable("shipping_rules", {
  ...siteRowKeys(),
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
  ...siteRowKeys(),
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
    ...siteRowKeys(),
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
    ...siteRowKeys(),
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

// ─── Payments, refunds and customer subscriptions ────────────────────────────────────────────────────

export const payments = pgTable(
  "payments",
  {
    ...siteRowKeys(),
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
    ...timestamps(),
  },
  (t) => [uniqueIndex("payments_idempotency_idx").on(t.websiteId, t.idempotencyKey)],
);

export const refunds = pgTable("refunds", {
  ...siteRowKeys(),
  orderId: belongsTo("order_id", () => orders.id),
  amountCents: integer("amount_cents").notNull(),
  restocked: boolean("restocked").notNull().default(false),
  reason: text("reason"),
  createdAt: createdAt(),
});

export const customerSubscriptions = pgTable("customer_subscriptions", {
  ...siteRowKeys(),
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

// ─── Automatic discounts ───────────────────────────────────────────────────────────────────────

/** A promotion applied without a code (the rule is @atelier/commerce's discounts.ts). */
export const automaticDiscounts = pgTable(
  "automatic_discounts",
  {
    ...siteRowKeys(),
    name: text("name").notNull(),
    /** order_percentage, order_amount, product_percentage, product_amount, free_shipping, buy_x_get_y */
    kind: text("kind").notNull(),
    /** A whole percent 0–100, or minor units. */
    value: integer("value").notNull().default(0),
    /** { productIds, categoryIds, shippingOptionIds? } */
    appliesTo: jsonb("applies_to")
      .$type<{ productIds: string[]; categoryIds: string[]; shippingOptionIds?: string[] }>()
      .notNull(),
    /** { minSubtotalCents, minQuantity, firstOrderOnly } */
    conditions: jsonb("conditions")
      .$type<{ minSubtotalCents: number; minQuantity: number; firstOrderOnly: boolean }>()
      .notNull(),
    /** buy_x_get_y: { buyQuantity, getQuantity, getProductIds, getCategoryIds } */
    buyXGetY: jsonb("buy_x_get_y").$type<{
      buyQuantity: number;
      getQuantity: number;
      getProductIds: string[];
      getCategoryIds: string[];
    }>(),
    /** Wall-clock times in the site's time zone, "YYYY-MM-DDTHH:mm". */
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    usageLimit: integer("usage_limit"),
    perCustomerLimit: integer("per_customer_limit"),
    timesUsed: integer("times_used").notNull().default(0),
    combinesWithCoupons: boolean("combines_with_coupons").notNull().default(false),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("automatic_discounts_site_idx").on(t.websiteId)],
);

/** One use of an automatic discount by an order (per-customer limits count these by email). */
export const discountUses = pgTable(
  "discount_uses",
  {
    ...siteRowKeys(),
    discountId: text("discount_id")
      .notNull()
      .references(() => automaticDiscounts.id, { onDelete: "cascade" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** The buyer's email, lower case. */
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("discount_uses_email_idx").on(t.websiteId, t.email)],
);
