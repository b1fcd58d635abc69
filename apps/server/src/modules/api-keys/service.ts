/**
 * Developer API keys of a website (SPEC §1 "API keys panel"): the owner creates named keys with
 * scopes, sees each key once, and revokes them. Keys are stored only as their SHA-256, like
 * session tokens; the public API (routes.ts) finds the website from the key alone.
 */
import {
  API_KEY_NAME_MAX_LENGTH,
  API_SCOPES,
  type ApiKey,
  type ApiScope,
  type CreatedApiKey,
} from "@atelier/owner-api";
import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { apiKeys, productVariants } from "../../db/schema.js";
import { ApiError, badRequest, conflict, notFound } from "../../http/errors.js";
import { hashToken, newId, newToken } from "../../lib/ids.js";
import { cursorPage } from "../../lib/paging.js";
import { setStock } from "../catalog/inventory.js";
import { MAX_STOCK } from "../catalog/product-rules.js";
import { ANY_MEMBER, type Permission, isPermission } from "../members/permissions.js";

const KEY_PREFIX = "atl_";
/** The key shown in the panel: its first characters (the key itself is never shown again). */
const SHOWN_PREFIX_LENGTH = 12;
export const MAX_LIVE_KEYS = 20;
export const MAX_ADJUSTMENTS = 50;
/** lastUsedAt is written at most this often per key. */
const LAST_USED_EVERY_MS = 60_000;

export const MSG_TOO_MANY_KEYS = `A site can have at most ${MAX_LIVE_KEYS} API keys. Delete a key you no longer use first.`;
export const MSG_NO_SUCH_KEY = "No such API key.";
export const MSG_NO_KEY = "Send your API key in the Authorization header: Bearer <key>.";
export const MSG_BAD_KEY = "This API key is not valid or has been deleted.";
const MSG_NO_SUCH_VARIANT = "No such variant.";
export const MSG_PERSON_ONLY =
  "This call needs a person signed in to the dashboard; API keys cannot make it.";
export const MSG_BELOW_ZERO = "The adjustments would take stock below 0; nothing was changed.";
export const missingScope = (scope: ApiScope | Permission) =>
  `This API key does not have the ${scope} scope.`;

type KeyRow = typeof apiKeys.$inferSelect;

function keyJson(k: KeyRow): ApiKey {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: k.scopes,
    createdOn: k.createdAt.getTime(),
    lastUsedOn: k.lastUsedAt ? k.lastUsedAt.getTime() : null,
  };
}

/** The live (not revoked) keys of a website, oldest first. */
export async function listKeys(db: Db, websiteId: string): Promise<ApiKey[]> {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.websiteId, websiteId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(keyJson);
}

/** Creates a key; the full key is in the answer and nowhere else. */
export async function createKey(
  db: Db,
  websiteId: string,
  input: { name: string; scopes: string[] },
): Promise<CreatedApiKey> {
  const name = input.name.trim();
  if (!name || name.length > API_KEY_NAME_MAX_LENGTH)
    throw badRequest(`Give the key a name of 1 to ${API_KEY_NAME_MAX_LENGTH} characters.`, {
      name: "Invalid",
    });
  const scopes = input.scopes.filter((s) => (API_SCOPES as readonly string[]).includes(s));
  if (!scopes.length || scopes.length !== new Set(input.scopes).size)
    throw badRequest(`Choose at least one scope among ${API_SCOPES.join(", ")}.`, { scopes: "Invalid" });
  return db.transaction(async (tx) => {
    // Serializes the creations of one website so the limit holds under concurrent calls.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`api_keys:${websiteId}`}))`);
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.websiteId, websiteId), isNull(apiKeys.revokedAt)));
    if (Number(live?.n ?? 0) >= MAX_LIVE_KEYS) throw conflict(MSG_TOO_MANY_KEYS);
    const key = KEY_PREFIX + newToken(30);
    const [row] = await tx
      .insert(apiKeys)
      .values({
        id: newId(),
        websiteId,
        name,
        prefix: key.slice(0, SHOWN_PREFIX_LENGTH),
        keyHash: hashToken(key),
        scopes: [...scopes],
      })
      .returning();
    return { apiKey: keyJson(row!), key };
  });
}

/** Revokes a key of the website (another website's key is simply not found). */
export async function revokeKey(db: Db, websiteId: string, keyId: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.websiteId, websiteId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (!row) throw notFound(MSG_NO_SUCH_KEY);
}

export interface ApiCaller {
  keyId: string;
  /** The key's name, as the owner gave it (the activity log shows it). */
  name: string;
  websiteId: string;
  scopes: string[];
}

/** The live key of an Authorization header, or a 401; lastUsedAt is refreshed at most once a minute. */
export async function authenticate(db: Db, authorization: string | undefined, now: Date): Promise<ApiCaller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw new ApiError(401, "unauthorized", MSG_NO_KEY);
  const token = match[1]!;
  if (!token.startsWith(KEY_PREFIX) || token.length > 200)
    throw new ApiError(401, "unauthorized", MSG_BAD_KEY);
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashToken(token)), isNull(apiKeys.revokedAt)));
  if (!row) throw new ApiError(401, "unauthorized", MSG_BAD_KEY);
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return { keyId: row.id, name: row.name, websiteId: row.websiteId, scopes: row.scopes };
}

