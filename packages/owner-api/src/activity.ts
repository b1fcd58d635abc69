/** The activity log's answers (GET /api/owner/sites/:siteId/activity). */

/** One change made through the owner API: who, when, from where, and what. */
export interface ActivityEntry {
  id: string;
  at: string;
  actor: { type: "account" | "api_key" | string; id: string | null; email: string | null; name: string };
  ip: string | null;
  userAgent: string | null;
  area: string | null;
  /** `<entity>.<verb>`, e.g. product.updated */
  action: string;
  entity: { type: string; id: string | null };
  /** The names of the fields the change sent, never their values. */
  fields: string[];
}

export interface ActivityPage {
  entries: ActivityEntry[];
  nextCursor: string | null;
  /** The people and API keys that appear in the log, for the filter by person. */
  actors: { type: string; id: string | null; name: string }[];
}
