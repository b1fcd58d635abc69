/**
 * Feature gates for published pages (SPEC §6, §4): the amazon, donation, menu and opentable
 * blocks need their features, the member-area block needs the member-areas flag. A feature is
 * gated when it is not enabled, or when the site is on trial and the feature is not in every plan.
 */
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { SiteStatus } from "../db/enums.js";
import { billingPlans, featureSets } from "../db/schema.js";
import type { Website } from "../modules/sites/service.js";
import { Feature } from "@atelier/owner-api";

/** The feature each gated block needs. */
const BLOCK_FEATURES: Record<string, number> = {
  amazon: Feature.AMAZON_BLOCK,
  donation: Feature.DONATION_BLOCK,
  menu: Feature.MENU_BLOCK,
  opentable: Feature.OPENTABLE_BLOCK,
  "member-area": Feature.MEMBER_AREAS,
};

/** The features a website may use now. */
export async function enabledFeatures(db: Db, site: Website): Promise<Set<number>> {
  if (!site.featureSetId) return new Set();
  const [set] = await db.select().from(featureSets).where(eq(featureSets.id, site.featureSetId));
  const enabled = new Set(set?.enabledFeatures ?? []);
  if (site.siteStatus !== SiteStatus.TRIAL || !enabled.size) return enabled;
  // On trial, only what every plan of the product line offers.
  const plans = await db
    .select({ featureSetId: billingPlans.featureSetId })
    .from(billingPlans)
    .where(eq(billingPlans.productLine, set?.productLine ?? "website"));
  const ids = [...new Set(plans.map((p) => p.featureSetId))];
  if (!ids.length) return enabled;
  const sets = await db.select().from(featureSets).where(inArray(featureSets.id, ids));
  return new Set([...enabled].filter((f) => sets.every((s) => s.enabledFeatures.includes(f))));
}

/** Whether a block of this type may be shown on a site with these features. */
export function blockAllowed(type: string, features: Set<number>): boolean {
  const needs = BLOCK_FEATURES[type];
  return needs === undefined || features.has(needs);
}
