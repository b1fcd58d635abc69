import { isIP } from "node:net";
import { and, eq } from "drizzle-orm";
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

/** The host names of PUBLIC_URL: the platform's own (set by buildApp from the config). */
const platformHosts = new Set<string>();

/** Records the platform's address (PUBLIC_URL): its host serves the default site. */
export function usePlatformAddress(publicUrl: string): void {
  platformHosts.add(new URL(publicUrl).hostname.toLowerCase());
}

/** Whether a host name is an IP address ("127.0.0.1", "[::1]"). */
function isIpHost(host: string): boolean {
  return isIP(host.replace(/^\[|\]$/g, "")) !== 0;
}

/** The default site's names: bare `localhost`, an IP address and PUBLIC_URL's host. */
export function isDefaultSiteHost(host: string): boolean {
  return host === "localhost" || isIpHost(host) || platformHosts.has(host);
}

/** `<identifier>` of a platform address `<identifier>.localhost` or `<identifier>.<PUBLIC_URL host>`. */
export function platformIdentifier(host: string): string | undefined {
  const m = /^([a-z0-9-]+)\.(.+)$/.exec(host);
  if (!m) return undefined;
  return m[2] === "localhost" || platformHosts.has(m[2]!) ? m[1] : undefined;
}

/** Whether a host name is one of the platform's own (the default site's names or a platform address). */
export function isPlatformHost(host: string): boolean {
  return isDefaultSiteHost(host) || platformIdentifier(host) !== undefined;
}

/** The other name of a `www.` pair: "www.example.com" ↔ "example.com". */
export function wwwCounterpart(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : `www.${host}`;
}

/**
 * Host to website: a verified custom domain (or the `www.`/bare name paired with the site's
 * primary domain, when the owner redirects it), then a platform address `<identifier>.localhost`
 * or `<identifier>.<PUBLIC_URL host>`, then the default site on bare localhost, an IP address
 * or PUBLIC_URL's host. Any other host has no website.
 */
export async function websiteForHost(db: Db, hostHeader: string | undefined): Promise<Website | undefined> {
  const host = hostName(hostHeader);
  if (!host) return undefined;
  const [byDomain] = await db
    .select({ website: websites })
    .from(domains)
    .innerJoin(websites, eq(websites.id, domains.websiteId))
    .where(and(eq(domains.host, host), eq(domains.status, "verified")));
  if (byDomain) return byDomain.website;
  const [paired] = await db
    .select()
    .from(websites)
    .where(and(eq(websites.primaryHost, wwwCounterpart(host)), eq(websites.redirectWww, true)));
  if (paired) return paired;
  const sub = platformIdentifier(host);
  if (sub) {
    const [bySub] = await db.select().from(websites).where(eq(websites.identifier, sub));
    // An unknown sub-domain is not the default site: it has no website.
    return bySub;
  }
  if (!isDefaultSiteHost(host)) return undefined;
  const [fallback] = await db.select().from(websites).where(eq(websites.isDefault, true));
  return fallback;
}

/**
 * A site's canonical address, written in every link of it (pages, feeds, sitemap, emails):
 * `https://<primary verified domain>` (PUBLIC_URL's scheme), else its platform address —
 * PUBLIC_URL for the default site, `<identifier>.<PUBLIC_URL host>` for the others.
 */
export function siteBaseUrl(
  site: Pick<Website, "identifier" | "isDefault" | "primaryHost">,
  publicUrl: string,
) {
  const base = new URL(publicUrl);
  if (site.primaryHost) return `${base.protocol}//${site.primaryHost}`;
  if (site.isDefault) return publicUrl.replace(/\/$/, "");
  base.hostname = `${site.identifier}.${base.hostname}`;
  return base.origin;
}

/**
 * Where a request on `hostHeader` for `site` must go instead (301): the primary address, when
 * the host is another of the site's domain names (a secondary verified domain, or the `www.`
 * or bare name paired with the primary). Platform addresses are never redirected.
 */
export function canonicalRedirect(site: Website, hostHeader: string | undefined, publicUrl: string) {
  const host = hostName(hostHeader);
  if (!site.primaryHost || host === site.primaryHost || isPlatformHost(host)) return undefined;
  return siteBaseUrl(site, publicUrl);
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
