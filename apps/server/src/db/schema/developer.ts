/** Developer mode (template overrides and drafts) and the site's design. */
import { integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { updatedAt } from "./columns.js";
import { media } from "./content.js";
import { accounts } from "./owners.js";
import { websiteId, websites } from "./sites.js";

/**
 * A site's own version of one of its theme's JSON-T templates (Design → Templates, `jsont push`).
 * It replaces the theme's file of the same name on the published site and survives theme updates.
 */
export const templateOverrides = pgTable(
  "template_overrides",
  {
    websiteId: websiteId(),
    name: text("name").notNull(),
    source: text("source").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.name] })],
);

/**
 * An owner's unsaved edit of a template: shown only to that owner, in the editing frame (the
 * preview cookie), never on the published site.
 */
export const templateDrafts = pgTable(
  "template_drafts",
  {
    websiteId: websiteId(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    source: text("source").notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.websiteId, t.accountId, t.name] })],
);

/**
 * A site's design (dashboard → Design): its style choices that differ from the theme's defaults
 * (`styles`, the style model of modules/design), custom CSS and identity images. The theme itself
 * stays on `websites.theme`. No row means the theme's defaults, no custom CSS and no images.
 */
export const siteDesigns = pgTable("site_designs", {
  websiteId: text("website_id")
    .primaryKey()
    .references(() => websites.id, { onDelete: "cascade" }),
  styles: jsonb("styles").$type<Record<string, unknown>>().notNull().default({}),
  customCss: text("custom_css").notNull().default(""),
  logoMediaId: text("logo_media_id").references(() => media.id, { onDelete: "set null" }),
  logoAlt: text("logo_alt").notNull().default(""),
  logoMaxHeight: integer("logo_max_height").notNull().default(48),
  siteIconMediaId: text("site_icon_media_id").references(() => media.id, { onDelete: "set null" }),
  socialImageMediaId: text("social_image_media_id").references(() => media.id, { onDelete: "set null" }),
  updatedAt: updatedAt(),
});
