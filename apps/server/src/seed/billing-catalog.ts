import type { Tx } from "../db/client.js";
import { billingPlans, featureSets } from "../db/schema.js";
import { Feature } from "@atelier/owner-api";

/**
 * The plans and feature sets every installation offers. Feature numbers follow the product's
 * feature list (SPEC §3: features 1-65); the commerce-subscriptions feature is 42 here.
 */

export async function seedBillingCatalog(tx: Tx): Promise<void> {
  await tx
    .insert(featureSets)
    .values([
      {
        id: "personal",
        name: "Personal",
        productLine: "website",
        enabledFeatures: [Feature.MENU_BLOCK],
        limits: { pages: 50 },
      },
      {
        id: "business",
        name: "Business",
        productLine: "website",
        enabledFeatures: [Feature.COMMERCE, Feature.MENU_BLOCK, Feature.DONATION_BLOCK, Feature.CUSTOM_CODE],
        limits: {},
      },
      {
        id: "commerce-advanced",
        name: "Commerce Advanced",
        productLine: "website",
        enabledFeatures: Object.values(Feature),
        limits: {},
      },
    ])
    .onConflictDoNothing();
  await tx
    .insert(billingPlans)
    .values([
      {
        id: "personal-monthly",
        planDisplayName: "Personal",
        productLine: "website",
        featureSetId: "personal",
        priceCents: 1600,
        basePriceCents: 1600,
        billingPeriodUnit: "MONTH",
      },
      {
        id: "business-monthly",
        planDisplayName: "Business",
        productLine: "website",
        featureSetId: "business",
        priceCents: 3300,
        basePriceCents: 3300,
        billingPeriodUnit: "MONTH",
      },
      {
        id: "commerce-advanced-monthly",
        planDisplayName: "Commerce Advanced",
        productLine: "website",
        featureSetId: "commerce-advanced",
        priceCents: 4900,
        basePriceCents: 6500,
        billingPeriodUnit: "MONTH",
      },
    ])
    .onConflictDoNothing();
}
