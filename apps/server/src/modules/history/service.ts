/**
 * Version history (DESIGN.md: "snapshots written beside the change, in the same transaction"). A
 * service that saves a page, item, product, design, template, the navigation or the settings calls
 * `recordVersion` in its transaction; the version holds the full content of that moment, compressed.
 * Consecutive draft saves by the same person within 2 minutes fold into one version; every publish,
 * restore and delete is a version of its own. Restoring writes a version back and records a new one:
 * history is never rewritten. Retention (`pruneHistory`) runs in the job queue.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { rowsOf } from "../../db/rows.js";
import { accounts, apiKeys, entityVersions } from "../../db/schema.js";
import { badRequest, notFound } from "../../http/errors.js";
import { DAY_MS } from "../../lib/clock.js";
import { newId } from "../../lib/ids.js";
import type { Actor } from "../events/service.js";
import { changeClock, currentActor } from "./context.js";
import { compareContents, summarize } from "./diff.js";
import { type Content, ENTITY_TYPES, type EntityType, SITE_WIDE, snapshot, writeBack } from "./entities.js";

export type VersionKind = "create" | "save" | "draft" | "publish" | "restore" | "delete";

/** Draft saves by the same person closer than this fold into one version. */
export const FOLD_MS = 2 * 60_000;

export function pack(content: unknown): { bytes: Buffer; raw: number } {
  const json = Buffer.from(JSON.stringify(content), "utf8");
  const bytes = brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  return { bytes, raw: json.length };
}

export function unpack<T = Content>(bytes: Buffer | Uint8Array): T {
  return JSON.parse(brotliDecompressSync(bytes).toString("utf8")) as T;
}

export interface EntityRef {
  type: EntityType;
  id: string;
}

/** Parses `<type>:<id>` of the history API. */
export function parseEntity(raw: string, siteId: string): EntityRef {
  const at = raw.indexOf(":");
  const type = (at < 0 ? raw : raw.slice(0, at)) as EntityType;
  const id = at < 0 ? "" : raw.slice(at + 1);
  if (!(ENTITY_TYPES as readonly string[]).includes(type))
    throw badRequest(`entity must be <type>:<id>, the type one of ${ENTITY_TYPES.join(", ")}.`, {
      entity: "Unknown type",
    });
  if (SITE_WIDE.includes(type)) {
    if (id !== "" && id !== siteId) throw notFound("No such version history.");
    return { type, id: siteId };
  }
  if (!id || id.length > 200) throw badRequest("entity must name an id after the type.", { entity: "No id" });
  return { type, id };
}

type VersionRow = typeof entityVersions.$inferSelect;

async function latestOf(
  tx: Tx,
  websiteId: string,
  e: EntityRef,
  before?: number,
): Promise<VersionRow | undefined> {
  const [row] = await tx
    .select()
    .from(entityVersions)
    .where(
      and(
        eq(entityVersions.websiteId, websiteId),
        eq(entityVersions.entityType, e.type),
        eq(entityVersions.entityId, e.id),
        before === undefined ? undefined : lt(entityVersions.seq, before),
      ),
    )
    .orderBy(desc(entityVersions.seq))
    .limit(1);
  return row;
}

const sameActor = (row: VersionRow, actor: Actor) => row.actorType === actor.type && row.actorId === actor.id;

const KIND_SUMMARY: Partial<Record<VersionKind, string>> = {
  create: "Created",
  publish: "Published",
  delete: "Deleted",
};

/**
 * Records the entity's state as it is now in `tx` (call it after the save, or before a delete) as
 * a version. A save that changed nothing the history keeps makes no version.
 */
