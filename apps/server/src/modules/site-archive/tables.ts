/**
 * Which tables a site archive carries, read from the Drizzle schema rather than listed by hand:
 * every table with a `website_id` column (plus `websites` itself) is in the archive unless it is
 * excluded below with a reason. A new site-scoped table is therefore exported and imported
 * without touching this module; the coverage test fails if it is neither carried nor excluded.
 */
import { type Column, type Table, getTableColumns, is } from "drizzle-orm";
import { PgTable, getTableConfig } from "drizzle-orm/pg-core";
import * as schema from "../../db/schema.js";

/** Site-scoped tables left out of archives, and why. */
export const EXCLUDED_TABLES: Record<string, string> = {
  memberships: "who may edit the site belongs to the server; the importer becomes the copy's owner",
  invitations: "pending invitations name people of this server and carry live links; never copied",
  site_user_sessions: "sign-ins are tied to this server's cookies",
  form_submission_keys: "single-use keys of forms being filled in right now",
  password_reset_tokens: "short-lived reset links sent from this server",
  billing_subscriptions: "the site's Atelier plan belongs to the server; the copy starts its own",
  billing_payment_methods: "the card paying for the site's plan on this server",
  billing_card_setups: "a card being saved on this server",
  invoices: "this server's bills for the site's plan",
  outbound_emails: "this server's delivery log of emails already sent",
  template_drafts: "an owner's unsaved template edits, tied to an account on this server",
  site_imports:
    "the progress and reports of imports run on this server (their content is in the other tables)",
  activity_entries: "who changed what on this server, from where: the copy starts its own log",
  events: "this server's outbox of changes, delivered to its consumers (webhooks, activity) here",
  webhooks: "integrations of this server: a copy must not call the same endpoints; secrets are this server's",
  webhook_messages: "this server's webhook sends, tied to its events",
  webhook_deliveries: "this server's webhook delivery log",
  order_counters: "the last order number given, derived from the orders (an import counts on from them)",
};

/** Columns never written to an archive (secrets); the importer fills them afresh. */
export const SECRET_COLUMNS: Record<string, string[]> = {
  api_keys: ["key_hash"],
};

export interface ArchiveColumn {
  /** The database column name, as written in the archive. */
  name: string;
  /** The Drizzle property name, as used for inserts. */
  key: string;
  column: Column;
}

export interface ArchiveTable {
  name: string;
  table: PgTable;
  columns: ArchiveColumn[];
  /** The primary key's columns (one, or several for a composite key; none if the table has none). */
  primaryKey: ArchiveColumn[];
  /** The text `id` naming each row (the primary key, or unique beside a serial): given fresh values on import. */
  idColumn?: ArchiveColumn;
  /** The `website_id` column (absent only for `websites`). */
  websiteColumn?: ArchiveColumn;
  /** Primary keys the database assigns (serials): not carried over on import. */
  generatedKey: boolean;
  /** Declared foreign keys: column → referenced table (and its column). */
  references: { column: string; table: string; foreignColumn: string }[];
}

function allTables(): PgTable[] {
  return (Object.values(schema) as unknown[]).filter((v): v is PgTable => is(v, PgTable));
}

function describe(table: PgTable): ArchiveTable | undefined {
  const config = getTableConfig(table);
  const columns = Object.entries(getTableColumns(table as Table)).map(([key, column]) => ({
    name: column.name,
    key,
    column,
  }));
  const websiteColumn = columns.find((c) => c.name === "website_id");
  if (config.name !== "websites" && !websiteColumn) return undefined;
  const single = columns.find((c) => c.column.primary);
  const composite =
    config.primaryKeys[0]?.columns.map((pc) => columns.find((c) => c.name === pc.name)!) ?? [];
  const primaryKey = single ? [single] : composite;
  const references = config.foreignKeys.flatMap((fk) => {
    const ref = fk.reference();
    if (ref.columns.length !== 1) return [];
    return [
      {
        column: ref.columns[0]!.name,
        table: getTableConfig(ref.foreignTable).name,
        foreignColumn: ref.foreignColumns[0]!.name,
      },
    ];
  });
  return {
    name: config.name,
    table,
    columns,
    primaryKey,
    idColumn: idColumnOf(columns, single),
    websiteColumn,
    generatedKey: Boolean(single?.column.columnType.includes("Serial")),
    references,
  };
}

/**
 * The text `id` that names a row across the site: the primary key, or a unique `id` beside a
 * serial key (history versions are ordered by their serial and named by their id).
 */
function idColumnOf(columns: ArchiveColumn[], single: ArchiveColumn | undefined): ArchiveColumn | undefined {
  const id = columns.find((c) => c.name === "id" && c.column.dataType === "string");
  if (!id) return undefined;
  return id === single || (id.column.isUnique && single?.column.columnType.includes("Serial"))
    ? id
    : undefined;
}

/** Every site-scoped table of the schema (`websites` included), excluded or not. */
export function siteScopedTableNames(): string[] {
  return allTables()
    .map((t) => getTableConfig(t))
    .filter((c) => c.name === "websites" || c.columns.some((col) => col.name === "website_id"))
    .map((c) => c.name)
    .sort();
}

let cached: ArchiveTable[] | undefined;

/**
 * The archived tables, parents before children (by declared foreign keys), so rows can be
 * inserted in this order and every reference checked against rows already read.
 */
export function archiveTables(): ArchiveTable[] {
  if (cached) return cached;
  const described = allTables()
    .map(describe)
    .filter((t): t is ArchiveTable => Boolean(t) && !(t!.name in EXCLUDED_TABLES));
  const byName = new Map(described.map((t) => [t.name, t]));
  const ordered: ArchiveTable[] = [];
  const seen = new Set<string>();
  const visit = (t: ArchiveTable, path: Set<string>) => {
    if (seen.has(t.name) || path.has(t.name)) return;
    path.add(t.name);
    for (const ref of t.references) {
      const parent = byName.get(ref.table);
      if (parent && parent !== t) visit(parent, path);
    }
    seen.add(t.name);
    ordered.push(t);
  };
  for (const t of [...described].sort((a, b) => a.name.localeCompare(b.name))) visit(t, new Set());
  cached = ordered;
  return ordered;
}

/** A row's primary key as one string ("" when the table has none), by column name or Drizzle key. */
export function keyOf(t: ArchiveTable, row: Record<string, unknown>, by: "name" | "key"): string {
  return t.primaryKey.map((c) => String(row[c[by]] ?? "")).join("\u0000");
}

/** A column value as JSON: timestamps as ISO strings, the rest as they are. */
export function encodeValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  // Bytes (the compressed content of history versions and trash entries) travel as base64.
  if (Buffer.isBuffer(value)) return value.toString("base64");
  return value;
}

/** A JSON value back to what Drizzle inserts for the column. */
export function decodeValue(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (column.dataType === "date") return new Date(value as string);
  if (column.getSQLType() === "bytea" && typeof value === "string") return Buffer.from(value, "base64");
  return value;
}

/** The JSON type a column's archived value must have (null allowed when the column is nullable). */
export function valueMatchesColumn(column: Column, value: unknown): boolean {
  if (value === null) return !column.notNull;
  switch (column.dataType) {
    case "date":
      return typeof value === "string" && !Number.isNaN(Date.parse(value));
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "custom":
      return column.getSQLType() !== "bytea" || typeof value === "string";
    default:
      return true;
  }
}
