/**
 * What the store's hot calls (cart, quote, order) read about a site, kept in memory per site
 * content version (websites.content_version, bumped by every change to settings, products,
 * variants, media and domains; render/cache.ts). The version is read from the database in the
 * same round trip as the call's rate-limit count (`siteVersionOfHost`), so a call never sees
 * anything older than a fresh read at that moment would: no waiting for a notification, and a
 * change made by any process is seen by the next call. Kept per app (one StoreCache each).
 */
import { type SQL, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { websites } from "../../db/schema.js";
import { LruMap } from "../../lib/lru.js";
import { VersionedCache } from "../../lib/versioned-cache.js";
import { type CatalogProduct, productsByIds } from "../catalog/service.js";
import {
  type Website,
  hostName,
  isDefaultSiteHost,
  platformIdentifier,
  settingsOf,
  wwwCounterpart,
} from "../sites/service.js";

type Settings = Awaited<ReturnType<typeof settingsOf>>;

/**
 * SQL of one value, "<website id>:<content version>" of the website a Host header names, found
 * as websiteForHost finds it (verified custom domain or its `www.` pair, then a platform address,
 * then the default site on its own names), or null when no website is there.
 */
export function siteVersionOfHost(hostHeader: string | undefined): SQL<string | null> {
  const host = hostName(hostHeader);
  const sub = platformIdentifier(host) ?? null;
  const isDefault = isDefaultSiteHost(host);
  return sql<string | null>`(select w.id || ':' || w.content_version from websites w where w.id = coalesce(
    (select d.website_id from domains d where d.host = ${host} and d.status = 'verified'),
    (select x.id from websites x where x.primary_host = ${wwwCounterpart(host)} and x.redirect_www),
    case when ${sub}::text is not null then (select x.id from websites x where x.identifier = ${sub}::text)
         when ${isDefault} then (select x.id from websites x where x.is_default limit 1) end))`;
}

/** A site as one store call reads it: the site row, its content version, and what is kept for it. */
export interface SiteReads {
  site: Website;
  version: number;
  settings(db: Db | Tx): Promise<Settings>;
  /** Published products by id with their variants, as productsByIds answers. */
  products(db: Db | Tx, itemIds: readonly string[]): Promise<Map<string, CatalogProduct>>;
  /**
   * Anything else the site's content version covers (e.g. the shipping and tax rules, whose
   * changes touch the store settings), loaded once per version under the name `what`.
   */
  keep<T>(what: string, db: Db | Tx, load: (db: Db | Tx) => Promise<T>): Promise<T>;
}

export class StoreCache {
  private readonly sites: LruMap<string, Website>;
  private readonly settingsKept: VersionedCache<Settings>;
  private readonly productsKept: VersionedCache<CatalogProduct | undefined>;
  private readonly othersKept: VersionedCache<unknown>;

  constructor(sites = 1000) {
    this.sites = new LruMap(sites);
    this.settingsKept = new VersionedCache(sites);
    this.productsKept = new VersionedCache(sites * 50);
    this.othersKept = new VersionedCache(sites * 4);
  }

  /** The reads of the site named by "<id>:<version>" (siteVersionOfHost), or undefined for null. */
  async reads(db: Db, idVersion: string | null | undefined): Promise<SiteReads | undefined> {
    if (!idVersion) return undefined;
    const colon = idVersion.lastIndexOf(":");
    const id = idVersion.slice(0, colon);
    const version = Number(idVersion.slice(colon + 1));
    let site = this.sites.get(id);
    if (!site || site.contentVersion !== version) {
      const [row] = await db.select().from(websites).where(eq(websites.id, id));
      if (!row) return undefined;
      if (row.contentVersion >= (site?.contentVersion ?? 0)) this.sites.set(id, row);
      site = row;
    }
    return this.at(site, Math.max(version, site.contentVersion));
  }

  /** The reads of a site at a version. */
  at(site: Website, version: number): SiteReads {
    return {
      site,
      version,
      settings: (db) => this.settingsKept.get(site.id, version, () => settingsOf(db as Db, site.id)),
      products: (db, itemIds) => this.products(db, site.id, version, itemIds),
      keep: <T>(what: string, db: Db | Tx, load: (db: Db | Tx) => Promise<T>) =>
        this.othersKept.get(`${site.id}\n${what}`, version, () => load(db)) as Promise<T>,
    };
  }

  private async products(
    db: Db | Tx,
    websiteId: string,
    version: number,
    itemIds: readonly string[],
  ): Promise<Map<string, CatalogProduct>> {
    const ids = [...new Set(itemIds)];
    const keys = ids.map((id) => `${websiteId}\n${id}`);
    const kept = keys.map((k) => this.productsKept.peek(k, version));
    const missing = ids.filter((_, i) => !kept[i]);
    // The products not kept at this version are read together, in one query.
    const loading = missing.length ? productsByIds(db as Db, websiteId, missing) : undefined;
    const values = await Promise.all(
      ids.map(
        (id, i) =>
          kept[i] ?? this.productsKept.get(keys[i]!, version, () => loading!.then((found) => found.get(id))),
      ),
    );
    const out = new Map<string, CatalogProduct>();
    values.forEach((p, i) => {
      if (p) out.set(ids[i]!, p);
    });
    return out;
  }
}
