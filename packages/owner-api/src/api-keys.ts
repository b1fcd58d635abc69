/** What an API key may be allowed to do: the scopes the owner API grants and checks. */
export const API_SCOPES = [
  "orders.read",
  "products.read",
  "inventory.read",
  "inventory.write",
  "templates.read",
  "templates.write",
] as const;

/** The longest name an owner may give a key. */
export const API_KEY_NAME_MAX_LENGTH = 100;

export type ApiScope = (typeof API_SCOPES)[number];
