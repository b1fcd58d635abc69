import { and, desc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { compiled } from "../../db/compiled.js";
import { analyticsEvents, analyticsHits } from "../../db/schema.js";
import { localDay } from "../../lib/local-day.js";
import { noteHit } from "./rollups.js";

/** SPEC §4: no census on the not-found, lock-screen and member-area-access-denied pages. */
export const UNTRACKED_PAGE_TYPES: ReadonlySet<number> = new Set([100, 103, 106]);

/** SPEC §5: the visitor-record cookie (`ss_cvr`) has five pipe-separated parts. */
export function validVisitorRecord(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const parts = value.split("|");
  return parts.length === 5 && parts.every((p) => p.length > 0 && p.length <= 64) ? value : undefined;
}

/** The fields of a hit (SPEC §3 "Analytics hit fields") that get columns of their own. */
interface Hit {
  event: string;
  visitorCookie?: string;
  url?: string;
  pagePath?: string;
  referrer?: string;
  userAgent?: string;
  itemId?: string;
  collectionId?: string;
  data: Record<string, unknown>;
}

const text = (v: unknown, max: number) =>
  typeof v === "string" && v.length > 0 ? v.slice(0, max) : undefined;

/** Turns the posted `data` object into a row: known fields into columns, the rest kept as sent. */
export function hitFromData(event: string, data: Record<string, unknown>, visitorCookie?: string): Hit {
  return {
    event,
    visitorCookie: visitorCookie ?? validVisitorRecord(text(data.visitorCookie, 400)),
    url: text(data.url, 2083),
    pagePath: text(data.pagePath, 2083),
    referrer: text(data.referrer, 2083),
    userAgent: text(data.userAgent, 500),
    itemId: text(data.itemId, 64),
    collectionId: text(data.collectionId, 64),
    data,
  };
}

const insertHit = compiled("analytics_hit_insert", (db) => {
  const p = sql.placeholder;
  return db
    .insert(analyticsHits)
    .values({
      websiteId: p("websiteId"),
      event: p("event"),
      visitorCookie: p("visitorCookie"),
      url: p("url"),
      pagePath: p("pagePath"),
      referrer: p("referrer"),
      userAgent: p("userAgent"),
      itemId: p("itemId"),
      collectionId: p("collectionId"),
      data: p("data"),
    })
    .returning({ createdAt: analyticsHits.createdAt });
});

/** Stores a hit and marks its local day (in `timeZone`) for the rollups to rebuild. */
export async function recordHit(db: Db, site: { id: string; timeZone: string }, hit: Hit): Promise<void> {
  const [row] = await insertHit(db, {
    websiteId: site.id,
    event: hit.event,
    visitorCookie: hit.visitorCookie ?? null,
    url: hit.url ?? null,
    pagePath: hit.pagePath ?? null,
    referrer: hit.referrer ?? null,
    userAgent: hit.userAgent ?? null,
    itemId: hit.itemId ?? null,
    collectionId: hit.collectionId ?? null,
    data: hit.data,
  });
  await noteHit(db, site.id, localDay(row!.createdAt, site.timeZone));
}

/** A script error a published page reported (SPEC §7 RecordJavascriptErrors). */
interface ScriptError {
  message: string;
  stack: string;
  url: string;
  line?: number;
  column?: number;
  timestamp: number;
}

const SCRIPT_ERROR = "javascript-error";

/** Reads a reported event's `data` string; undefined when it is not the JSON object the reporter sends. */
export function scriptErrorOf(data: string, timestamp: number): ScriptError | undefined {
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === "number" && Number.isInteger(x) && x >= 0 ? x : undefined);
  return {
    message: text(o.message, 1000) ?? "Script error",
    stack: text(o.stack, 5000) ?? "",
    url: text(o.url, 2083) ?? "",
    line: num(o.line),
    column: num(o.column),
    timestamp,
  };
}

const insertEvent = compiled("analytics_event_insert", (db) => {
  const p = sql.placeholder;
  return db.insert(analyticsEvents).values({
    websiteId: p("websiteId"),
    actor: p("actor"),
    action: p("action"),
    objectType: p("objectType"),
    pagePath: p("pagePath"),
    sessionId: p("sessionId"),
    data: p("data"),
  });
});

/**
 * Records an analytics event: commerce (order placed, payment authentication, checkout loaded,
 * subscription changes) or the owner's use of a panel (the inventory table).
 */
export async function recordEvent(
  db: Db | Tx,
  e: {
    websiteId: string;
    actor: "user" | "system";
    action: string;
    objectType: string;
    data: Record<string, unknown>;
    pagePath?: string;
    sessionId?: string;
  },
): Promise<void> {
  await insertEvent(db, {
    websiteId: e.websiteId,
    actor: e.actor,
    action: e.action,
    objectType: e.objectType,
    pagePath: e.pagePath ?? null,
    sessionId: e.sessionId ?? null,
    data: e.data,
  });
}

function pathOf(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

export async function recordScriptErrors(db: Db, websiteId: string, errors: ScriptError[]): Promise<void> {
  if (!errors.length) return;
  await db.insert(analyticsEvents).values(
    errors.map((e) => ({
      websiteId,
      actor: "system",
      action: SCRIPT_ERROR,
      objectType: "page",
      pagePath: pathOf(e.url),
      data: { ...e },
    })),
  );
}

/** The newest script errors of a site. */
export async function latestScriptErrors(db: Db, websiteId: string, limit: number) {
  const rows = await db
    .select()
    .from(analyticsEvents)
    .where(and(eq(analyticsEvents.websiteId, websiteId), eq(analyticsEvents.action, SCRIPT_ERROR)))
    .orderBy(desc(analyticsEvents.createdAt), desc(analyticsEvents.id))
    .limit(limit);
  return rows.map((r) => ({
    ...(r.data as unknown as ScriptError),
    pagePath: r.pagePath ?? "",
    receivedOn: r.createdAt.getTime(),
  }));
}
