/** Carts and orders. */
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";
import { contentItems, productVariants } from "./content.js";
import { websiteId } from "./sites.js";

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
