/**
 * The data model (SPEC §3). Every site-scoped table carries `website_id`. Money columns are
 * integers of minor units (`*_cents`); timestamps are `timestamptz`; enumerations are the
 * SPEC's integers (see enums.ts).
 */
export { websites, domains, websiteSettings, storeSettings } from "./schema/sites.js";
export * from "./schema/owners.js";
export * from "./schema/content.js";
export * from "./schema/orders.js";
export * from "./schema/forms.js";
export * from "./schema/site-users.js";
export * from "./schema/billing.js";
export * from "./schema/operations.js";
export * from "./schema/store-rules.js";
export * from "./schema/payments.js";
export * from "./schema/keys.js";
export * from "./schema/developer.js";
