/** Enumerations numbered as SPEC §3 numbers them; stored as integers. */

export const BillingStatus = {
  FREE: 1,
  LINKED: 2,
  SUBSCRIBED: 3,
  TRIAL: 4,
  RESOLD: 5,
  RESOLD_GRACE_PERIOD: 6,
} as const;

export const SiteStatus = {
  EXPIRED: 1,
  PASTDUE: 2,
  TRIAL: 3,
  BETA: 4,
  REMOVED: 5,
  INTERNAL: 6,
  COMPED: 7,
  PAID: 8,
  V5_LINKED: 11,
  ACTIVE_PARKING_PAGE: 12,
  RESOLD: 13,
  RESOLD_GRACE: 14,
  ENTERPRISE: 15,
} as const;

export const WebsiteType = {
  CLASSIC: 1,
  COVER_PAGE: 2,
  PARKING_PAGE: 3,
  COMMERCE: 4,
  ENTERPRISE: 5,
} as const;
export type WebsiteType = (typeof WebsiteType)[keyof typeof WebsiteType];

/** Record types of content items, as the template engine's predicates know them. */
export const RecordType = {
  TEXT: 1,
  IMAGE: 2,
  QUOTE: 4,
  LINK: 5,
  AUDIO: 7,
  VIDEO: 8,
  STORE_ITEM: 11,
  EVENT: 12,
  GALLERY: 13,
} as const;

/** Page types (SPEC §2), answered in the JSON context of every published page. */
export const PageType = {
  MAIN_CONTENT: 1,
  PAGE: 2,
  SPLASH: 3,
  CONTENT_ITEM: 50,
  NOT_FOUND: 100,
  ERROR: 101,
  SEARCH: 102,
  LOCK_SCREEN: 103,
  POPUP_OVERLAY: 104,
  PROTECTED_CONTENT: 105,
  MEMBER_AREA_ACCESS_DENIED: 106,
  SHOW_CART: 200,
  CHECKOUT: 201,
  ORDER_CONFIRMED: 202,
  DONATE: 203,
  CONTRIBUTION_CONFIRMED: 204,
  COMMERCE_CART_V2: 205,
  SUBSCRIPTION_CONFIRMED: 206,
  ORDER_RECEIVED: 207,
  MEMBERSHIP_CONFIRMED: 208,
  NEWSLETTER_UNSUBSCRIBE: 300,
  COMMERCE_EMAIL_PREVIEW: 301,
} as const;

/** Kinds of collections a site is made of (a page is a collection of kind "page"). */
export const collectionKinds = ["page", "blog", "events", "products", "gallery", "album", "folder"] as const;

export const folderBehaviors = ["index", "redirect", "none"] as const;
