/** Store rules: shipping, tax, coupons and gift cards. */
import { sql } from "drizzle-orm";
import { boolean, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";
import { websiteId } from "./sites.js";

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
