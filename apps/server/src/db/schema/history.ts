/** Version history and the trash (modules/history): what the owner built, as it was, and what was deleted. */
import { bigserial, customType, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { websiteId } from "./site.js";

/** Compressed bytes (brotli of the JSON of a snapshot). */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/**
 * One version of an entity (page, item, product, design, template, navigation, settings): the full
 * content of that moment, written in the same transaction as the save it records.
 */
export const entityVersions = pgTable(
  "entity_versions",
  {
    /** Order of writing: newest first in the history, and the list's cursor. */
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: text("id").notNull().unique(),
    websiteId: websiteId(),
    /** page, item, product, design, template, navigation, settings */
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    /** create, save, draft, publish, restore, delete */
    kind: text("kind").notNull(),
    /** account or api_key (system for changes made by the server itself) */
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    summary: text("summary").notNull(),
    /** Brotli-compressed JSON of the entity's content. */
    content: bytea("content").notNull(),
    /** The content's size before compression. */
    rawBytes: integer("raw_bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** Later than createdAt when draft saves folded into this version. */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("entity_versions_entity_idx").on(t.websiteId, t.entityType, t.entityId, t.seq)],
);

/**
 * Something the owner deleted (page, collection, item, product, form, media file) with every row it
 * took along, kept for 30 days: restoring writes the rows back; after that the job queue purges it.
 */
export const trashEntries = pgTable(
  "trash_entries",
  {
    id: text("id").primaryKey(),
    websiteId: websiteId(),
    /** page, collection, item, product, form, media */
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    title: text("title").notNull(),
    /** Where it was, e.g. /shop/linen-shirt (empty when it had no address). */
    url: text("url").notNull().default(""),
    actorType: text("actor_type").notNull(),
    actorId: text("actor_id"),
    /** Brotli-compressed JSON: the rows of each table, by table name. */
    content: bytea("content").notNull(),
    /** Media files to delete from the store on purge. */
    mediaKeys: text("media_keys").array().notNull(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }).notNull(),
    purgeAfter: timestamp("purge_after", { withTimezone: true }).notNull(),
  },
  (t) => [
    index("trash_entries_site_idx").on(t.websiteId, t.deletedAt),
    index("trash_entries_purge_idx").on(t.purgeAfter),
  ],
);
