/**
 * The activity log of a site (dashboard → Settings → Activity): who changed what, when and from
 * where. Entries are written by recording.ts in the transaction of each change; this module lists
 * them (filters, a cursor), exports them as CSV and prunes those older than a year. Nothing here
 * changes or deletes an entry but the pruning.
 */
import { type SQL, and, desc, eq, gte, lt, lte } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { activityEntries } from "../../db/schema.js";
import { badRequest } from "../../http/errors.js";
import type { Deps } from "../../http/deps.js";
import { csvCell } from "../../lib/csv.js";
import { registerHousekeeping } from "../jobs/plugin.js";

/** How long entries are kept. */
export const ACTIVITY_KEPT_DAYS = 365;
export const ACTIVITY_PAGE = 50;
/** The most rows one CSV export carries (newest first). */
export const ACTIVITY_CSV_MAX = 10_000;
export const MSG_BAD_DATE = "Give dates as YYYY-MM-DD.";

export interface NewActivity {
  websiteId: string;
  at: Date;
  actor: { type: "account" | "api_key"; id: string; label: string };
  ip: string | null;
  userAgent: string | null;
  area: string | null;
  action: string;
  entityType: string;
  entityId: string | null;
  fields: string[];
}

export interface ActivityEntry {
  id: string;
  at: string;
  actor: { type: string; id: string | null; email: string | null; name: string };
  ip: string | null;
  userAgent: string | null;
  area: string | null;
  action: string;
  entity: { type: string; id: string | null };
  fields: string[];
}

export interface ActivityFilter {
  actor?: string;
  area?: string;
  /** YYYY-MM-DD, from the start of that day (UTC). */
  from?: string;
  /** YYYY-MM-DD, to the end of that day (UTC). */
  to?: string;
}

/** Writes one entry (in the caller's transaction) and answers its id. */
export async function insertActivity(db: Db | Tx, entry: NewActivity): Promise<number> {
  const [row] = await db
    .insert(activityEntries)
    .values({
      websiteId: entry.websiteId,
      at: entry.at,
      actorType: entry.actor.type,
      actorId: entry.actor.id,
      actorLabel: entry.actor.label,
      ip: entry.ip,
      userAgent: entry.userAgent,
      area: entry.area,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      fields: entry.fields,
    })
    .returning({ id: activityEntries.id });
  return row!.id;
}

/** Completes an entry of a creation with the new entity's id, read from the call's answer. */
export async function setActivityEntity(db: Db, entryId: number, entityId: string): Promise<void> {
  await db.update(activityEntries).set({ entityId }).where(eq(activityEntries.id, entryId));
}

function day(value: string, end: boolean): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const at = m ? new Date(`${value}T00:00:00.000Z`) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value)
    throw badRequest(MSG_BAD_DATE, { [end ? "to" : "from"]: "Invalid" });
  return end ? new Date(at.getTime() + 86_400_000 - 1) : at;
}

function whereOf(websiteId: string, filter: ActivityFilter, before?: number): SQL {
  const conditions: (SQL | undefined)[] = [eq(activityEntries.websiteId, websiteId)];
  if (filter.actor) conditions.push(eq(activityEntries.actorId, filter.actor));
  if (filter.area) conditions.push(eq(activityEntries.area, filter.area));
  if (filter.from) conditions.push(gte(activityEntries.at, day(filter.from, false)));
  if (filter.to) conditions.push(lte(activityEntries.at, day(filter.to, true)));
  if (before !== undefined) conditions.push(lt(activityEntries.id, before));
  return and(...conditions)!;
}

type Row = typeof activityEntries.$inferSelect;

function entryJson(r: Row): ActivityEntry {
  return {
    id: String(r.id),
    at: r.at.toISOString(),
    actor: {
      type: r.actorType,
      id: r.actorId,
      email: r.actorType === "account" ? r.actorLabel : null,
      name: r.actorLabel,
    },
    ip: r.ip,
    userAgent: r.userAgent,
    area: r.area,
    action: r.action,
    entity: { type: r.entityType, id: r.entityId },
    fields: r.fields,
  };
}

/** A page of the site's entries, newest first; `cursor` is the nextCursor of the page before. */
export async function listActivity(
  db: Db,
  websiteId: string,
  filter: ActivityFilter & { cursor?: string },
  limit = ACTIVITY_PAGE,
): Promise<{ entries: ActivityEntry[]; nextCursor: string | null }> {
  const before = filter.cursor ? Number(filter.cursor) : undefined;
  if (before !== undefined && !(Number.isSafeInteger(before) && before > 0))
    throw badRequest("Invalid cursor.", { cursor: "Invalid" });
  const rows = await db
    .select()
    .from(activityEntries)
    .where(whereOf(websiteId, filter, before))
    .orderBy(desc(activityEntries.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    entries: page.map(entryJson),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.id) : null,
  };
}

/** The people and keys that appear in the site's log, for the filter by person. */
export async function activityActors(db: Db, websiteId: string) {
  const rows = await db
    .selectDistinct({
      type: activityEntries.actorType,
      id: activityEntries.actorId,
      name: activityEntries.actorLabel,
    })
    .from(activityEntries)
    .where(eq(activityEntries.websiteId, websiteId))
    .limit(200);
  const seen = new Set<string>();
  return rows.filter((r) => r.id && !seen.has(r.id) && seen.add(r.id));
}

const CSV_COLUMNS = [
  "id",
  "at",
  "actor_type",
  "actor_id",
  "actor",
  "ip",
  "user_agent",
  "area",
  "action",
  "entity_type",
  "entity_id",
  "fields",
];

/** The entries matching the filter as CSV, newest first (at most ACTIVITY_CSV_MAX). */
export async function activityCsv(db: Db, websiteId: string, filter: ActivityFilter): Promise<string> {
  const rows = await db
    .select()
    .from(activityEntries)
    .where(whereOf(websiteId, filter))
    .orderBy(desc(activityEntries.id))
    .limit(ACTIVITY_CSV_MAX);
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    lines.push(
      [
        String(r.id),
        r.at.toISOString(),
        r.actorType,
        r.actorId ?? "",
        r.actorLabel,
        r.ip ?? "",
        r.userAgent ?? "",
        r.area ?? "",
        r.action,
        r.entityType,
        r.entityId ?? "",
        r.fields.join(" "),
      ]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** Deletes the entries older than ACTIVITY_KEPT_DAYS; answers how many went. */
export async function pruneActivity(deps: Pick<Deps, "db" | "clock">): Promise<number> {
  const cutoff = new Date(deps.clock.now().getTime() - ACTIVITY_KEPT_DAYS * 86_400_000);
  const gone = await deps.db
    .delete(activityEntries)
    .where(lt(activityEntries.at, cutoff))
    .returning({ id: activityEntries.id });
  return gone.length;
}

registerHousekeeping("activity-retention", (deps) => pruneActivity(deps).then(() => undefined));
