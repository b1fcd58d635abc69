/**
 * What an API key may be allowed to do: read or write each area of the owner API
 * (`<area>.read` / `<area>.write`, the areas of the permission table that roles use too), beside
 * the first scopes of the template commands, which keep working (mapped onto design). A write scope
 * also reads. The team, the API keys themselves and billing stay with people: no scope opens them.
 */
export const KEY_AREAS = [
  "content",
  "design",
  "forms",
  "marketing",
  "seo",
  "settings",
  "products",
  "inventory",
  "orders",
  "store",
  "site_users",
  "analytics",
  "activity",
  "webhooks",
] as const;

export type KeyArea = (typeof KEY_AREAS)[number];

/** The scope names of the template commands (`jsont pull|push`), kept working: design.read, design.write. */
export const LEGACY_SCOPES = ["templates.read", "templates.write"] as const;

export const API_SCOPES = [
  ...KEY_AREAS.flatMap((a) => [`${a}.read`, `${a}.write`] as const),
  ...LEGACY_SCOPES,
] as readonly (`${KeyArea}.read` | `${KeyArea}.write` | (typeof LEGACY_SCOPES)[number])[];

/** The longest name an owner may give a key. */
export const API_KEY_NAME_MAX_LENGTH = 100;

export type ApiScope = (typeof API_SCOPES)[number];

/** A key as the owner API answers it: its first characters only, never the key itself. */
export interface ApiKey {
  id: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  scopes: string[];
  createdOn: number;
  lastUsedOn: number | null;
}

/** GET /api/owner/sites/:siteId/api-keys: the live keys, oldest first, and the scopes a key may have. */
export interface ApiKeyList {
  apiKeys: ApiKey[];
  scopes: readonly ApiScope[];
}

/** POST /api/owner/sites/:siteId/api-keys: the new key, and the full key, shown this once. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}
