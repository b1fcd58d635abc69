import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { domains, storeSettings, websiteSettings, websites } from "../../db/schema.js";
import { notFound } from "../../http/errors.js";

export type Website = typeof websites.$inferSelect;
export type WebsiteSettings = typeof websiteSettings.$inferSelect;
export type StoreSettings = typeof storeSettings.$inferSelect;

/** The host without its port, lower-cased; "[::1]:3000" → "[::1]". */
export function hostName(hostHeader: string | undefined): string {
  const host = (hostHeader ?? "").trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0] ?? "";
}

/**
 * Host to website: a custom domain from the database, then `<identifier>.localhost`, then the
 * default site on any other host (localhost, an IP, the machine's name).
 */
export async function websiteForHost(db: Db, hostHeader: string | undefined): Promise<Website | undefined> {
  const host = hostName(hostHeader);
  if (host) {
    const [byDomain] = await db
      .select({ website: websites })
      .from(domains)
      .innerJoin(websites, eq(websites.id, domains.websiteId))
      .where(eq(domains.host, host));
    if (byDomain) return byDomain.website;
    const sub = /^([a-z0-9-]+)\.localhost$/.exec(host)?.[1];
    if (sub) {
      const [bySub] = await db.select().from(websites).where(eq(websites.identifier, sub));
      // An unknown sub-domain is not the default site: it has no website.
      return bySub;
    }
  }
  const [fallback] = await db.select().from(websites).where(eq(websites.isDefault, true));
  return fallback;
}

/** What knows sites by host while the content-version listener runs (render/cache.ts SiteVersions). */
interface KnownSites {
  host(host: string): Website | null | undefined;
  observe(id: string, version: number): number;
  rememberHost(host: string, site: Website | null): void;
}

/** Host → website, from memory while the version listener runs, else from the database. */
export async function knownWebsiteForHost(
  known: KnownSites,
  db: Db,
  hostHeader: string | undefined,
): Promise<Website | undefined> {
  const host = hostName(hostHeader);
  const kept = known.host(host);
  if (kept !== undefined) return kept ?? undefined;
  const site = await websiteForHost(db, hostHeader);
  if (site) known.observe(site.id, site.contentVersion);
  known.rememberHost(host, site ?? null);
  return site;
}

/** The answer to a request for a host that is no site's address. */
export const NO_WEBSITE_HERE = "There is no website at this address.";

/** The website a request's host names; a 404 when there is none. */
export async function siteAtHost(db: Db, hostHeader: string | undefined): Promise<Website> {
  const site = await websiteForHost(db, hostHeader);
  if (!site) throw notFound(NO_WEBSITE_HERE);
  return site;
}

export async function settingsOf(db: Db, websiteId: string) {
  const [site] = await db.select().from(websiteSettings).where(eq(websiteSettings.websiteId, websiteId));
  const [store] = await db.select().from(storeSettings).where(eq(storeSettings.websiteId, websiteId));
  return { site: site!, store: store! };
}

/** A website by its id (for work done away from a request, e.g. the recovery emails). */
export async function websiteById(db: Db, id: string): Promise<Website | undefined> {
  const [site] = await db.select().from(websites).where(eq(websites.id, id));
  return site;
}
