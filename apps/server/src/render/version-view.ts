/**
 * An older version of a page or post rendered by the storefront itself (the site's theme, header,
 * footer, design) for the History panel. The owner route (modules/history) checks the member may
 * read it, lays the version's content over the site's rows here under a one-use random token, and
 * asks the storefront for the page with that token in a header; only a token made in this process
 * counts, and only for its own site. Nothing is written and nothing is cached.
 */
import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Collection, ContentItem } from "../modules/content/service.js";

/** The content shown instead of the site's own rows for one request. */
export interface VersionView {
  websiteId: string;
  /** The page's row as it was in the version (its shown layout in `layout`). */
  collection?: Collection;
  /** The post's row as it was in the version. */
  item?: ContentItem;
}

export const VERSION_VIEW_HEADER = "x-atelier-version-view";

const views = new Map<string, VersionView>();

/** Runs `fn` with a token that names `view` to the storefront; the token dies when `fn` ends. */
export async function withVersionView<T>(view: VersionView, fn: (token: string) => Promise<T>): Promise<T> {
  const token = randomBytes(24).toString("base64url");
  views.set(token, view);
  try {
    return await fn(token);
  } finally {
    views.delete(token);
  }
}

/** The version a storefront request is to show, if it carries a live token of this site. */
export function versionViewOf(request: FastifyRequest, websiteId: string): VersionView | undefined {
  const token = request.headers[VERSION_VIEW_HEADER];
  if (typeof token !== "string") return undefined;
  const view = views.get(token);
  return view?.websiteId === websiteId ? view : undefined;
}

/** The site's pages with the viewed page's row in place of its own. */
export function withViewedPage(all: Collection[], view: VersionView | undefined): Collection[] {
  const shown = view?.collection;
  return shown ? all.map((c) => (c.id === shown.id ? shown : c)) : all;
}

/** A collection's published items with the viewed post in its place (or added, if it was a draft). */
export function withViewedItem(rows: ContentItem[], c: Collection, view: VersionView | undefined) {
  const shown = view?.item;
  if (!shown || shown.collectionId !== c.id) return rows;
  const at = rows.findIndex((r) => r.id === shown.id);
  return at < 0 ? [...rows, shown] : rows.map((r) => (r.id === shown.id ? shown : r));
}
