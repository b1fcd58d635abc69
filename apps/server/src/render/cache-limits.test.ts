/**
 * Memory per process stays bounded as sites grow: the page cache, the site-data cache, the
 * redirect rules and the host/version maps are LRUs sized by PAGE_CACHE_ENTRIES, PAGE_CACHE_MB
 * and SITE_CACHE_ENTRIES, and a site dropped from them is served correctly from the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser, type TestApp, createTestApp, demoOwner, eventually } from "../../test/harness.js";
import { loadConfig } from "../config.js";
import { LruMap } from "../lib/lru.js";
import { PageCache, SiteVersions } from "./cache.js";
import { seedRenderFixtures } from "./fixtures.js";
import { siteDataCache } from "./page-context.js";

describe("LruMap", () => {
  it("drops the least recently used entry; get refreshes, peek does not", () => {
    const lru = new LruMap<string, number>(3);
    lru.set("a", 1).set("b", 2).set("c", 3);
    expect(lru.get("a")).toBe(1);
    expect(lru.peek("b")).toBe(2);
    lru.set("d", 4);
    expect([...lru.keys()]).toEqual(["c", "a", "d"]);
    expect(lru.has("b")).toBe(false);
    expect(lru.evictions).toBe(1);
    lru.set("c", 30);
    lru.set("e", 5);
    expect([...lru.entries()]).toEqual([
      ["d", 4],
      ["c", 30],
      ["e", 5],
    ]);
    lru.resize(1);
    expect([...lru.keys()]).toEqual(["e"]);
    expect(lru.evictions).toBe(4);
    expect(() => new LruMap(0)).toThrow();
  });
});

describe("page cache limits", () => {
  const page = (version: number, bytes = 10) => ({
    version,
    status: 200,
    parts: ["x"],
    bodies: new Map(),
    ready: new Map(),
    bytes,
  });

  it("keeps a page that is read and drops the one that is not", () => {
    const cache = new PageCache(2, 1_000_000);
    cache.set("a", page(1));
    cache.set("b", page(1));
    expect(cache.get("a", 1)).toBeDefined();
    cache.set("c", page(1));
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("drops the oldest pages beyond its bytes", () => {
    const cache = new PageCache(100, 250);
    for (const key of ["a", "b", "c"]) cache.set(key, page(1, 100));
    expect(cache.size).toBe(2);
    expect(cache.get("a", 1)).toBeUndefined();
    expect(cache.get("c", 1)).toBeDefined();
  });

  it("is sized from the environment, refusing nonsense", () => {
    const base = { DATA_DIR: "/tmp/x" };
    expect(loadConfig(base)).toMatchObject({
      pageCacheEntries: 5000,
      pageCacheMb: 128,
      siteCacheEntries: 1000,
    });
    expect(
      loadConfig({ ...base, PAGE_CACHE_ENTRIES: "20", PAGE_CACHE_MB: "8", SITE_CACHE_ENTRIES: "50" }),
    ).toMatchObject({ pageCacheEntries: 20, pageCacheMb: 8, siteCacheEntries: 50 });
    expect(() => loadConfig({ ...base, SITE_CACHE_ENTRIES: "0" })).toThrow(/SITE_CACHE_ENTRIES/);
    expect(() => loadConfig({ ...base, PAGE_CACHE_ENTRIES: "lots" })).toThrow(/PAGE_CACHE_ENTRIES/);
  });
});

describe("a process with room for one site", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: true, env: { SITE_CACHE_ENTRIES: "1", PAGE_CACHE_ENTRIES: "2" } });
    await seedRenderFixtures(t.database.db, t.config.dataDir);
  });
  afterAll(() => t.close());

  it("serves every site right, and their changes, while each evicts the other", async () => {
    const demo = new Browser(t.app, "localhost");
    const classic = new Browser(t.app, "classic.localhost");
    const { owner, siteId } = await demoOwner(t);
    for (let round = 0; round < 3; round++) {
      const a = await demo.visit("/shop");
      const b = await classic.visit("/journal");
      const c = await demo.visit("/blog");
      expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([200, 200, 200]);
      expect(a.body).toContain('href="/shop/p/linen-work-apron"');
      expect(b.body).toContain("On Tides");
      expect(siteDataCache.size).toBe(1);
      expect(t.app.pageCaches.reduce((n, c) => n + c.size, 0)).toBeLessThanOrEqual(2);
    }
    const settings = await owner.request({
      method: "PATCH",
      url: `/api/owner/sites/${siteId}`,
      payload: { title: "Atelier Renamed Under Pressure" },
    });
    expect(settings.statusCode).toBe(200);
    await classic.visit("/journal");
    await eventually(async () => (await demo.visit("/shop")).body).toContain(
      "Atelier Renamed Under Pressure",
    );
  });

  it("forget the oldest sites, and a forgotten site's host is looked up again", async () => {
    const versions = new SiteVersions<{ id: string; contentVersion: number }>(t.database, undefined, 1);
    try {
      await versions.start();
      expect(versions.isListening).toBe(true);
      const site = (id: string) => ({ id, contentVersion: 1 });
      versions.observe("s0", 1);
      versions.rememberHost("s0.example", site("s0"));
      expect(versions.host("s0.example")).toEqual(site("s0"));
      // Room for 4 hosts and 10 versions with one site's worth of cache.
      for (let i = 1; i <= 4; i++) versions.rememberHost(`h${i}.example`, null);
      expect(versions.host("s0.example")).toBeUndefined();
      versions.rememberHost("s0.example", site("s0"));
      for (let i = 1; i <= 10; i++) versions.observe(`s${i}`, 1);
      expect(versions.version("s0")).toBeUndefined();
      expect(versions.host("s0.example")).toBeUndefined();
      expect(versions.version("s10")).toBe(1);
    } finally {
      await versions.stop();
    }
  });
});
