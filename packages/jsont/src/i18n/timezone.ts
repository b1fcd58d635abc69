/**
 * Time zones for the date formatters: the website's zone from the context, zone lookups in
 * the IANA data bundled by `@phensley/timezone`, and offsets.
 */
import { TZ, type ZoneInfo } from "@phensley/timezone";
import type { RenderContext } from "../types.js";

/** The zone used when the website names none. */
export const DEFAULT_TIME_ZONE = "America/New_York";
/** The zone used when a named zone has no data. */
const FALLBACK_TIME_ZONE = "UTC";

/** Zone ids that are not in the IANA data under these names. */
const ZONE_ALIASES: Record<string, string> = {
  "SystemV/AST4": "America/Puerto_Rico",
  "SystemV/AST4ADT": "America/Halifax",
  "SystemV/CST6": "America/Regina",
  "SystemV/CST6CDT": "America/Chicago",
  "SystemV/EST5": "America/Indianapolis",
  "SystemV/EST5EDT": "America/New_York",
  "SystemV/HST10": "Pacific/Honolulu",
  "SystemV/MST7": "America/Phoenix",
  "SystemV/MST7MDT": "America/Denver",
  "SystemV/PST8": "Pacific/Pitcairn",
  "SystemV/PST8PDT": "America/Los_Angeles",
  "SystemV/YST9": "Pacific/Gambier",
  "SystemV/YST9YDT": "America/Anchorage",
  "Canada/East-Saskatchewan": "America/Regina",
};

/** The website's time zone: `website.timeZone` of the context root, else America/New_York. */
export function websiteTimeZone(ctx: RenderContext): string {
  const root = ctx.root();
  if (typeof root === "object" && root !== null && !Array.isArray(root)) {
    const website = (root as Record<string, unknown>).website;
    if (typeof website === "object" && website !== null && !Array.isArray(website)) {
      const zone = (website as Record<string, unknown>).timeZone;
      if (typeof zone === "string" && zone.trim() !== "") return zone.trim();
    }
  }
  return DEFAULT_TIME_ZONE;
}

/** The canonical IANA id of a zone id or alias, or `undefined` when there is no data for it. */
export function resolveZoneId(zoneId: string): string | undefined {
  return zoneEntry(zoneId).id;
}

/** A zone as the website names it: its canonical id and its transitions. */
interface ZoneEntry {
  /** The canonical IANA id, `undefined` when there is no data for the zone. */
  readonly id: string | undefined;
  /** Null when there is no data, or lookups go through `TZ.fromUTC`. */
  readonly table: Transitions | null;
}

/** Zones by the id the website gave. */
const ZONES = new Map<string, ZoneEntry>();
const ZONES_LIMIT = 1000;
/** The zone asked for last (a render asks again and again for the website's zone). */
let lastZoneId: string | null = null;
let lastZone: ZoneEntry = { id: undefined, table: null };

function zoneEntry(zoneId: string): ZoneEntry {
  if (zoneId === lastZoneId) return lastZone;
  let zone = ZONES.get(zoneId);
  if (zone === undefined) {
    const id = TZ.resolveId(Object.hasOwn(ZONE_ALIASES, zoneId) ? ZONE_ALIASES[zoneId] : zoneId);
    zone = { id, table: id === undefined ? null : transitionsOf(id) };
    if (ZONES.size >= ZONES_LIMIT) ZONES.clear();
    ZONES.set(zoneId, zone);
  }
  lastZoneId = zoneId;
  lastZone = zone;
  return zone;
}

/**
 * A zone's transitions, read once so that a lookup is a binary search that allocates nothing
 * (`TZ.fromUTC` builds new objects on every call, and dates are formatted in bulk).
 */
interface Transitions {
  /** UTC instants (ms) from which `infos[i]` applies, ascending. */
  readonly untils: readonly number[];
  /** The zone info in effect from `untils[i]`; `initial` before the first one. */
  readonly infos: readonly ZoneInfo[];
  readonly initial: ZoneInfo;
  /** The interval found last (-1: before the first transition), tried first next time. */
  last: number;
}

/** The zone data `@phensley/timezone` decodes per zone (not part of its typed API). */
interface RawZoneRecord {
  untils: unknown;
  types: unknown;
  localtime: unknown;
}

const TRANSITIONS = new Map<string, Transitions | null>();

/**
 * The transitions of a canonical zone id, or null (the lookups then go through
 * `TZ.fromUTC`) when the library's decoded data does not have the expected shape or does not
 * give the same answers as `TZ.fromUTC` at every transition.
 */
