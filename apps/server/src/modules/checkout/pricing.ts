/**
 * Prices a checkout with the store's rules: loads shipping rules, tax rules, the coupons and
 * gift cards the buyer typed, and runs the shared pure rules of @atelier/commerce on them.
 * One code field takes both coupons and gift-card codes.
 */
import {
  type CheckoutPricing,
  type Coupon,
  type InvalidCoupon,
  type ShippingLocation,
  normalizeCode,
  priceCheckout,
} from "@atelier/commerce";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { coupons, shippingRules, taxRules } from "../../db/schema.js";
import { type GiftCard, giftCardsByCodes, looksLikeGiftCardCode } from "./gift-cards.js";
import type { CheckoutLine } from "./store.js";
import type { SiteReads } from "../cart/site-reads.js";
import { activeDiscounts, discountCustomer, keptActiveDiscounts } from "../discounts/service.js";

export const MSG_GIFT_CARD_EMPTY = "This gift card has no balance left.";
const MSG_GIFT_CARD_CURRENCY = "This gift card is in another currency.";
const MSG_GIFT_CARD_SUBSCRIPTION = "Gift cards cannot pay for subscriptions.";
const MAX_CODES = 10;

interface PricingOptions {
  location?: ShippingLocation;
  shippingOptionId?: string;
  codes?: readonly string[];
  now: Date;
  currency: string;
  /** Lock the coupons and gift cards read (when the order is being taken). */
  lock?: boolean;
  /** The store's shipping and tax rules, when the caller has them (else they are read). */
  rules?: StoreRules;
  /** The site's reads at this call's version: the active discounts are kept with them. */
  reads?: Pick<SiteReads, "site" | "keep">;
  /** The site's time zone (automatic discounts' schedules). */
  timeZone: string;
  /** The buyer's email, when known (first-order and per-customer discount conditions). */
  email?: string;
}

export interface AppliedGiftCard {
  id: string;
  last4: string;
  amountCents: number;
  /** What is left on the card after this order. */
  balanceCents: number;
}

export type CheckoutQuote = Omit<CheckoutPricing, "appliedGiftCards"> & {
  /** The codes as entered (coupons and gift cards). */
  coupons: string[];
  appliedGiftCards: AppliedGiftCard[];
  /** Coupons as rows (to count their use when the order is taken). */
  couponRows: Coupon[];
  /** The per-customer limit of the automatic discount applied (checked again when its use is counted). */
  discountPerCustomerLimit: number | null;
};

export type StoreRules = Awaited<ReturnType<typeof storeRulesOf>>;

/** Shipping rules and tax rules of a store. */
export async function storeRulesOf(db: Db | Tx, websiteId: string) {
  const [ship, tax] = await Promise.all([
    db
      .select()
      .from(shippingRules)
      .where(eq(shippingRules.websiteId, websiteId))
      .orderBy(asc(shippingRules.ordering)),
    db.select().from(taxRules).where(eq(taxRules.websiteId, websiteId)),
  ]);
  return { shippingRules: ship, taxRules: tax };
}

/** The store's rules at the version of `reads`, read once per version. */
export function keptStoreRules(db: Db | Tx, reads: SiteReads): Promise<StoreRules> {
  return reads.keep("store-rules", db, (d) => storeRulesOf(d, reads.site.id));
}

/** Countries the store ships to; null when some rule ships everywhere (or there are no rules). */
export function shippingCountries(rules: readonly { countries: string[] }[]): string[] | null {
  if (rules.length === 0 || rules.some((r) => r.countries.length === 0)) return null;
  return [...new Set(rules.flatMap((r) => r.countries.map((c) => c.toUpperCase())))].sort();
}

export async function priceLines(
  db: Db | Tx,
  websiteId: string,
  lines: readonly CheckoutLine[],
  opts: PricingOptions,
): Promise<CheckoutQuote> {
  const entered = [...new Set((opts.codes ?? []).map(normalizeCode).filter(Boolean))].slice(0, MAX_CODES);
  const rules = opts.rules ?? (await storeRulesOf(db, websiteId));
  const couponQuery = entered.length
    ? db
        .select()
        .from(coupons)
        .where(and(eq(coupons.websiteId, websiteId), inArray(sql`upper(${coupons.code})`, entered)))
    : undefined;
  const couponRows = couponQuery ? (opts.lock ? await couponQuery.for("update") : await couponQuery) : [];
  const couponCodes = new Set(couponRows.map((c) => normalizeCode(c.code)));
  const giftCandidates = entered.filter((c) => !couponCodes.has(c) && looksLikeGiftCardCode(c));
  const cards = await giftCardsByCodes(db, websiteId, giftCandidates, { lock: opts.lock });

  const extraInvalid: InvalidCoupon[] = [];
  const usableCards: GiftCard[] = [];
  const hasSubscription = lines.some((l) => l.isSubscription);
  for (const code of giftCandidates) {
    const card = cards.get(code);
    if (!card) continue;
    if (hasSubscription) extraInvalid.push({ code, reason: MSG_GIFT_CARD_SUBSCRIPTION });
    else if (card.currency !== opts.currency) extraInvalid.push({ code, reason: MSG_GIFT_CARD_CURRENCY });
    else if (card.balanceCents <= 0) extraInvalid.push({ code, reason: MSG_GIFT_CARD_EMPTY });
    else usableCards.push(card);
  }
  const cardCodes = new Set(giftCandidates.filter((c) => cards.has(c)));
  // One after the other: `db` may be a transaction.
  const discounts = opts.reads
    ? await keptActiveDiscounts(db, opts.reads)
    : await activeDiscounts(db, websiteId);
  const customer = discounts.length ? await discountCustomer(db, websiteId, opts.email) : undefined;

  const pricing = priceCheckout({
    lines: lines.map((l) => ({
      unitPriceCents: l.unitPriceCents,
      quantity: l.quantity,
      productType: l.productType,
      weightGrams: l.weightGrams,
      itemId: l.itemId,
      categories: l.categories,
    })),
    currency: opts.currency,
    now: opts.now,
    location: opts.location,
    shippingRules: rules.shippingRules,
    shippingOptionId: opts.shippingOptionId,
    taxRules: rules.taxRules,
    coupons: couponRows,
    couponCodes: entered.filter((c) => !cardCodes.has(c)),
    giftCards: usableCards.map((c) => ({ id: c.id, balanceCents: c.balanceCents })),
    automaticDiscounts: discounts,
    timeZone: opts.timeZone,
    customer,
  });
  const byId = new Map(usableCards.map((c) => [c.id, c]));
  return {
    ...pricing,
    coupons: entered,
    invalidCoupons: [...pricing.invalidCoupons, ...extraInvalid],
    appliedGiftCards: pricing.appliedGiftCards.map((g) => {
      const card = byId.get(g.id)!;
      return {
        id: g.id,
        last4: card.codeLast4,
        amountCents: g.amountCents,
        balanceCents: card.balanceCents - g.amountCents,
      };
    }),
    couponRows,
    discountPerCustomerLimit:
      discounts.find((d) => d.id === pricing.automaticDiscount?.id)?.perCustomerLimit ?? null,
  };
}
