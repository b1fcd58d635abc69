/** Column builders shared by the tables of the data model. */
import { type AnyPgColumn, text, timestamp } from "drizzle-orm/pg-core";

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

/** The `created_at` and `updated_at` columns of a row that is edited after it is made. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });

/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = (name: string, parent: () => AnyPgColumn) =>
  text(name).notNull().references(parent, { onDelete: "cascade" });