function transitionsOf(id: string): Transitions | null {
  const cached = TRANSITIONS.get(id);
  if (cached !== undefined) return cached;
  let table: Transitions | null = null;
  try {
    table = readTransitions(id);
  } catch {
    table = null;
  }
  TRANSITIONS.set(id, table);
  return table;
}

function readTransitions(id: string): Transitions | null {
  const lookup = (TZ as unknown as { record?: (id: string) => [string, RawZoneRecord] | undefined }).record;
  if (typeof lookup !== "function") return null;
  const found = lookup.call(TZ, id);
  if (!Array.isArray(found) || found[0] !== id || typeof found[1] !== "object" || found[1] === null)
    return null;
  const { untils, types, localtime } = found[1];
  if (!Array.isArray(untils) || !Array.isArray(types) || !Array.isArray(localtime)) return null;
  if (types.length !== untils.length || localtime.length === 0) return null;
  const infoOf = (type: unknown): ZoneInfo | null => {
    const raw = typeof type === "number" ? (localtime[type] as Partial<ZoneInfo> | undefined) : undefined;
    if (raw === undefined || typeof raw.abbr !== "string" || typeof raw.offset !== "number") return null;
    return Object.freeze({ zoneid: id, abbr: raw.abbr, dst: Number(raw.dst), offset: raw.offset });
  };
  const byType = new Map<unknown, ZoneInfo | null>();
  const shared = (type: unknown): ZoneInfo | null => {
    if (!byType.has(type)) byType.set(type, infoOf(type));
    return byType.get(type) ?? null;
  };
  const initial = shared(0);
  if (initial === null) return null;
  const infos: ZoneInfo[] = [];
  for (let i = 0; i < untils.length; i++) {
    const info = shared(types[i]);
    if (info === null || typeof untils[i] !== "number" || (i > 0 && !(untils[i] > untils[i - 1])))
      return null;
    infos.push(info);
  }
  const table: Transitions = { untils: untils.slice() as number[], infos, initial, last: -1 };
  // Checked once against the library's own answer on both sides of every transition.
  const same = (ms: number): boolean => {
    const a = infoAt(table, ms);
    const b = TZ.fromUTC(id, ms);
    return b !== undefined && a.abbr === b.abbr && a.offset === b.offset && a.dst === b.dst;
  };
  if (!same(-8.64e15) || !same(8.64e15)) return null;
  for (const t of table.untils) if (!same(t) || !same(t - 1)) return null;
  return table;
}

/** The info in effect at a UTC instant: the last transition at or before it. */
function infoAt(table: Transitions, ms: number): ZoneInfo {
  const untils = table.untils;
  let hi = table.last;
  // Instants formatted one after the other mostly fall between the same two transitions.
  if (!((hi < 0 || untils[hi] <= ms) && (hi + 1 >= untils.length || ms < untils[hi + 1]))) {
    let lo = 0;
    hi = untils.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (untils[mid] <= ms) lo = mid + 1;
      else hi = mid - 1;
    }
    table.last = hi;
  }
  return hi < 0 ? table.initial : table.infos[hi];
}

/**
 * The zone in effect at an instant. When there is no data for the zone, `warn` receives
 * "No timezone data loaded …" and the fallback zone (UTC) is used.
 */
export function zoneAt(zoneId: string, epochMs: number, warn?: (message: string) => void): ZoneInfo {
  const zone = zoneEntry(zoneId);
  let info: ZoneInfo | undefined;
  if (zone.table !== null) info = infoAt(zone.table, epochMs);
  else if (zone.id !== undefined) info = TZ.fromUTC(zone.id, epochMs);
  if (info !== undefined) return info;
  warn?.(`No timezone data loaded for "${zoneId}"; using ${FALLBACK_TIME_ZONE}`);
  return TZ.utcZone();
}

/** The canonical zone id to format with: the zone itself, or the fallback zone when it has no data. */
export function usableZoneId(zoneId: string, warn?: (message: string) => void): string {
  const id = resolveZoneId(zoneId);
  if (id !== undefined) return id;
  warn?.(`No timezone data loaded for "${zoneId}"; using ${FALLBACK_TIME_ZONE}`);
  return FALLBACK_TIME_ZONE;
}

/**
 * Offset of a zone from UTC at a moment, in minutes east of UTC (New York in winter: -300).
 * Throws `Error("Invalid argument")` unless `date` is a Date or a number.
 */
export function timeZoneOffset(date: unknown, zoneId: string, warn?: (message: string) => void): number {
  let ms: number;
  if (date instanceof Date) ms = date.getTime();
  else if (typeof date === "number") ms = date;
  else throw new Error("Invalid argument");
  if (Number.isNaN(ms)) return Number.NaN;
  return zoneAt(zoneId, ms, warn).offset / 60_000;
}
