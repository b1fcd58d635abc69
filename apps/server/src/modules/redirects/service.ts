/**
 * URL mappings of a site (Settings → URL mappings): owner rules, the 301s added when a page
 * or product changes address, and the old addresses of an import (a group named after it). A
 * rule's `from` is an exact path, an exact path with a query (`/?p=123`: the request must carry
 * those parameters), a path with a `*` segment standing for any one segment (imports use it for
 * Shopify's `/collections/<any>/products/<handle>`), or a prefix ending in "/*"; its `to` is a path, a path ending in "/*" (the rest
 * of a prefix is carried over), or an absolute URL. Rules are checked before a page answers 404
 * (rules with a query before the page answers at all). A rule that would send visitors round in
 * a loop is refused.
 */
import type { UrlMapping } from "@atelier/owner-api";
import { and, asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { urlRedirects } from "../../db/schema.js";
import { ApiError, badRequest, notFound, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { deleteSiteRow } from "../../lib/site-rows.js";

export type Redirect = typeof urlRedirects.$inferSelect;

export const REDIRECT_MSG = {
  FROM: "Enter the old address as a path starting with /, such as /old-page or /old-shop/*.",
  TO: "Enter where it goes: a path starting with / or a full https:// address.",
  SAME: "An address cannot redirect to itself.",
  STATUS: "Choose 301 (moved for good) or 302 (for now).",
  TAKEN: "There is already a redirect from this address.",
  NONE: "No such redirect.",
  MAX: "A site can have up to 1,000 URL mappings.",
} as const;

const MAX_REDIRECTS = 1000;
const MAX_HOPS = 20;

export function redirectJson(r: Redirect): UrlMapping {
  return {
    id: r.id,
    from: r.fromPath,
    to: r.toPath,
    status: r.status,
    automatic: r.automatic,
    group: r.groupName ?? null,
    createdOn: r.createdAt.getTime(),
  };
}

const isAbsolute = (to: string) => /^https?:\/\/[^\s/]+/i.test(to);

/** Where a rule sends `path`, or undefined when it does not apply. */
function applyRule(rule: Pick<Redirect, "fromPath" | "toPath">, path: string): string | undefined {
  if (rule.fromPath.endsWith("/*")) {
    const prefix = rule.fromPath.slice(0, -1);
    if (!path.startsWith(prefix) && path !== prefix.slice(0, -1)) return undefined;
    const rest = path.startsWith(prefix) ? path.slice(prefix.length) : "";
    return rule.toPath.endsWith("/*") ? rule.toPath.slice(0, -1) + rest : rule.toPath;
  }
  return rule.fromPath === path ? rule.toPath : undefined;
}

const isPrefix = (from: string) => from.endsWith("/*");
const hasQuery = (from: string) => from.includes("?");
/** A rule with `*` standing for one segment inside the path (not a trailing prefix). */
const isSegmentPattern = (from: string) => !hasQuery(from) && from.slice(0, -2).includes("*");

/** Whether a pattern with `*` segments matches `path`, each `*` standing for exactly one segment. */
function segmentsMatch(pattern: string, path: string): boolean {
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((w, i) => w === "*" || w === got[i]);
}

/** Whether a `/path?a=1` rule matches: the same path, and each of its parameters in the request's query. */
function queryMatches(from: string, path: string, search: string): boolean {
  const at = from.indexOf("?");
  if (from.slice(0, at) !== path) return false;
  const have = new URLSearchParams(search);
  for (const [k, v] of new URLSearchParams(from.slice(at + 1))) if (have.get(k) !== v) return false;
  return true;
}

/**
 * The first rule for a path (and the request's query, without its "?"): rules with a query
 * first, then exact rules, then one-segment patterns, then the longest prefix.
 */
export function matchRedirect<R extends Pick<Redirect, "fromPath" | "toPath">>(
  rules: R[],
  path: string,
  search = "",
): { rule: R; to: string } | undefined {
  if (search) {
    const withQuery = rules.find((r) => hasQuery(r.fromPath) && queryMatches(r.fromPath, path, search));
    if (withQuery) return { rule: withQuery, to: withQuery.toPath };
  }
  const exact = rules.find((r) => !isPrefix(r.fromPath) && r.fromPath === path);
  if (exact) return { rule: exact, to: exact.toPath };
  const pattern = rules.find((r) => isSegmentPattern(r.fromPath) && segmentsMatch(r.fromPath, path));
  if (pattern) return { rule: pattern, to: pattern.toPath };
  const prefixes = rules
    .filter((r) => isPrefix(r.fromPath))
    .sort((a, b) => b.fromPath.length - a.fromPath.length);
  for (const rule of prefixes) {
    const to = applyRule(rule, path);
    if (to !== undefined) return { rule, to };
  }
  return undefined;
}

/** Whether any rule needs the request's query (so a page that exists may still be redirected). */
export const hasQueryRules = (rules: Pick<Redirect, "fromPath">[]) => rules.some((r) => hasQuery(r.fromPath));

/** The chain of addresses a visitor would be sent through from `start`, stopping at a loop. */
export function followRedirects(
  rules: Pick<Redirect, "fromPath" | "toPath">[],
  start: string,
): { path: string[]; loops: boolean } {
  const seen = [start];
  let at = start;
  for (let i = 0; i < MAX_HOPS; i++) {
    const next = matchRedirect(rules, at);
    if (!next || isAbsolute(next.to)) return { path: seen, loops: false };
    if (seen.includes(next.to)) return { path: [...seen, next.to], loops: true };
    seen.push(next.to);
    at = next.to;
  }
  return { path: seen, loops: true };
}

function normalizePath(raw: string): string {
  const v = raw.trim();
  return v.length > 1 && v.endsWith("/") && !v.endsWith("*/") ? v.replace(/\/+$/, "") : v;
}

export interface RedirectInput {
  from: string;
  to: string;
  status?: number;
}

function validate(input: RedirectInput): { from: string; to: string; status: number } {
  const from = normalizePath(input.from ?? "");
  const to = normalizePath(input.to ?? "");
  const status = input.status ?? 301;
  const fields: Record<string, string> = {};
  if (!/^\/[^\s?#*]*(\/\*|\?[^\s#*]+)?$/.test(from) || from.length > 2000 || from.startsWith("//"))
    fields.from = REDIRECT_MSG.FROM;
  if (!(isAbsolute(to) || (/^\/[^\s*]*(\/\*)?$/.test(to) && !to.startsWith("//"))) || to.length > 2000)
    fields.to = REDIRECT_MSG.TO;
  if (status !== 301 && status !== 302) fields.status = REDIRECT_MSG.STATUS;
  if (!fields.from && !fields.to && from === to) fields.to = REDIRECT_MSG.SAME;
  throwFieldErrors(fields);
  return { from, to, status };
}

export async function listRedirects(db: Db | Tx, websiteId: string): Promise<Redirect[]> {
  return db
    .select()
    .from(urlRedirects)
    .where(eq(urlRedirects.websiteId, websiteId))
    .orderBy(asc(urlRedirects.fromPath));
}

function refuseLoop(rules: Pick<Redirect, "fromPath" | "toPath">[], from: string) {
  const probe = from.endsWith("/*") ? `${from.slice(0, -2)}/loop-check` : from;
  const chain = followRedirects(rules, probe);
  if (chain.loops) {
    const message = `This redirect would send visitors round in a loop: ${chain.path.join(" → ")}.`;
    throw badRequest(message, { to: message });
  }
}

export async function addRedirect(db: Db, websiteId: string, input: RedirectInput): Promise<Redirect> {
  const v = validate(input);
  return db.transaction(async (tx) => {
    const rules = await listRedirects(tx, websiteId);
    if (rules.length >= MAX_REDIRECTS) throw badRequest(REDIRECT_MSG.MAX);
    if (rules.some((r) => r.fromPath === v.from))
      throw new ApiError(409, "conflict", REDIRECT_MSG.TAKEN, { from: REDIRECT_MSG.TAKEN });
    refuseLoop([...rules, { fromPath: v.from, toPath: v.to }], v.from);
    const [row] = await tx
      .insert(urlRedirects)
      .values({ id: newId(), websiteId, fromPath: v.from, toPath: v.to, status: v.status })
      .returning();
    return row!;
  });
}

export async function deleteRedirect(db: Db, websiteId: string, id: string): Promise<void> {
  await deleteSiteRow(db, urlRedirects, websiteId, id, REDIRECT_MSG.NONE);
}

/**
 * A page or product moved from `from` to `to` (in the transaction that moved it): the old
 * address answers 301 to the new one, earlier rules that led to the old address lead to the new
 * one, and a rule away from the new address (an earlier move back) goes, so nothing loops.
 * With `prefix`, the addresses below the old one follow too (a page's items).
 */
export async function recordMove(tx: Tx, websiteId: string, from: string, to: string, prefix = false) {
  if (from === to) return;
  const rules = await listRedirects(tx, websiteId);
  const moves: [string, string][] = [[from, to]];
  if (prefix) moves.push([`${from}/*`, `${to}/*`]);
  for (const [oldPath, newPath] of moves) {
    for (const r of rules) {
      if (r.fromPath === newPath) await tx.delete(urlRedirects).where(eq(urlRedirects.id, r.id));
      else if (r.toPath === oldPath)
        await tx.update(urlRedirects).set({ toPath: newPath }).where(eq(urlRedirects.id, r.id));
    }
    await tx
      .insert(urlRedirects)
      .values({ id: newId(), websiteId, fromPath: oldPath, toPath: newPath, status: 301, automatic: true })
      .onConflictDoUpdate({
        target: [urlRedirects.websiteId, urlRedirects.fromPath],
        set: { toPath: newPath, status: 301, automatic: true },
      });
  }
}

/** An old address of an imported page, post, product, category or file, and where it lives now. */
export interface ImportedAddress {
  from: string;
  to: string;
}

/**
 * The old addresses of an import answer 301 to the new ones, as one group named after the import
 * (in the import's transaction). An address the site already maps is left as it is (the owner's
 * rule wins); what does not fit within the site's limit is answered back, not added.
 */
export async function addImportedRedirects(
  tx: Tx,
  websiteId: string,
  group: string,
  addresses: ImportedAddress[],
): Promise<{ added: number; alreadyMapped: string[]; overLimit: string[] }> {
  const rules = await listRedirects(tx, websiteId);
  const taken = new Set(rules.map((r) => r.fromPath));
  let room = MAX_REDIRECTS - rules.length;
  const out = { added: 0, alreadyMapped: [] as string[], overLimit: [] as string[] };
  for (const a of addresses) {
    const from = normalizePath(a.from);
    if (from === a.to || !from.startsWith("/") || from.startsWith("//") || /\s/.test(from)) continue;
    if (taken.has(from)) {
      out.alreadyMapped.push(from);
      continue;
    }
    if (room <= 0) {
      out.overLimit.push(from);
      continue;
    }
    await tx
      .insert(urlRedirects)
      .values({ id: newId(), websiteId, fromPath: from, toPath: a.to, status: 301, groupName: group });
    taken.add(from);
    room--;
    out.added++;
  }
  return out;
}

/** Removes every URL mapping of an import's group; answers how many went. */
export async function deleteRedirectGroup(db: Db, websiteId: string, group: string): Promise<number> {
  const gone = await db
    .delete(urlRedirects)
    .where(and(eq(urlRedirects.websiteId, websiteId), eq(urlRedirects.groupName, group)))
    .returning({ id: urlRedirects.id });
  if (!gone.length) throw notFound("No URL mappings in this group.");
  return gone.length;
}