export async function recordVersion(
  tx: Tx,
  websiteId: string,
  e: EntityRef,
  kind: VersionKind,
  opts: { summary?: string; content?: Content } = {},
): Promise<void> {
  const content = opts.content ?? (await snapshot(tx, websiteId, e.type, e.id));
  if (!content) return;
  // One writer per entity at a time: versions of concurrent saves are written one after another.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`history:${websiteId}:${e.type}:${e.id}`}))`);
  const now = changeClock().now();
  const actor = currentActor();
  const prev = await latestOf(tx, websiteId, e);
  const prevContent = prev ? unpack(prev.content) : null;
  const changes = compareContents(prevContent, content);
  if (prev && !changes.length && (kind === "save" || kind === "draft")) return;
  const { bytes, raw } = pack(content);
  if (
    kind === "draft" &&
    prev?.kind === "draft" &&
    sameActor(prev, actor) &&
    now.getTime() - prev.updatedAt.getTime() <= FOLD_MS
  ) {
    const before = await latestOf(tx, websiteId, e, prev.seq);
    const summary = summarize(compareContents(before ? unpack(before.content) : null, content));
    await tx
      .update(entityVersions)
      .set({ content: bytes, rawBytes: raw, summary, updatedAt: now })
      .where(eq(entityVersions.seq, prev.seq));
    return;
  }
  const base = opts.summary ?? KIND_SUMMARY[kind];
  const detail = prev && kind !== "delete" && kind !== "restore" ? summarize(changes) : "";
  const withDetail =
    detail && kind === "publish" ? `${base}: ${detail.charAt(0).toLowerCase()}${detail.slice(1)}` : base;
  // The first version kept of something made before history began says only that it was saved.
  const summary = withDetail ?? (prev ? summarize(changes) : "Saved");
  await tx.insert(entityVersions).values({
    id: newId(),
    websiteId,
    entityType: e.type,
    entityId: e.id,
    kind,
    actorType: actor.type,
    actorId: actor.id,
    summary: summary.slice(0, 300),
    content: bytes,
    rawBytes: raw,
    createdAt: now,
    updatedAt: now,
  });
}

export interface VersionJson {
  id: string;
  at: string;
  kind: string;
  actor: { type: string; id: string | null; name: string };
  summary: string;
}

/** The names of the people and API keys who made the rows' changes, by `type:id`. */
export async function actorNames(
  db: Db | Tx,
  rows: { actorType: string; actorId: string | null }[],
): Promise<Map<string, string>> {
  const ids = (type: string) => [
    ...new Set(rows.filter((r) => r.actorType === type && r.actorId).map((r) => r.actorId!)),
  ];
  const names = new Map<string, string>();
  const people = ids("account");
  if (people.length)
    for (const a of await db
      .select({ id: accounts.id, name: accounts.displayName, email: accounts.email })
      .from(accounts)
      .where(inArray(accounts.id, people)))
      names.set(`account:${a.id}`, a.name || a.email);
  const keys = ids("api_key");
  if (keys.length)
    for (const k of await db
      .select({ id: apiKeys.id, name: apiKeys.name })
      .from(apiKeys)
      .where(inArray(apiKeys.id, keys)))
      names.set(`api_key:${k.id}`, `API key “${k.name}”`);
  return names;
}

/** Who made a change, by name (a member since removed, a key since revoked: said so). */
export function actorName(r: { actorType: string; actorId: string | null }, names: Map<string, string>) {
  const fallback =
    r.actorType === "system" ? "Atelier" : r.actorType === "api_key" ? "An API key" : "A former member";
  return names.get(`${r.actorType}:${r.actorId}`) ?? fallback;
}

function versionJson(r: VersionRow, names: Map<string, string>): VersionJson {
  return {
    id: r.id,
    at: r.updatedAt.toISOString(),
    kind: r.kind,
    actor: { type: r.actorType, id: r.actorId, name: actorName(r, names) },
    summary: r.summary,
  };
}

export const PAGE_SIZE = 50;

/** The entity's versions, newest first, 50 at a time (`cursor` is the last one's id). */
export async function listVersions(db: Db, websiteId: string, e: EntityRef, cursor?: string) {
  let before: number | undefined;
  if (cursor) {
    const [c] = await db
      .select({ seq: entityVersions.seq })
      .from(entityVersions)
      .where(and(eq(entityVersions.websiteId, websiteId), eq(entityVersions.id, cursor)));
    if (!c) throw badRequest("That cursor is not one of this history's.", { cursor: "Unknown" });
    before = c.seq;
  }
  const rows = await db
    .select()
    .from(entityVersions)
    .where(
      and(
        eq(entityVersions.websiteId, websiteId),
        eq(entityVersions.entityType, e.type),
        eq(entityVersions.entityId, e.id),
        before === undefined ? undefined : lt(entityVersions.seq, before),
      ),
    )
    .orderBy(desc(entityVersions.seq))
    .limit(PAGE_SIZE + 1);
  const page = rows.slice(0, PAGE_SIZE);
  const names = await actorNames(db, page);
  return {
    versions: page.map((r) => versionJson(r, names)),
    nextCursor: rows.length > PAGE_SIZE ? page[page.length - 1]!.id : null,
  };
}

const NO_VERSION = "No such version.";

