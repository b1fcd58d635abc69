/** Content: media, collections, items, comments and product variants. */
import { sql } from "drizzle-orm";
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";
import { websiteId } from "./sites.js";

export const media = pgTable(
  "media",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    width: integer("width").notNull(),
    height: integer("height").notNull(),
    byteSize: integer("byte_size").notNull(),
    title: text("title").notNull().default(""),
    focalX: real("focal_x").notNull().default(0.5),
    focalY: real("focal_y").notNull().default(0.5),
    colorData: jsonb("color_data").$type<Record<string, string>>(),
    /** Path of the original under DATA_DIR/media. */
    storagePath: text("storage_path").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("media_website_idx").on(t.websiteId)],
);

export const collections = pgTable(
  "collections",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    urlSlug: text("url_slug").notNull(),
    description: text("description").notNull().default(""),
    /** Position in the navigation (and inside a folder). */
    ordering: integer("ordering").notNull().default(0),
    folderId: text("folder_id"),
    folderBehavior: text("folder_behavior"),
    hiddenFromNav: boolean("hidden_from_nav").notNull().default(false),
    isHome: boolean("is_home").notNull().default(false),
    passwordHash: text("password_hash"),
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    /** "Hide from search engines": noindex, and left out of the sitemap. */
    seoHidden: boolean("seo_hidden").notNull().default(false),
    /** Block layout of a page (kind "page"): rows of blocks, at most 60 blocks. */
    layout: jsonb("layout").$type<unknown>(),
    draftLayout: jsonb("draft_layout").$type<unknown>(),
    /** Kind-specific options: gallery option set, showPastOrUpcomingEvents, page size… */
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("collections_slug_idx").on(t.websiteId, t.urlSlug)],
);

export const contentItems = pgTable(
  "content_items",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    collectionId: text("collection_id")
      .notNull()
      .references(() => collections.id, { onDelete: "cascade" }),
    recordType: integer("record_type").notNull(),
    urlId: text("url_id").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    excerpt: text("excerpt").notNull().default(""),
    authorName: text("author_name"),
    categories: text("categories").array().notNull().default(sql`'{}'::text[]`),
    tags: text("tags").array().notNull().default(sql`'{}'::text[]`),
    mainImageId: text("main_image_id").references(() => media.id, { onDelete: "set null" }),
    /** Extra images (galleries, product images) in order. */
    imageIds: text("image_ids").array().notNull().default(sql`'{}'::text[]`),
    location: jsonb("location").$type<{
      addressTitle?: string;
      addressLine1?: string;
      addressLine2?: string;
      addressCountry?: string;
      mapLat?: number;
      mapLng?: number;
    }>(),
    startDate: timestamp("start_date", { withTimezone: true }),
    endDate: timestamp("end_date", { withTimezone: true }),
    publishOn: timestamp("publish_on", { withTimezone: true }),
    /** Products: productType, isSubscribable, subscriptionPlan, additional fields form… */
    structuredContent: jsonb("structured_content").$type<Record<string, unknown>>(),
    /** What search engines and shares show instead of the title and excerpt (optional). */
    seoTitle: text("seo_title"),
    seoDescription: text("seo_description"),
    /** "Hide from search engines": noindex, and left out of the sitemap. */
    seoHidden: boolean("seo_hidden").notNull().default(false),
    commentState: integer("comment_state").notNull().default(1),
    likeCount: integer("like_count").notNull().default(0),
    ordering: integer("ordering").notNull().default(0),
    status: text("status").notNull().default("published"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("content_items_url_idx").on(t.websiteId, t.collectionId, t.urlId),
    index("content_items_collection_idx").on(t.collectionId, t.ordering),
  ],
);

export const comments = pgTable(
  "comments",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
    authorName: text("author_name").notNull(),
    body: text("body").notNull(),
    approved: boolean("approved").notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index("comments_item_idx").on(t.itemId)],
);

export const productVariants = pgTable(
  "product_variants",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    itemId: text("item_id")
      .notNull()
      .references(() => contentItems.id, { onDelete: "cascade" }),
    sku: text("sku").notNull(),
    /** Option name to value, e.g. {"Size": "M", "Color": "Indigo"}. */
    attributes: jsonb("attributes").$type<Record<string, string>>().notNull().default({}),
    priceCents: integer("price_cents").notNull(),
    salePriceCents: integer("sale_price_cents").notNull().default(0),
    onSale: boolean("on_sale").notNull().default(false),
    qtyInStock: integer("qty_in_stock").notNull().default(0),
    unlimited: boolean("unlimited").notNull().default(false),
    weightGrams: integer("weight_grams").notNull().default(0),
    mainImageId: text("main_image_id").references(() => media.id, { onDelete: "set null" }),
    ordering: integer("ordering").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("product_variants_sku_idx").on(t.websiteId, t.sku),
    index("product_variants_item_idx").on(t.itemId),
  ],
);
