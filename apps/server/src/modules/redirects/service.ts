/**
 * URL mappings of a site (Settings → URL mappings): owner rules and the 301s added when a page
 * or product changes address. A rule's `from` is an exact path or a prefix ending in "/*"; its
 * `to` is a path, a path ending in "/*" (the rest of a prefix is carried over), or an absolute
 * URL. Rules are checked before a page answers 404. A rule that would send visitors round in a
 * loop is refused.
 */
import type { UrlMapping } from "@atelier/owner-api";
import { asc, eq } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { urlRedirects } from "../../db/schema.js";
import { ApiError, badRequest, throwFieldErrors } from "../../http/errors.js";
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

/** The first rule for a path: exact rules first, then the longest prefix. */
export function matchRedirect<R extends Pick<Redirect, "fromPath" | "toPath">>(
  rules: R[],
  path: string,
): { rule: R; to: string } | undefined {
  const exact = rules.find((r) => !r.fromPath.endsWith("/*") && r.fromPath === path);
  if (exact) return { rule: exact, to: exact.toPath };
  const prefixes = rules
    .filter((r) => r.fromPath.endsWith("/*"))
    .sort((a, b) => b.fromPath.length - a.fromPath.length);
  for (const rule of prefixes) {
    const to = applyRule(rule, path);
    if (to !== undefined) return { rule, to };
  }
  return undefined;
}

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
  if (!/^\/[^\s?#*]*(\/\*)?$/.test(from) || from.length > 2000 || from.startsWith("//"))
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
