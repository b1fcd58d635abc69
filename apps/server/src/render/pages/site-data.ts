/** Site-wide data of a page request (collections, settings, features), cached per content version. */
import type { Db } from "../../db/client.js";
import { LruMap } from "../../lib/lru.js";
import { type Collection, type ContentItem, collectionsOf } from "../../modules/content/service.js";
import { type Website, settingsOf } from "../../modules/sites/service.js";
import { enabledFeatures } from "../features.js";
import type { Json } from "./shared.js";

interface SiteData {
  all: Collection[];
  settings: Awaited<ReturnType<typeof settingsOf>>;
  features: Set<number>;
  /** Published items of a collection and their JSON, by collection id (filled as pages ask). */
  items: Map<string, Promise<CollectionItems>>;
}

export interface CollectionItems {
  rows: ContentItem[];
  byId: Map<string, Json>;
}

/**
 * Site-wide data by site, valid for one content version (a change to any of it bumps the version),
 * least recently used dropped first; sized by SITE_CACHE_ENTRIES (render/routes.ts).
 */
export const siteDataCache = new LruMap<string, { version: number; data: Promise<SiteData> }>(1000);

async function loadSiteData(db: Db, site: Website): Promise<SiteData> {
  const [all, settings, features] = await Promise.all([
    collectionsOf(db, site.id),
    settingsOf(db, site.id),
    enabledFeatures(db, site),
  ]);
  return { all, settings, features, items: new Map() };
}

export function siteData(db: Db, site: Website, version: number | undefined): Promise<SiteData> {
  if (version === undefined) return loadSiteData(db, site);
  const hit = siteDataCache.get(site.id);
  if (hit && hit.version === version) return hit.data;
  if (hit && hit.version > version) return loadSiteData(db, site);
  const data = loadSiteData(db, site);
  siteDataCache.set(site.id, { version, data });
  data.catch(() => {
    if (siteDataCache.peek(site.id)?.data === data) siteDataCache.delete(site.id);
  });
  return data;
}