async function versionRow(db: Db | Tx, websiteId: string, versionId: string): Promise<VersionRow> {
  const [row] = await db
    .select()
    .from(entityVersions)
    .where(and(eq(entityVersions.websiteId, websiteId), eq(entityVersions.id, versionId)));
  if (!row) throw notFound(NO_VERSION);
  return row;
}

/** The entity a version belongs to (for the permission of its area). */
export async function entityOfVersion(db: Db, websiteId: string, versionId: string): Promise<EntityRef> {
  const row = await versionRow(db, websiteId, versionId);
  return { type: row.entityType as EntityType, id: row.entityId };
}

export async function getVersion(db: Db, websiteId: string, versionId: string) {
  const row = await versionRow(db, websiteId, versionId);
  const names = await actorNames(db, [row]);
  return {
    version: versionJson(row, names),
    entity: `${row.entityType}:${row.entityId}`,
    content: unpack(row.content),
  };
}

/** What changed from one version to another (`to` omitted: to the entity as it is now). */
export async function compareVersions(db: Db, websiteId: string, fromId: string, toId?: string) {
  const from = await versionRow(db, websiteId, fromId);
  const to = toId ? await versionRow(db, websiteId, toId) : undefined;
  if (to && (to.entityType !== from.entityType || to.entityId !== from.entityId))
    throw badRequest("Both versions must be of the same thing.", { to: "Another entity's version" });
  const current = to
    ? unpack(to.content)
    : await db.transaction((tx) => snapshot(tx, websiteId, from.entityType as EntityType, from.entityId));
  return { from: from.id, to: to?.id ?? "current", changes: compareContents(unpack(from.content), current) };
}

/**
 * Makes a version the entity's current state again and records that as a new version. A page goes
 * back to its draft, or with `publish` live at once.
 */
export async function restoreVersion(db: Db, websiteId: string, versionId: string, publish: boolean) {
  return db.transaction(async (tx) => {
    const row = await versionRow(tx, websiteId, versionId);
    const e = { type: row.entityType as EntityType, id: row.entityId };
    await writeBack(tx, websiteId, e.type, e.id, unpack(row.content), publish);
    const when = row.updatedAt.toISOString().slice(0, 16).replace("T", " ");
    const to = e.type === "page" ? (publish ? " and published it" : " to the draft") : "";
    await recordVersion(tx, websiteId, e, "restore", { summary: `Restored the version of ${when} UTC${to}` });
    const [latest] = await tx
      .select()
      .from(entityVersions)
      .where(
        and(
          eq(entityVersions.websiteId, websiteId),
          eq(entityVersions.entityType, e.type),
          eq(entityVersions.entityId, e.id),
        ),
      )
      .orderBy(desc(entityVersions.seq))
      .limit(1);
    return versionJson(latest!, await actorNames(tx, [latest!]));
  });
}

export interface Retention {
  /** Every version is kept this many days… */
  keepAllDays: number;
  /** …then the last of each day (in the site's time zone) until this many days; then none. */
  keepDailyDays: number;
}

/**
 * Retention: every version younger than `keepAllDays`; then the last version of each calendar day
 * in the site's time zone (a day of 23 or 25 hours across a DST change is one day) until
 * `keepDailyDays`; then none — but an entity's newest version, its current state, always stays.
 * Answers how many versions were deleted.
 */
export async function pruneHistory(db: Db, now: Date, r: Retention, websiteId?: string): Promise<number> {
  const allFrom = new Date(now.getTime() - r.keepAllDays * DAY_MS);
  const dailyFrom = new Date(now.getTime() - r.keepDailyDays * DAY_MS);
  const site = websiteId ? sql`where v.website_id = ${websiteId}` : sql``;
  const res = await db.execute(sql`
    with ranked as (
      select v.seq, v.updated_at,
        row_number() over (partition by v.website_id, v.entity_type, v.entity_id order by v.seq desc) as newest,
        row_number() over (
          partition by v.website_id, v.entity_type, v.entity_id,
            date_trunc('day', v.updated_at at time zone w.time_zone)
          order by v.seq desc) as in_day
      from entity_versions v join websites w on w.id = v.website_id ${site}
    )
    delete from entity_versions d using ranked
    where d.seq = ranked.seq
      and ranked.newest > 1
      and ranked.updated_at < ${allFrom.toISOString()}::timestamptz
      and (ranked.updated_at < ${dailyFrom.toISOString()}::timestamptz or ranked.in_day > 1)
    returning d.seq`);
  return rowsOf(res).length;
}
