/**
 * What the store's hot calls (cart, quote, order) read about a site, kept in memory per site
 * content version (websites.content_version, bumped by every change to settings, products,
 * variants, media and domains; render/cache.ts). The version is read from the database in the
 * same round trip as the call's rate-limit count (`siteVersionOfHost`), so a call never sees
 * anything older than a fresh read at that moment would: no waiting for a notification, and a
 * change made by any process is seen by the next call. Kept per app (one StoreCache each).
 *
 * An order's stock change bumps the version too (pages show the new stock), but in a version of
 * its own (the order's insert bumps it: db/content-version.ts) that this process records as stock-only: at it, the site row, settings
 * and rules stay kept, and the products get the units the order left. A version this process did
 * not record (a change by the owner, or by another process) reads everything again.
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
  return siteVersionSql(hostValues(hostHeader));
}

/** What siteVersionOfHost looks a Host header up by. */
export function hostValues(hostHeader: string | undefined) {
  const host = hostName(hostHeader);
  return {
    host,
    wwwHost: wwwCounterpart(host),
    sub: platformIdentifier(host) ?? null,
    isDefault: isDefaultSiteHost(host),
  };
}

/** siteVersionOfHost with placeholders named as hostValues answers, for a compiled statement. */
export function siteVersionOfHostPlaceholders(): SQL<string | null> {
  return siteVersionSql({
    host: sql.placeholder("host"),
    wwwHost: sql.placeholder("wwwHost"),
    sub: sql.placeholder("sub"),
    isDefault: sql.placeholder("isDefault"),
  });
}

function siteVersionSql(v: Record<keyof ReturnType<typeof hostValues>, unknown>): SQL<string | null> {
  return sql<string | null>`(select w.id || ':' || w.content_version from websites w where w.id = coalesce(
    (select d.website_id from domains d where d.host = ${v.host}::text and d.status = 'verified'),
    (select x.id from websites x where x.primary_host = ${v.wwwHost}::text and x.redirect_www),
    case when ${v.sub}::text is not null then (select x.id from websites x where x.identifier = ${v.sub}::text)
         when ${v.isDefault}::boolean then (select x.id from websites x where x.is_default limit 1) end))`;
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
  /**
   * After a committed bump of the site's version for an order's stock: the new version differs from the one before only in the stock
   * of these products' variants, so the next call at it keeps all else (undefined: any product);
   * with `left`, every changed variant's units now, the products are kept too, with those units.
   */
  stockBumped(version: number, itemIds?: readonly string[], left?: ReadonlyMap<string, number>): void;
}

/** A version made by an order's stock change alone: what it differs in from the one before. */
interface StockStep {
  from: number;
  /** The oldest version of the run of stock steps this one ends: what else is kept at. */
  base: number;
  items: ReadonlySet<string> | undefined;
  /** Units of every variant the step changed, when known. */
  left: ReadonlyMap<string, number> | undefined;
}

/** Stock steps kept per site (the newest). */
const STOCK_STEPS = 64;
/** Stock steps walked back to find a product kept at an older version. */
const PRODUCT_STEPS = 16;

function withUnits(p: CatalogProduct, units: ReadonlyMap<string, number>): CatalogProduct {
  return {
    ...p,
    variants: p.variants.map((v) => (units.has(v.id) ? { ...v, qtyInStock: units.get(v.id)! } : v)),
  };
}

export class StoreCache {
  private readonly sites: LruMap<string, Website>;
  private readonly settingsKept: VersionedCache<Settings>;
  private readonly productsKept: VersionedCache<CatalogProduct | undefined>;
  private readonly othersKept: VersionedCache<unknown>;
  private readonly stockSteps: LruMap<string, Map<number, StockStep>>;
  /** The newest version a call of each site took for a base (see recordStock). */
  private readonly newestBase: LruMap<string, number>;
  /** Statements run by this cache (tests count them). */
  reloads = { sites: 0, settings: 0, products: 0, others: 0 };

  constructor(sites = 1000) {
    this.sites = new LruMap(sites);
    this.settingsKept = new VersionedCache(sites);
    this.productsKept = new VersionedCache(sites * 50);
    this.othersKept = new VersionedCache(sites * 4);
    this.stockSteps = new LruMap(sites);
    this.newestBase = new LruMap(sites);
  }

  /**
   * The version what is not stock was last loaded at: following recorded stock steps back from
   * `version`. A version below every recorded step (the site restored to an older version) drops them.
   */
  private baseOf(websiteId: string, version: number, drop = true): number {
    const steps = this.stockSteps.peek(websiteId);
    if (!steps) return version;
    const step = steps.get(version);
    if (step) return step.base;
    if (drop) {
      let lowest = Number.POSITIVE_INFINITY;
      for (const s of steps.values()) lowest = Math.min(lowest, s.from);
      if (version < lowest) this.stockSteps.delete(websiteId);
    }
    return version;
  }

