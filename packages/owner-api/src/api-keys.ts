/**
 * What an API key may be allowed to do: read or write each area of the owner API
 * (`<area>.read` / `<area>.write`), beside the first scopes of the commerce API and the template
 * commands, which keep working.
 */
export const API_SCOPES = [
  "orders.read",
  "orders.write",
  "products.read",
  "products.write",
  "inventory.read",
  "inventory.write",
  "content.read",
  "content.write",
  "forms.read",
  "forms.write",
  "site_users.read",
  "site_users.write",
  "analytics.read",
  "analytics.write",
  "webhooks.read",
  "webhooks.write",
  "templates.read",
  "templates.write",
] as const;

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
