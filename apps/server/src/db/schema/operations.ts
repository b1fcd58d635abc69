/** Analytics, background jobs and outbound email. */
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";
import { websiteId } from "./sites.js";

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
