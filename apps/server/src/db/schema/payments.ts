/** Payments, refunds and customer subscriptions. */
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";
import { orders } from "./orders.js";
import { websiteId } from "./sites.js";

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
