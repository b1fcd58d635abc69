/** Abandoned checkouts and recovery emails (issue 24): the owner's settings, one row per checkout, unsubscribes. */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { carts } from "./commerce.js";
import { belongsTo, createdAt, timestamps, updatedAt } from "./columns.js";
import { siteKey, siteRowKeys, websiteId } from "./site.js";

/** One reminder of the owner's settings, as stored (the API's shape). */
export interface StoredReminder {
  enabled: boolean;
  delayMinutes: number;
  subject: string;
  body: string;
  discount: { kind: "percentage" | "amount"; value: number } | null;
}

export const recoverySettings = pgTable("recovery_settings", {
  websiteId: siteKey(),
  enabled: boolean("enabled").notNull().default(false),
  abandonedAfterMinutes: integer("abandoned_after_minutes").notNull().default(60),
  reminders: jsonb("reminders").$type<StoredReminder[]>().notNull(),
  updatedAt: updatedAt(),
});

/**
 * A checkout whose shopper gave an email: abandoned once `abandoned_at` is set (by the scan),
 * `next_reminder` is the index in the settings' reminders to consider next, `stopped` says why
 * reminders stopped (ordered, unsubscribed, sold_out, finished), `recovered_*` the order it led to.
 */
export const abandonedCheckouts = pgTable(
  "abandoned_checkouts",
  {
    ...siteRowKeys(),
    cartId: belongsTo("cart_id", () => carts.id).unique(),
    email: text("email").notNull(),
    firstName: text("first_name"),
    /** When the shopper last gave the email (the checkout's last sign of life with the cart's update). */
    contactedAt: timestamp("contacted_at", { withTimezone: true }).notNull(),
    abandonedAt: timestamp("abandoned_at", { withTimezone: true }),
    /** When the scan looks at it next (null: not until the settings change). */
    nextCheckAt: timestamp("next_check_at", { withTimezone: true }),
    /** The site's address the shopper used (links in the reminders go there). */
    origin: text("origin").notNull(),
    subtotalCents: integer("subtotal_cents").notNull().default(0),
    remindersSent: integer("reminders_sent").notNull().default(0),
    nextReminder: integer("next_reminder").notNull().default(0),
    lastReminderAt: timestamp("last_reminder_at", { withTimezone: true }),
    /** The single-use coupons made for this cart by reminders. */
    couponCodes: text("coupon_codes").array().notNull().default([]),
    stopped: text("stopped"),
    /** When the recovery link last restored the cart. */
    restoredAt: timestamp("restored_at", { withTimezone: true }),
    orderId: text("order_id"),
    recoveredCents: integer("recovered_cents"),
    recoveredAt: timestamp("recovered_at", { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [
    index("abandoned_checkouts_website_idx").on(t.websiteId, t.abandonedAt),
    index("abandoned_checkouts_due_idx").on(t.nextCheckAt),
    index("abandoned_checkouts_email_idx").on(t.websiteId, t.email),
  ],
);

/** Shoppers who asked for no more recovery emails from a site. */
export const recoveryUnsubscribes = pgTable(
  "recovery_unsubscribes",
  {
    websiteId: websiteId(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.email] })],
);
