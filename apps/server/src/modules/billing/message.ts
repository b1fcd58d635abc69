/**
 * The billing message type of SPEC §4: the site status combined with the website type
 * (WEBSITE_TRIAL, COMMERCE_PAID, COVER_PAGE_EXPIRED, …, and the resold grace period variants),
 * and the predicates built on it. Pure functions: no database, no clock.
 */
import { BillingStatus, SiteStatus, WebsiteType } from "../../db/enums.js";

const TYPE_PREFIX: Record<number, string> = {
  [WebsiteType.CLASSIC]: "WEBSITE",
  [WebsiteType.COVER_PAGE]: "COVER_PAGE",
  [WebsiteType.PARKING_PAGE]: "PARKING_PAGE",
  [WebsiteType.COMMERCE]: "COMMERCE",
  [WebsiteType.ENTERPRISE]: "ENTERPRISE",
};

const STATUS_SUFFIX: Record<number, string> = {
  [SiteStatus.TRIAL]: "TRIAL",
  [SiteStatus.PAID]: "PAID",
  [SiteStatus.EXPIRED]: "EXPIRED",
  [SiteStatus.PASTDUE]: "PAST_DUE",
  [SiteStatus.RESOLD]: "RESOLD",
  [SiteStatus.RESOLD_GRACE]: "RESOLD_GRACE_PERIOD",
};

interface BillingState {
  siteStatus: number;
  websiteType: number;
  billingStatus: number;
}

/**
 * The message type for a site, or null when there is nothing to say: a trial that is already
 * subscribed (it converts at the trial's end), or a status without billing messages (internal,
 * comped, beta, removed, enterprise, linked, parking).
 */
export function billingMessageType(s: BillingState): string | null {
  if (s.siteStatus === SiteStatus.TRIAL && s.billingStatus === BillingStatus.SUBSCRIBED) return null;
  const prefix = TYPE_PREFIX[s.websiteType];
  let suffix = STATUS_SUFFIX[s.siteStatus];
  // A resold site whose billing is in its grace period shows the grace-period variant.
  if (s.siteStatus === SiteStatus.RESOLD && s.billingStatus === BillingStatus.RESOLD_GRACE_PERIOD)
    suffix = STATUS_SUFFIX[SiteStatus.RESOLD_GRACE];
  if (!prefix || !suffix) return null;
  return `${prefix}_${suffix}`;
}

/** Active and subscribed: a paid site with a subscribed billing status. */
export function isActiveAndSubscribed(s: BillingState): boolean {
  return s.siteStatus === SiteStatus.PAID && s.billingStatus === BillingStatus.SUBSCRIBED;
}

/** On a commerce plan: internal sites, or a commerce paid or commerce grace-period message. */
export function isCommercePlan(s: BillingState): boolean {
  if (s.siteStatus === SiteStatus.INTERNAL) return true;
  const type = billingMessageType(s);
  return type === "COMMERCE_PAID" || type === "COMMERCE_RESOLD_GRACE_PERIOD";
}

/** A feature is gated when not enabled, or when the site is on trial and not every plan has it. */
export function isFeatureGated(
  feature: number,
  enabled: ReadonlySet<number>,
  onTrial: boolean,
  inEveryPlan: ReadonlySet<number>,
): boolean {
  return !enabled.has(feature) || (onTrial && !inEveryPlan.has(feature));
}

const KIND_TEXT: Record<string, string> = {
  WEBSITE: "website",
  COVER_PAGE: "cover page",
  PARKING_PAGE: "parking page",
  COMMERCE: "store",
  ENTERPRISE: "enterprise site",
};

/** The sentence the billing panel shows for a message type. */
export function billingMessageText(type: string | null): string | null {
  if (!type) return null;
  const m = /^(WEBSITE|COVER_PAGE|PARKING_PAGE|COMMERCE|ENTERPRISE)_(.+)$/.exec(type);
  if (!m) return null;
  const kind = KIND_TEXT[m[1]!]!;
  switch (m[2]) {
    case "TRIAL":
      return `Your ${kind} is on a free trial. Upgrade to a plan to keep it online after the trial ends.`;
    case "PAID":
      return `Your ${kind} is on a paid plan.`;
    case "EXPIRED":
      return `Your ${kind} has expired and is not visible to visitors. Choose a plan to bring it back.`;
    case "PAST_DUE":
      return `The last payment for your ${kind} failed. Update your payment info to keep it online.`;
    case "RESOLD":
      return `Your ${kind} is billed through the partner you bought it from.`;
    case "RESOLD_GRACE_PERIOD":
      return `Your ${kind}'s in-app subscription has ended and it is in a grace period. Choose a plan to keep it online.`;
    default:
      return null;
  }
}
