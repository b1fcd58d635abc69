/** A URL mapping as GET/POST /api/owner/sites/:siteId/redirects answer it (`{ redirects }`, `{ redirect }`). */
export interface UrlMapping {
  id: string;
  /** An exact path, or a prefix ending in "/*". */
  from: string;
  /** A path (ending in "/*" to carry the rest of a prefix over) or an absolute URL. */
  to: string;
  /** 301 (moved for good) or 302 (for now). */
  status: number;
  /** Added by the server when a page or product changed address. */
  automatic: boolean;
  /** The import that added it (its name), or null: an import's mappings are removed together. */
  group: string | null;
  createdOn: number;
}
