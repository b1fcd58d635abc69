/** The JSON shapes of the owner API (and the design choices they allow), shared by the server that answers them and its clients (the dashboard, the `jsont` command line). */
export { type ApiErrorBody, apiErrorOf, readJson } from "./answers.js";
export type { ExportJob, ExportStatus } from "./exports.js";
export {
  API_KEY_NAME_MAX_LENGTH,
  API_SCOPES,
  KEY_AREAS,
  LEGACY_SCOPES,
  type ApiScope,
  type KeyArea,
} from "./api-keys.js";
export type { ApiKey, ApiKeyList, CreatedApiKey } from "./api-keys.js";
export type { ActivityEntry, ActivityPage } from "./activity.js";
export {
  AA_TEXT_CONTRAST,
  contrastRatio,
  formatContrast,
  HEX_COLOR,
  HEX_COLOR_MSG,
  normalizeHex,
  parseHex,
  TEXT_CONTRAST_PAIRS,
} from "./colors.js";
export { FEATURE_NAMES, Feature, type FeatureCode } from "./billing.js";
export type {
  BillingInvoice,
  BillingPlan,
  BillingSubscription,
  PaymentInfo,
  PaymentInfoAnswer,
  PlanChangeInvoice,
} from "./billing.js";
export {
  BUTTON_SHAPES,
  BUTTON_STYLES,
  COLOR_KEYS,
  CUSTOM_CSS_MAX_BYTES,
  LOGO_ALT_MAX_LENGTH,
  SPACINGS,
  STYLE_RANGES,
} from "./design.js";
export type {
  ButtonShape,
  ButtonStyle,
  ColorKey,
  Design,
  DesignFont,
  DesignImage,
  DesignTheme,
  Spacing,
  StyleOverrides,
  Styles,
} from "./design.js";
export {
  FORM_NAME_MAX_LENGTH,
  MAX_CATEGORY_LENGTH,
  MAX_TAG_LENGTH,
  SOLD_OUT_TEXT_MAX_LENGTH,
} from "./limits.js";
export type { Order, OrderLine } from "./orders.js";
export type { OutboxEmail, OutboxPage } from "./outbox.js";
export type {
  PlatformImportLine,
  PlatformImportProgress,
  PlatformImportReport,
  PlatformImportStatus,
} from "./platform-imports.js";
export type { UrlMapping } from "./redirects.js";
export type { SignUpGroup } from "./restock.js";
export type { OwnerCoupon, OwnerDiscount, StoreSettings, StoreSettingsAnswer } from "./store.js";
export type { OwnerSiteUser } from "./site-users.js";
export type { Template, TemplateSummary } from "./templates.js";
export {
  MAX_WEBHOOKS,
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_TOPICS,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookTopic,
} from "./webhooks.js";
export type { Webhook, WebhookDelivery, WebhookDeliveryPage, WebhookWithSecret } from "./webhooks.js";
export {
  type AccountSecurity,
  type AccountSession,
  PASSWORD_MIN_LENGTH,
  type TwoFactorSetup,
} from "./account-security.js";
export {
  ALL_PERMISSIONS,
  AREAS,
  type Area,
  isRole,
  type Permission,
  ROLES,
  ROLE_IDS,
  type Role,
  roleName,
} from "./permissions.js";
export type { Invitation, InvitationPreview, Member, MembersAnswer } from "./members.js";
export type {
  AbandonedCheckout,
  AbandonedCheckoutPage,
  AbandonedCheckoutStatus,
  RecoveryReminder,
  RecoverySettings,
} from "./recovery.js";
export type { AnnouncementBar, NewsletterPopup, NewsletterPopupTrigger } from "./site-popups.js";
export type { Audience, AudienceKind, CampaignBlock, CampaignStatus, SegmentRule } from "./campaigns.js";
