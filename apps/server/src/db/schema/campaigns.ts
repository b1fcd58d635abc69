/**
 * Email campaigns (issue 25): the campaigns, one row per recipient (claimed like a job while
 * sending), segments of the mailing list by rule, the links of tracked campaigns, the addresses
 * no campaign may go to (refused by their mail server, unsubscribed) and the site's sender details.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Audience, CampaignBlock, SegmentRule } from "@atelier/owner-api";
import { belongsTo, createdAt, timestamps, updatedAt } from "./columns.js";
import { siteKey, siteRowKeys, websiteId } from "./site.js";

/** A rule of a segment, as stored (the API's shape). */
export type StoredSegmentRule = SegmentRule;

export const segments = pgTable("segments", {
  ...siteRowKeys(),
  name: text("name").notNull(),
  rule: jsonb("rule").$type<StoredSegmentRule>().notNull(),
  ...timestamps(),
});

/** A campaign's audience, as stored. */
export type StoredAudience = Audience;

/** A block of a campaign's body, as stored (the API's shape). */
export type StoredCampaignBlock = CampaignBlock;

export const campaigns = pgTable(
  "campaigns",
  {
    ...siteRowKeys(),
    subject: text("subject").notNull().default(""),
    previewText: text("preview_text").notNull().default(""),
    fromName: text("from_name").notNull().default(""),
    replyTo: text("reply_to"),
    audience: jsonb("audience").$type<StoredAudience>().notNull(),
    blocks: jsonb("blocks").$type<StoredCampaignBlock[]>().notNull().default([]),
    /** Opens (an image) and clicks (signed redirects) are counted only when the owner turns this on. */
    tracking: boolean("tracking").notNull().default(false),
    /** draft, scheduled, sending, sent, cancelled */
    status: text("status").notNull().default("draft"),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** The audience's rows are copied into campaign_recipients page by page: the last source id copied. */
    materialisedAfter: text("materialised_after"),
    materialised: boolean("materialised").notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    index("campaigns_website_idx").on(t.websiteId, t.createdAt),
    index("campaigns_status_idx").on(t.status, t.scheduledAt),
  ],
);

/**
 * One recipient of a campaign: `pending`, claimed (`sending`, with the claim's time and worker),
 * then `sent`, `refused` (the server said 5xx), `failed` (gave up after temporary failures) or
 * `skipped` (unsubscribed or refused before their turn, or the campaign was cancelled).
 */
export const campaignRecipients = pgTable(
  "campaign_recipients",
  {
    id: serial("id").primaryKey(),
    websiteId: websiteId(),
    campaignId: belongsTo("campaign_id", () => campaigns.id),
    email: text("email").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lockedBy: text("locked_by"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    lastError: text("last_error"),
    openedAt: timestamp("opened_at", { withTimezone: true }),
    clickedAt: timestamp("clicked_at", { withTimezone: true }),
    unsubscribedAt: timestamp("unsubscribed_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("campaign_recipients_email_idx").on(t.campaignId, t.email),
    index("campaign_recipients_status_idx").on(t.campaignId, t.status, t.id),
  ],
);

/** The links of a tracked campaign and how often each was clicked. */
export const campaignLinks = pgTable(
  "campaign_links",
  {
    id: serial("id").primaryKey(),
    campaignId: belongsTo("campaign_id", () => campaigns.id),
    /** The link's place among the copy's links (the `n` of `/email/click/<token>/<n>`). */
    position: integer("position").notNull(),
    url: text("url").notNull(),
    clicks: integer("clicks").notNull().default(0),
  },
  (t) => [uniqueIndex("campaign_links_position_idx").on(t.campaignId, t.position)],
);

/**
 * Addresses campaigns skip: `refused` (their mail server answered 5xx, the mailbox does not
 * exist) or `unsubscribed` (they clicked the link; signing up again later clears it).
 */
export const emailSuppressions = pgTable(
  "email_suppressions",
  {
    websiteId: websiteId(),
    email: text("email").notNull(),
    reason: text("reason").notNull(),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.email] })],
);

/** What every campaign of a site says in its footer: the store's postal address (anti-spam laws ask for it). */
export const campaignSettings = pgTable("campaign_settings", {
  websiteId: siteKey(),
  postalAddress: text("postal_address").notNull().default(""),
  updatedAt: updatedAt(),
});
