/**
 * Shipping options of a store (SPEC §3 cart: shippingOptions, selectedShippingOption,
 * shippingLocation). A store has rules of three kinds:
 * - flat: one price per order;
 * - weight: a base price plus a price per started kilogram of the physical goods;
 * - free: no charge once the (discounted) subtotal reaches an amount.
 * A rule serves the countries it lists, or everywhere when it lists none, and only orders whose
 * discounted subtotal reaches its minimum. Everything is integer cents and grams.
 */

export type ShippingRuleKind = "flat" | "weight" | "free";

export const SHIPPING_RULE_KINDS: readonly ShippingRuleKind[] = ["flat", "weight", "free"];

export interface ShippingRule {
  id: string;
  name: string;
  kind: ShippingRuleKind | string;
  priceCents: number;
  perKgCents: number;
  minSubtotalCents: number;
  /** ISO 3166-1 alpha-2 codes; empty means every country. */
  countries: readonly string[];
  ordering?: number;
}

export interface ShippingLocation {
  country?: string;
  state?: string;
  postalCode?: string;
  city?: string;
}

export interface ShippingOption {
  id: string;
  name: string;
  kind: ShippingRuleKind;
  costCents: number;
}

export interface ShippingQuoteInput {
  /** Subtotal after discounts, in cents: what "free above an amount" compares with. */
  subtotalCents: number;
  /** Weight of the goods that ship, in grams. */
  weightGrams: number;
  /** Where the order goes; without a country only rules that serve everywhere apply. */
  location?: ShippingLocation;
}

export const MSG_NO_SHIPPING_TO_COUNTRY = "Sorry, we do not ship to that country.";
export const MSG_UNKNOWN_SHIPPING_OPTION = "That shipping option is not available for this order.";

/** ISO 3166-1 alpha-2 country codes (the officially assigned ones). */
export const ISO_COUNTRY_CODES: readonly string[] = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
  "CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
  "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
  "KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT " +
  "MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
  "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG " +
  "UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
).split(" ");
const ISO_COUNTRIES = new Set(ISO_COUNTRY_CODES);

/** Whether a code (any case, trimmed) is an assigned ISO 3166-1 alpha-2 country code. */
export function isCountryCode(code: string | undefined): boolean {
  return ISO_COUNTRIES.has(normalizeCountry(code));
}

/** Normalizes a country code for comparison ("us " → "US"). */
export function normalizeCountry(code: string | undefined): string {
  return (code ?? "").trim().toUpperCase();
}

/** Kilograms to charge for: every started kilogram counts, nothing ships for free by weight. */
export function chargeableKilograms(weightGrams: number): number {
  if (!Number.isSafeInteger(weightGrams) || weightGrams < 0)
    throw new RangeError("weightGrams must be a non-negative integer");
  return Math.ceil(weightGrams / 1000);
}

/** Whether a rule serves a country (rules without countries serve everywhere). */
export function servesCountry(rule: Pick<ShippingRule, "countries">, country: string | undefined): boolean {
  if (rule.countries.length === 0) return true;
  const wanted = normalizeCountry(country);
  return wanted !== "" && rule.countries.some((c) => normalizeCountry(c) === wanted);
}

/** The cost of one rule for an order, or undefined when the rule does not apply to it. */
export function ruleCost(rule: ShippingRule, input: ShippingQuoteInput): number | undefined {
  const kind = rule.kind as ShippingRuleKind;
  if (!SHIPPING_RULE_KINDS.includes(kind)) return undefined;
  if (!servesCountry(rule, input.location?.country)) return undefined;
  if (input.subtotalCents < rule.minSubtotalCents) return undefined;
  switch (kind) {
    case "flat":
      return rule.priceCents;
    case "weight":
      return rule.priceCents + rule.perKgCents * chargeableKilograms(input.weightGrams);
    case "free":
      return 0;
  }
}

/**
 * The options a buyer can choose from, cheapest first (ties keep the store's order). Each
 * option's id is its rule's id.
 */
export function shippingOptions(rules: readonly ShippingRule[], input: ShippingQuoteInput): ShippingOption[] {
  const ordered = [...rules].sort((a, b) => (a.ordering ?? 0) - (b.ordering ?? 0));
  const out: ShippingOption[] = [];
  for (const rule of ordered) {
    const cost = ruleCost(rule, input);
    if (cost === undefined) continue;
    out.push({ id: rule.id, name: rule.name, kind: rule.kind as ShippingRuleKind, costCents: cost });
  }
  // Array.prototype.sort is stable: equal costs keep the store's ordering.
  return out.sort((a, b) => a.costCents - b.costCents);
}

export type ShippingChoice =
  | { ok: true; option: ShippingOption | undefined; options: ShippingOption[] }
  | { ok: false; error: string; options: ShippingOption[] };

/**
 * Picks the shipping option of an order: the one asked for, else the cheapest. An order that
 * needs no shipping gets none; one that needs shipping where no rule serves it is refused.
 */
export function chooseShipping(
  rules: readonly ShippingRule[],
  input: ShippingQuoteInput & { requiresShipping: boolean; optionId?: string },
): ShippingChoice {
  if (!input.requiresShipping) return { ok: true, option: undefined, options: [] };
  const options = shippingOptions(rules, input);
  if (input.optionId) {
    const chosen = options.find((o) => o.id === input.optionId);
    if (!chosen) return { ok: false, error: MSG_UNKNOWN_SHIPPING_OPTION, options };
    return { ok: true, option: chosen, options };
  }
  if (options.length === 0) {
    // Without a country yet, the buyer simply has not said where the order goes.
    if (!normalizeCountry(input.location?.country)) return { ok: true, option: undefined, options };
    return { ok: false, error: MSG_NO_SHIPPING_TO_COUNTRY, options };
  }
  return { ok: true, option: options[0], options };
}
