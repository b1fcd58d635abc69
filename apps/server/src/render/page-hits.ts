/**
 * Which kept page answers which page view: one set of rules for Fastify's page route
 * (render/routes.ts) and the warm answers given in front of it (render/warm-pages.ts), so the two
 * never disagree about a cache hit.
 */
import { SiteStatus } from "../db/enums.js";
import type { Precompressed } from "../http/compression.js";
import type { Website } from "../modules/sites/service.js";
import { PageCache } from "./cache.js";

/** Query parameters a page reads: the cache key keeps only these, in a fixed order. */
const PAGE_PARAMS = ["page", "category", "tag", "author", "view", "month", "q", "unlock"] as const;

/** The cache key of a view of `urlPath` (a path without its query) with the query parameters a page reads. */
export function pageKey(
  siteId: string,
  urlPath: string,
  query: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const p of PAGE_PARAMS) {
    const v = query[p];
    if (typeof v === "string" && v !== "") params.set(p, v);
  }
  return PageCache.key(siteId, `${urlPath}?${params}`);
}

/** pageKey of a path without query parameters (the same key, made without building a query). */
export function pathKey(siteId: string, urlPath: string): string {
  return PageCache.key(siteId, `${urlPath}?`);
}

/** An expired site is offline for its visitors (its owners still see it, to renew it). */
export function offlineForVisitors(site: Website): boolean {
  return site.siteStatus === SiteStatus.EXPIRED;
}

/** Whether a page view may be answered from the cache: a page's HTML (not its JSON context), outside the editing view. */
export function answeredFromCache(view: { format?: string; editing: boolean }): boolean {
  return view.format !== "json" && view.format !== "json-pretty" && !view.editing;
}

/**
 * The body a warm answer gives at once: that of a kept 200 page at the site's `version`, for an
 * empty cart and compressed already; counted as a cache hit. Anything else (a 404 that a URL
 * mapping may redirect, a body still being compressed) is left to the page route.
 */
export function warmHit(cache: PageCache, key: string, version: number): Precompressed | undefined {
  const entry = cache.peek(key, version);
  const body = entry?.status === 200 ? entry.ready.get(0) : undefined;
  if (!entry || !body) return undefined;
  cache.hit(key, entry);
  return body;
}
