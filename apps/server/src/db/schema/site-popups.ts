/** The announcement bar and the newsletter pop-up of a site (issue 25): one row per site. */
import { jsonb, pgTable } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns.js";
import { siteKey } from "./site.js";

/** The announcement bar as stored (the API's shape). */
export interface StoredAnnouncementBar {
  enabled: boolean;
  text: string;
  linkUrl: string | null;
  linkText: string | null;
  /** YYYY-MM-DDTHH:mm in the site's time zone. */
  startsAt: string | null;
  endsAt: string | null;
  dismissible: boolean;
}

/** The newsletter pop-up as stored (the API's shape). */
export interface StoredNewsletterPopup {
  enabled: boolean;
  title: string;
  text: string;
  buttonText: string;
  trigger: { kind: "delay"; seconds: number } | { kind: "scroll" };
  frequencyDays: number;
  doubleOptIn: boolean;
}

export const sitePopups = pgTable("site_popups", {
  websiteId: siteKey(),
  announcementBar: jsonb("announcement_bar").$type<StoredAnnouncementBar>(),
  newsletterPopup: jsonb("newsletter_popup").$type<StoredNewsletterPopup>(),
  updatedAt: updatedAt(),
});
