/** The JSON shapes of the owner API (and the design choices they allow), shared by the server that answers them and the dashboard. */
export type { ExportJob, ExportStatus } from "./exports.js";
export { API_SCOPES, type ApiScope } from "./api-keys.js";
export { FEATURE_NAMES, Feature, type FeatureCode } from "./billing.js";
export {
  BUTTON_SHAPES,
  BUTTON_STYLES,
  COLOR_KEYS,
  CUSTOM_CSS_MAX_BYTES,
  SPACINGS,
  STYLE_RANGES,
} from "./design.js";
export type { ButtonShape, ButtonStyle, ColorKey, Spacing, Styles } from "./design.js";
export { MAX_CATEGORY_LENGTH, MAX_TAG_LENGTH } from "./limits.js";
export type { Order, OrderLine } from "./orders.js";
export type { OutboxEmail, OutboxPage } from "./outbox.js";
export type { SignUpGroup } from "./restock.js";
export type { OwnerSiteUser } from "./site-users.js";