  private recordStock(
    websiteId: string,
    version: number,
    itemIds: readonly string[] | undefined,
    left: ReadonlyMap<string, number> | undefined,
  ) {
    let steps = this.stockSteps.get(websiteId);
    if (!steps) {
      steps = new Map();
      this.stockSteps.set(websiteId, steps);
    }
    const from = version - 1;
    const inherited = steps.get(from)?.base ?? from;
    // A call that read this version (or one since the inherited base) before the order recorded
    // it took that version for a base, and kept what it read at it: the step keeps that base, so
    // that bases never go back (a cache asked for an older version than it keeps reads every time).
    const seen = this.newestBase.peek(websiteId);
    const base = seen !== undefined && seen > inherited && seen <= version ? seen : inherited;
    steps.set(version, { from, base, items: itemIds ? new Set(itemIds) : undefined, left });
    if (steps.size > STOCK_STEPS) {
      const oldest = Math.min(...steps.keys());
      steps.delete(oldest);
    }
  }

  /** The reads of the site named by "<id>:<version>" (siteVersionOfHost), or undefined for null. */
  async reads(db: Db, idVersion: string | null | undefined): Promise<SiteReads | undefined> {
    if (!idVersion) return undefined;
    const colon = idVersion.lastIndexOf(":");
    const id = idVersion.slice(0, colon);
    const version = Number(idVersion.slice(colon + 1));
    let site = this.sites.get(id);
    const base = this.baseOf(id, version);
    if (
      site &&
      site.contentVersion !== version &&
      base !== version &&
      this.baseOf(id, site.contentVersion, false) === base
    ) {
      // Only stock changed since the row was read: the row is the same but for its version.
      site = { ...site, contentVersion: version };
      this.sites.set(id, site);
    }
    if (!site || site.contentVersion !== version) {
      this.reloads.sites++;
      const [row] = await db.select().from(websites).where(eq(websites.id, id));
      if (!row) return undefined;
      if (row.contentVersion >= (site?.contentVersion ?? 0)) this.sites.set(id, row);
      site = row;
    }
    return this.at(site, Math.max(version, site.contentVersion));
  }

  /** The reads of a site at a version. */
  at(site: Website, version: number): SiteReads {
    const base = this.baseOf(site.id, version);
    if (base > (this.newestBase.peek(site.id) ?? Number.NEGATIVE_INFINITY))
      this.newestBase.set(site.id, base);
    return {
      site,
      version,
      settings: (db) =>
        this.settingsKept.get(site.id, base, () => {
          this.reloads.settings++;
          return settingsOf(db as Db, site.id);
        }),
      products: (db, itemIds) => this.products(db, site.id, version, itemIds),
      keep: <T>(what: string, db: Db | Tx, load: (db: Db | Tx) => Promise<T>) =>
        this.othersKept.get(`${site.id}\n${what}`, base, () => {
          this.reloads.others++;
          return load(db);
        }) as Promise<T>,
      stockBumped: (v, itemIds, left) => this.recordStock(site.id, v, itemIds, left),
    };
  }

  /**
   * A product kept at an older version of a run of stock steps, with the units those steps left
   * its variants (undefined when a step changed it without saying to how many).
   */
  private keptBefore(key: string, websiteId: string, itemId: string, version: number) {
    const steps = this.stockSteps.peek(websiteId);
    const units = new Map<string, number>();
    let v = version;
    for (let i = 0; steps && i < PRODUCT_STEPS; i++) {
      const step = steps.get(v);
      if (!step?.items) return undefined;
      if (step.items.has(itemId)) {
        if (!step.left) return undefined;
        // The newest step's units of a variant win.
        for (const [id, qty] of step.left) if (!units.has(id)) units.set(id, qty);
      }
      v = step.from;
      const kept = this.productsKept.peek(key, v);
      if (kept) return units.size ? kept.then((p) => p && withUnits(p, units)) : kept;
    }
    return undefined;
  }

  private async products(
    db: Db | Tx,
    websiteId: string,
    version: number,
    itemIds: readonly string[],
  ): Promise<Map<string, CatalogProduct>> {
    const ids = [...new Set(itemIds)];
    const keys = ids.map((id) => `${websiteId}\n${id}`);
    const kept = keys.map((k, i) => {
      const now = this.productsKept.peek(k, version);
      if (now) return now;
      const before = this.keptBefore(k, websiteId, ids[i]!, version);
      return before && this.productsKept.get(k, version, () => before);
    });
    const missing = ids.filter((_, i) => !kept[i]);
    // The products not kept at this version are read together, in one query.
    if (missing.length) this.reloads.products++;
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
