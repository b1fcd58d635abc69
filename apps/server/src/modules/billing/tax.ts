/**
 * Tax on the site's plan charges, by the country of the owner's billing address (the saved
 * card's). A plan is a digital service sold to the owner: VAT/GST at the standard rate of the
 * owner's country where that country taxes digital services bought from abroad; none elsewhere
 * (the United States, among others, does not tax a website subscription at the federal level).
 * Rates in basis points (1/100 of a percent).
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { billingPaymentMethods } from "../../db/schema.js";

const PLAN_TAX_RATES: Readonly<Record<string, number>> = {
  // European Union VAT, standard rates.
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
  // Elsewhere in Europe.
  GB: 2000,
  CH: 810,
  NO: 2500,
  IS: 2400,
  // GST/VAT on imported digital services.
  AU: 1000,
  NZ: 1500,
  CA: 500,
  JP: 1000,
  SG: 900,
  IN: 1800,
  ZA: 1500,
  KR: 1000,
  MX: 1600,
};

/** The tax rate of plan charges for a billing country, in basis points (0 when none applies). */
function planTaxRate(country: string | null | undefined): number {
  return (country && PLAN_TAX_RATES[country.toUpperCase()]) || 0;
}

/** Tax on a plan charge (nothing on a credit or a free change). */
export function planTaxCents(subtotalCents: number, country: string | null | undefined): number {
  if (subtotalCents <= 0) return 0;
  return Math.round((subtotalCents * planTaxRate(country)) / 10_000);
}

/** The billing country of a site's saved card, if any. */
export async function billingCountryOf(db: Db, websiteId: string): Promise<string | null> {
  const [m] = await db
    .select({ country: billingPaymentMethods.billingCountry })
    .from(billingPaymentMethods)
    .where(eq(billingPaymentMethods.websiteId, websiteId));
  return m?.country ?? null;
}
