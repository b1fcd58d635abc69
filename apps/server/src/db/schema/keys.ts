/** Single-use keys and shared counters. */
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";
import { siteUsers } from "./site-users.js";
import { websiteId } from "./sites.js";

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
