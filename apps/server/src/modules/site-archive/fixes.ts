/**
 * The few columns an import cannot copy as they are: what must be unique across the whole
 * server (the site's address, a domain, a cart's cookie hash, an API key's hash), what the
 * archive never carries (API key secrets) and where files are stored.
 */
import path from "node:path";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { domains, featureSets, websites } from "../../db/schema.js";
import { hashToken, newToken } from "../../lib/ids.js";

export interface ImportContext {
  tx: Tx;
  /** Each imported media row's store key, by its new id. */
  mediaKeys: Map<string, string>;
  siteId: string;
  now: Date;
  /** What was left out, said to the owner. */
  skipped: string[];
}

/** A file name safe to store: its last path part, with odd characters replaced. */
export function safeBaseName(name: string): string {
  const base = path
    .basename(name)
    .replace(/[^\w.-]/g, "_")
    .replace(/^\.+/, "");
  return base || "file";
}

/** The first free site address from the archived one: `shop`, else `shop-2`, `shop-3`… */
async function freeIdentifier(tx: Tx, wanted: string): Promise<string> {
  const taken = async (id: string) =>
    (await tx.select({ id: websites.id }).from(websites).where(eq(websites.identifier, id))).length > 0;
  if (!(await taken(wanted))) return wanted;
  let n = 2;
  while (await taken(`${wanted}-${n}`)) n++;
  return `${wanted}-${n}`;
}

type Row = Record<string, unknown>;
type Fix = (row: Row, ctx: ImportContext) => Promise<Row | undefined>;

export const IMPORT_FIXES: Record<string, Fix> = {
  websites: async (row, ctx) => {
    const identifier = await freeIdentifier(ctx.tx, String(row.identifier).slice(0, 60));
    const featureSetId = row.featureSetId as string | null;
    const knownSet =
      featureSetId &&
      (await ctx.tx.select({ id: featureSets.id }).from(featureSets).where(eq(featureSets.id, featureSetId)))
        .length;
    // Its domains arrive unverified (checked again here), so the copy starts on its platform address.
    return {
      ...row,
      identifier,
      isDefault: false,
      primaryHost: null,
      featureSetId: knownSet ? featureSetId : null,
    };
  },
  domains: async (row, ctx) => {
    const host = String(row.host);
    const verified = and(eq(domains.host, host), eq(domains.status, "verified"));
    if ((await ctx.tx.select({ host: domains.host }).from(domains).where(verified)).length) {
      ctx.skipped.push(`Domain ${host}: already used by a site on this server.`);
      return undefined;
    }
    // Ownership is proved again on this server: the name is pending until its records are verified.
    return {
      ...row,
      isPrimary: false,
      status: "pending",
      token: `atelier-verify=${newToken(16)}`,
      verifiedAt: null,
      lastCheckedAt: null,
      error: null,
    };
  },
  // The visitor's cookie belonged to the old address: the copy's carts get fresh token hashes.
  carts: async (row) => ({ ...row, tokenHash: hashToken(newToken()) }),
  // Secrets never travel: imported keys cannot be used, so they arrive revoked.
  api_keys: async (row, ctx) => ({
    ...row,
    keyHash: hashToken(newToken()),
    revokedAt: row.revokedAt ?? ctx.now,
  }),
  media: async (row, ctx) => ({ ...row, storagePath: ctx.mediaKeys.get(String(row.id)) }),
};
