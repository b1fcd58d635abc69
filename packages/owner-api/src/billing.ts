/** The features a plan's feature set enables, by code, and their names as owners read them. */
export const Feature = {
  COMMERCE: 10,
  COMMERCE_SUBSCRIPTIONS: 42,
  AMAZON_BLOCK: 21,
  DONATION_BLOCK: 22,
  MENU_BLOCK: 23,
  OPENTABLE_BLOCK: 24,
  MEMBER_AREAS: 50,
  CUSTOM_CODE: 30,
} as const;

export type FeatureCode = (typeof Feature)[keyof typeof Feature];

export const FEATURE_NAMES: Record<FeatureCode, string> = {
  [Feature.COMMERCE]: "Online store",
  [Feature.COMMERCE_SUBSCRIPTIONS]: "Product subscriptions",
  [Feature.AMAZON_BLOCK]: "Amazon block",
  [Feature.DONATION_BLOCK]: "Donation block",
  [Feature.MENU_BLOCK]: "Menu block",
  [Feature.OPENTABLE_BLOCK]: "OpenTable block",
  [Feature.CUSTOM_CODE]: "Custom code",
  [Feature.MEMBER_AREAS]: "Member areas",
};
