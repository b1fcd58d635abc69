/**
 * Sales tax by location (SPEC §3 cart: applicableTaxRules, taxCents). A store's tax rule names
 * a country and optionally a state or region, with a rate in basis points (825 = 8.25%); a
 * rule without a region covers the whole country. Every rule that matches the shipping
 * location applies (a country rate and a state rate add up), each computed on the taxable
 * amount and rounded half up to the cent on its own. A rule may also tax shipping.
 */
import { normalizeCountry } from "./shipping.js";

export interface TaxRule {
  id: string;
  name: string;
  country: string;
  region: string | null;
  rateBasisPoints: number;
  appliesToShipping: boolean;
}

export interface AppliedTaxRule {
  id: string;
  name: string;
  country: string;
  region: string | null;
  rateBasisPoints: number;
  /** The rate as a percent string: 825 → "8.25". */
  ratePercent: string;
  appliesToShipping: boolean;
  taxCents: number;
}

export interface TaxInput {
  /** Taxable goods after discounts, in cents (gift cards are not taxable). */
  taxableCents: number;
  shippingCents: number;
  country?: string;
  state?: string;
}

export interface TaxResult {
  taxCents: number;
  applicableTaxRules: AppliedTaxRule[];
}

function normalizeRegion(region: string | null | undefined): string {
  return (region ?? "").trim().toUpperCase();
}

/** The rate of basis points as a percent string without trailing zeros: 825 → "8.25", 2000 → "20". */
export function basisPointsToPercent(bp: number): string {
  if (!Number.isSafeInteger(bp) || bp < 0) throw new RangeError("rate must be a non-negative integer");
  const whole = Math.trunc(bp / 100);
  const frac = bp % 100;
  if (frac === 0) return String(whole);
  return `${whole}.${String(frac).padStart(2, "0").replace(/0$/, "")}`;
}

/** Tax on an amount at a rate in basis points, rounded half up (exact, through BigInt). */
export function taxAtBasisPoints(amountCents: number, rateBasisPoints: number): number {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0)
    throw new RangeError("amountCents must be a non-negative integer");
  if (!Number.isSafeInteger(rateBasisPoints) || rateBasisPoints < 0)
    throw new RangeError("rate must be a non-negative integer");
  return Number((BigInt(amountCents) * BigInt(rateBasisPoints) + 5000n) / 10000n);
}

/** Whether a rule covers a location: same country, and the same region unless the rule has none. */
export function taxRuleApplies(rule: Pick<TaxRule, "country" | "region">, country?: string, state?: string) {
  const c = normalizeCountry(country);
  if (!c || normalizeCountry(rule.country) !== c) return false;
  const region = normalizeRegion(rule.region);
  return region === "" || region === normalizeRegion(state);
}

/** The tax of an order at a location, with each rule that applied and its share. */
export function computeTax(rules: readonly TaxRule[], input: TaxInput): TaxResult {
  const applicable: AppliedTaxRule[] = [];
  let total = 0;
  const taxable = Math.max(0, input.taxableCents);
  for (const rule of rules) {
    if (!taxRuleApplies(rule, input.country, input.state)) continue;
    const base = taxable + (rule.appliesToShipping ? Math.max(0, input.shippingCents) : 0);
    const taxCents = taxAtBasisPoints(base, rule.rateBasisPoints);
    total += taxCents;
    applicable.push({
      id: rule.id,
      name: rule.name,
      country: normalizeCountry(rule.country),
      region: rule.region ? normalizeRegion(rule.region) : null,
      rateBasisPoints: rule.rateBasisPoints,
      ratePercent: basisPointsToPercent(rule.rateBasisPoints),
      appliesToShipping: rule.appliesToShipping,
      taxCents,
    });
  }
  return { taxCents: total, applicableTaxRules: applicable };
}