/** The first scope names, kept working, and the permissions they stand for. */
const LEGACY: Record<string, Permission> = {
  "templates.read": "design.read",
  "templates.write": "design.write",
};

/**
 * The permissions of the permission table (modules/members/permissions.ts) that a key's scopes
 * give: `<area>.read` / `<area>.write` as named (a write scope also reads), the template commands'
 * scopes as design. Only the areas a key may be given count (never the team, keys or billing).
 */
export function keyPermissions(scopes: readonly string[]): Set<Permission> {
  const held = new Set<Permission>();
  for (const scope of scopes) {
    const permission = LEGACY[scope] ?? scope;
    if (!(API_SCOPES as readonly string[]).includes(scope) || !isPermission(permission)) continue;
    held.add(permission);
    if (permission.endsWith(".write")) held.add(permission.replace(/\.write$/, ".read") as Permission);
  }
  return held;
}

/** Refuses a key whose scopes do not give the permission a route declares (403 forbidden). */
export function requireKeyPermission(caller: ApiCaller, permission: string): void {
  if (permission === ANY_MEMBER) return;
  if (!isPermission(permission)) throw new ApiError(403, "forbidden", MSG_PERSON_ONLY);
  if (!keyPermissions(caller.scopes).has(permission))
    throw new ApiError(403, "forbidden", missingScope(permission));
}

export function requireScope(caller: ApiCaller, scope: ApiScope): void {
  if (!caller.scopes.includes(scope)) throw new ApiError(403, "forbidden", missingScope(scope));
}

/** Every variant of the website, by id, from `after` (exclusive), for the inventory listing. */
export async function inventoryPage(db: Db, websiteId: string, after: string | undefined, limit: number) {
  const rows = await db
    .select({
      variantId: productVariants.id,
      productId: productVariants.itemId,
      sku: productVariants.sku,
      attributes: productVariants.attributes,
      qtyInStock: productVariants.qtyInStock,
      unlimited: productVariants.unlimited,
    })
    .from(productVariants)
    .where(
      after
        ? and(eq(productVariants.websiteId, websiteId), gt(productVariants.id, after))
        : eq(productVariants.websiteId, websiteId),
    )
    .orderBy(asc(productVariants.id))
    .limit(limit + 1);
  const { page, last, hasNextPage } = cursorPage(rows, limit);
  return { inventory: page, nextCursor: hasNextPage ? last!.variantId : null };
}

/**
 * Applies stock deltas in one transaction: every variant must be the website's and no result may
 * go below 0 (409, nothing changed). Each change goes through the catalog's setStock so restock
 * notifications still fire.
 */
export async function adjustInventory(
  db: Db,
  websiteId: string,
  adjustments: readonly { variantId: string; quantityDelta: number }[],
) {
  if (!adjustments.length || adjustments.length > MAX_ADJUSTMENTS)
    throw badRequest(`Send 1 to ${MAX_ADJUSTMENTS} adjustments.`, { adjustments: "Invalid" });
  const totals = new Map<string, number>();
  for (const a of adjustments) totals.set(a.variantId, (totals.get(a.variantId) ?? 0) + a.quantityDelta);
  const ids = [...totals.keys()].sort();
  return db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: productVariants.id, qtyInStock: productVariants.qtyInStock })
      .from(productVariants)
      .where(and(eq(productVariants.websiteId, websiteId), inArray(productVariants.id, ids)))
      .orderBy(asc(productVariants.id))
      .for("update");
    const found = new Map(rows.map((r) => [r.id, r.qtyInStock]));
    /** Refuses the whole request when some variants fail a check, each of them marked with `mark`. */
    const refuse = (failed: string[], status: number, code: string, message: string, mark: string) => {
      if (failed.length)
        throw new ApiError(status, code, message, Object.fromEntries(failed.map((id) => [id, mark])));
    };
    const unknown = ids.filter((id) => !found.has(id));
    refuse(unknown, 404, "not_found", MSG_NO_SUCH_VARIANT, "Unknown");
    const below = ids.filter((id) => found.get(id)! + totals.get(id)! < 0);
    refuse(below, 409, "conflict", MSG_BELOW_ZERO, "Below 0");
    if (ids.some((id) => found.get(id)! + totals.get(id)! > MAX_STOCK))
      throw badRequest(`Stock can be at most ${MAX_STOCK}.`, { adjustments: "Invalid" });
    const variants = [];
    for (const id of ids) {
      // A savepoint inside this transaction: all of them or none.
      variants.push(await setStock(tx as unknown as Db, websiteId, id, { delta: totals.get(id)! }));
    }
    return {
      variants: variants.map((v) => ({
        variantId: v.id,
        sku: v.sku,
        qtyInStock: v.qtyInStock,
        unlimited: v.unlimited,
      })),
    };
  });
}

/** The tracking events of the API keys panel and of its key creation modal (SPEC §2). */
export const API_KEYS_PANEL_EVENTS = [
  "learn_more",
  "terms_of_use",
  "create_key",
  "delete_key",
  "delete_confirm",
] as const;
export const API_KEY_MODAL_EVENTS = ["copy", "next", "cancel", "complete"] as const;
