/**
 * The data model (SPEC §3). Every site-scoped table carries `website_id`. Money columns are
 * integers of minor units (`*_cents`); timestamps are `timestamptz`; enumerations are the
 * SPEC's integers (see enums.ts).
 */
export * from "./schema/site.js";
export * from "./schema/commerce.js";
export * from "./schema/platform.js";
export * from "./schema/account-security.js";
export * from "./schema/history.js";
export * from "./schema/recovery.js";
export * from "./schema/site-popups.js";
export * from "./schema/campaigns.js";
