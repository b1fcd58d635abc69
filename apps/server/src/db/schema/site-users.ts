/** Site users (visitor accounts), restock sign-ups and the mailing list. */
import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";
import { contentItems, productVariants } from "./content.js";
import { websiteId } from "./sites.js";

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
