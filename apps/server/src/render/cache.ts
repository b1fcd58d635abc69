/**
 * The page cache: rendered HTML kept in memory per site and path, valid while the site's
 * `content_version` is the one it was rendered at.
 *
 * A database trigger (migration 0002) bumps `websites.content_version` once per transaction
 * that changes anything a page shows, and announces `<websiteId>:<version>` on the channel
 * `atelier_content`. Every server process LISTENs (PostgreSQL; PGlite's in-process listener)
 * and keeps the newest version of each site, so a cached page is served without touching
 * the database, and a change made by any process invalidates every process's pages within
 * the time a notification takes. While a process is not listening (starting, or its
 * listening connection dropped) it asks the database for the version on every request.
 */
import type { PGlite } from "@electric-sql/pglite";
import type { FastifyBaseLogger } from "fastify";
import type pg from "pg";
import type { Database } from "../db/client.js";
import type { Precompressed } from "../http/compression.js";
import { LruMap } from "../lib/lru.js";

const CHANNEL = "atelier_content";

/**
 * Newest known content version per website, and host → site, both valid only while the
 * process is listening for version announcements. Both are LRUs sized from the number of sites
 * a process keeps (SITE_CACHE_ENTRIES): a site whose version was dropped is looked up again.
 */
export class SiteVersions<T extends { id: string; contentVersion: number }> {
  private readonly versions: LruMap<string, number>;
  private readonly hosts: LruMap<string, T | null>;
  private listening = false;
  private stopListening: (() => Promise<void>) | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly database: Database,
    private readonly log?: FastifyBaseLogger,
    sites = 1000,
  ) {
    // A version is a number: keep many more of them than sites' data. A site may have several hosts.
    this.versions = new LruMap(sites * 10);
    this.hosts = new LruMap(sites * 4);
  }

  get isListening(): boolean {
    return this.listening;
  }

  /** Records an announced version: "<websiteId>:<version>". */
  announce(payload: string): void {
    const [id, v] = payload.split(":");
    const version = Number(v);
    if (!id || !Number.isFinite(version)) return;
    if (version > (this.versions.peek(id) ?? 0)) this.versions.set(id, version);
    // Site rows (titles, domains, the default site) may have changed: look hosts up again.
    this.hosts.clear();
  }

  /** Remembers a version read from the database (never going back). */
  observe(id: string, version: number): number {
    const known = this.versions.peek(id);
    if (known === undefined || version > known) {
      this.versions.set(id, version);
      return version;
    }
    return known;
  }

  /** The newest version of a site this process knows of, when it is listening. */
  version(id: string): number | undefined {
    return this.listening ? this.versions.get(id) : undefined;
  }

  /** The site of a host, when listening and still current; `null` caches "no site here". */
  host(host: string): T | null | undefined {
    if (!this.listening) return undefined;
    const site = this.hosts.get(host);
    if (site === undefined || site === null) return site;
    // A row read before an announcement it raced with is stale; so is one whose version was dropped.
    const known = this.versions.peek(site.id);
    if (known === undefined || site.contentVersion < known) return undefined;
    return site;
  }

  rememberHost(host: string, site: T | null): void {
    if (!this.listening) return;
    this.hosts.set(host, site);
  }

  private reset(): void {
    this.versions.clear();
    this.hosts.clear();
  }

  /** Starts listening; resolves once the listener is in place (or failed, then it retries). */
  async start(): Promise<void> {
    if (this.closed) return;
    try {
      const client = (this.database.db as unknown as { $client: unknown }).$client;
      if (this.database.kind === "pglite") {
        const unsubscribe = await (client as PGlite).listen(CHANNEL, (payload) => this.announce(payload));
        this.stopListening = async () => {
          await unsubscribe().catch(() => {});
        };
      } else {
        const conn = await (client as pg.Pool).connect();
        let dropped = false;
        const drop = (err?: unknown) => {
          if (dropped) return;
          dropped = true;
          this.listening = false;
          this.reset();
          conn.removeAllListeners("notification");
          try {
            conn.release(err instanceof Error ? err : true);
          } catch {}
          if (!this.closed) {
            this.log?.warn({ err }, "page cache: lost the version listener, reconnecting");
            this.retry = setTimeout(() => void this.start(), 1000);
            this.retry.unref();
          }
        };
        conn.on("notification", (msg) => {
          if (msg.channel === CHANNEL && msg.payload) this.announce(msg.payload);
        });
        conn.on("error", drop);
        conn.on("end", () => drop(new Error("connection ended")));
        await conn.query(`LISTEN ${CHANNEL}`);
        this.stopListening = async () => {
          dropped = true;
          conn.removeAllListeners("notification");
          try {
            await conn.query(`UNLISTEN ${CHANNEL}`);
          } catch {}
          conn.release(true);
        };
      }
      // Anything announced before now was missed: start from nothing.
      this.reset();
      this.listening = true;
    } catch (err) {
      this.listening = false;
      if (!this.closed) {
        this.log?.warn({ err }, "page cache: could not listen for content versions, retrying");
        this.retry = setTimeout(() => void this.start(), 2000);
        this.retry.unref();
      }
    }
  }

  async stop(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.retry) clearTimeout(this.retry);
    await this.stopListening?.();
    this.stopListening = undefined;
    this.reset();
  }
}

export interface CachedPage {
  version: number;
  status: number;
  /** The HTML split where the visitor's cart count goes. */
  parts: string[];
  /** Filled-in bodies by cart count, with their compressed forms and ETag. */
  bodies: Map<number, Promise<Precompressed>>;
  /** The same bodies once compressed, for answers that cannot wait (render/warm-pages.ts). */
  ready: Map<number, Precompressed>;
  bytes: number;
  /**
   * When the page stops being right even at its version (epoch ms): a scheduled announcement
   * bar starts or ends then (modules/site-popups). Undefined: it stays right.
   */
  expiresAt?: number;
}

/** Rendered pages by site and path, least recently used evicted first, bounded in entries and bytes. */
export class PageCache {
  private readonly map = new Map<string, CachedPage>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly maxEntries = 5000,
    private readonly maxBytes = 128 * 1024 * 1024,
    /** The time, for pages that expire (the app's clock). */
    private readonly now: () => number = Date.now,
  ) {}

  static key(websiteId: string, path: string): string {
    return `${websiteId}\n${path}`;
  }

  get(key: string, version: number): CachedPage | undefined {
    const entry = this.peek(key, version);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    this.hit(key, entry);
    return entry;
  }

  /** The page at this version, if kept, without counting or reordering anything. */
  peek(key: string, version: number): CachedPage | undefined {
    const entry = this.map.get(key);
    if (entry?.version !== version) return undefined;
    return entry.expiresAt !== undefined && this.now() >= entry.expiresAt ? undefined : entry;
  }

  /** Counts a page answered from the cache and keeps it as the most recently used. */
  hit(key: string, entry: CachedPage): void {
    this.map.delete(key);
    this.map.set(key, entry);
    this.hits++;
  }

  set(key: string, entry: CachedPage): void {
    const old = this.map.get(key);
    if (old) {
      // Never replace a newer page with one rendered at an older version.
      if (old.version > entry.version) return;
      this.bytes -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, entry);
    this.bytes += entry.bytes;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value as string;
      this.bytes -= this.map.get(oldest)!.bytes;
      this.map.delete(oldest);
    }
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }
}
