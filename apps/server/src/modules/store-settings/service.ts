/**
 * Store settings for owners (SPEC §3): currency, the CLDR money format, every store setting,
 * shipping rules, tax rules and coupons. The rules themselves (how a rule prices an order) are
 * in @atelier/commerce; this module keeps them valid.
 */
import {
  COUPON_KINDS,
  SHIPPING_RULE_KINDS,
  SUPPORTED_CURRENCIES,
  type ShippingRule,
  type TaxRule,
  normalizeCode,
  normalizeCountry,
} from "@atelier/commerce";
import { type OwnerCoupon, SOLD_OUT_TEXT_MAX_LENGTH, type StoreSettings } from "@atelier/owner-api";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import { coupons, shippingRules, storeSettings, taxRules } from "../../db/schema.js";
import { ApiError, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { nextOrdering } from "../../lib/ordering.js";
import { deleteSiteRow, updateSiteRow } from "../../lib/site-rows.js";
import { storeOptionsJson } from "../../render/serialize.js";
import { updateSiteSettings, siteSettings } from "../owner-sites/service.js";

const MEASUREMENT_STANDARDS = ["imperial", "metric"] as const;
const MAX_CENTS = 100_000_000;

type StoreRow = typeof storeSettings.$inferSelect;

function storeJson(s: StoreRow, useCLDRMoneyFormat: boolean): StoreSettings {
  return { currency: s.currency, useCLDRMoneyFormat, ...storeOptionsJson(s) };
}

async function storeRow(db: Db | Tx, websiteId: string): Promise<StoreRow> {
  const [row] = await db.select().from(storeSettings).where(eq(storeSettings.websiteId, websiteId));
  if (row) return row;
  await db.insert(storeSettings).values({ websiteId }).onConflictDoNothing();
  return (await db.select().from(storeSettings).where(eq(storeSettings.websiteId, websiteId)))[0]!;
}

export async function getStoreSettings(db: Db, websiteId: string): Promise<StoreSettings> {
  const [row, site] = await Promise.all([storeRow(db, websiteId), siteSettings(db, websiteId)]);
  return storeJson(row, site.useCLDRMoneyFormat);
}

interface StorePatch {
  currency?: string;
  useCLDRMoneyFormat?: boolean;
  multipleQuantityAllowedForServices?: boolean;
  customSoldOutText?: string;
  restockNotificationsEnabled?: boolean;
  restockNotificationsSuccessText?: string;
  soldOutVariantsDropdownDisabled?: boolean;
  measurementStandard?: string;
}

export async function updateStoreSettings(
  db: Db,
  websiteId: string,
  patch: StorePatch,
): Promise<StoreSettings> {
  const fields: Record<string, string> = {};
  const set: Partial<typeof storeSettings.$inferInsert> = {};
  if (patch.currency !== undefined) {
    const code = patch.currency.trim().toUpperCase();
    if (!SUPPORTED_CURRENCIES.some((c) => c.code === code))
      fields.currency = "Choose one of the supported currencies.";
    else set.currency = code;
  }
  for (const k of [
    "multipleQuantityAllowedForServices",
    "restockNotificationsEnabled",
    "soldOutVariantsDropdownDisabled",
  ] as const) {
    if (patch[k] !== undefined) set[k] = patch[k];
  }
  if (patch.customSoldOutText !== undefined) {
    if (patch.customSoldOutText.length > SOLD_OUT_TEXT_MAX_LENGTH)
      fields.customSoldOutText = `At most ${SOLD_OUT_TEXT_MAX_LENGTH} characters.`;
    else set.customSoldOutText = patch.customSoldOutText.trim() || null;
  }
  if (patch.restockNotificationsSuccessText !== undefined) {
    if (patch.restockNotificationsSuccessText.length > 500)
      fields.restockNotificationsSuccessText = "At most 500 characters.";
    else set.restockNotificationsSuccessText = patch.restockNotificationsSuccessText.trim() || null;
  }
  if (patch.measurementStandard !== undefined) {
    if (!(MEASUREMENT_STANDARDS as readonly string[]).includes(patch.measurementStandard))
      fields.measurementStandard = "Choose imperial or metric.";
    else set.measurementStandard = patch.measurementStandard;
  }
  throwFieldErrors(fields);
  await db.transaction(async (tx) => {
    await storeRow(tx, websiteId);
    if (Object.keys(set).length)
      await tx
        .update(storeSettings)
        .set({ ...set, updatedAt: sql`now()` })
        .where(eq(storeSettings.websiteId, websiteId));
  });
  if (patch.useCLDRMoneyFormat !== undefined)
    await updateSiteSettings(db, websiteId, { useCLDRMoneyFormat: patch.useCLDRMoneyFormat });
  return getStoreSettings(db, websiteId);
}

// ─── Shipping rules ─────────────────────────────────────────────────────────────────────────

export interface ShippingInput {
  name: string;
  kind: string;
  priceCents?: number;
  perKgCents?: number;
  minSubtotalCents?: number;
  countries?: string[];
}

const COUNTRY = /^[A-Z]{2}$/;

function checkCountries(list: string[] | undefined, fields: Record<string, string>, key: string): string[] {
  const out = [...new Set((list ?? []).map((c) => normalizeCountry(c)).filter(Boolean))];
  if (out.some((c) => !COUNTRY.test(c))) fields[key] = "Use two-letter country codes such as US, CA or GB.";
  return out;
}

const isCents = (v: number | undefined) =>
  v === undefined || (Number.isInteger(v) && v >= 0 && v <= MAX_CENTS);

function checkShipping(input: ShippingInput) {
  const fields: Record<string, string> = {};
  if (!input.name.trim() || input.name.length > 100)
    fields.name = "Give the rule a name of up to 100 characters.";
  if (!(SHIPPING_RULE_KINDS as readonly string[]).includes(input.kind))
    fields.kind = "Choose flat rate, by weight or free.";
  for (const k of ["priceCents", "perKgCents", "minSubtotalCents"] as const)
    if (!isCents(input[k])) fields[k] = "Enter an amount of 0 or more.";
  const countries = checkCountries(input.countries, fields, "countries");
  throwFieldErrors(fields);
  return {
    name: input.name.trim(),
    kind: input.kind,
    priceCents: input.kind === "free" ? 0 : (input.priceCents ?? 0),
    perKgCents: input.kind === "weight" ? (input.perKgCents ?? 0) : 0,
    minSubtotalCents: input.minSubtotalCents ?? 0,
    countries,
  };
}

/**
 * Shipping and tax rules changed: the store settings row is touched in the same transaction, so
 * the site's content version moves on (migration 0002's trigger) and the rules kept in memory
 * per version (modules/cart/site-reads.ts) are read again.
 */
async function rulesChanged<T>(db: Db, websiteId: string, change: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const result = await change(tx);
    await tx.update(storeSettings).set({ websiteId }).where(eq(storeSettings.websiteId, websiteId));
    return result;
  });
}

export async function listShipping(db: Db, websiteId: string): Promise<ShippingRule[]> {
  return db
    .select()
    .from(shippingRules)
    .where(eq(shippingRules.websiteId, websiteId))
    .orderBy(asc(shippingRules.ordering));
}

export async function createShipping(db: Db, websiteId: string, input: ShippingInput): Promise<ShippingRule> {
  const v = checkShipping(input);
  return rulesChanged(db, websiteId, async (tx) => {
    const ordering = await nextOrdering(tx, shippingRules.ordering, eq(shippingRules.websiteId, websiteId));
    const [row] = await tx
      .insert(shippingRules)
      .values({ id: newId(), websiteId, ordering, ...v })
      .returning();
    return row!;
  });
}

export async function updateShipping(
  db: Db,
  websiteId: string,
  id: string,
  input: ShippingInput,
): Promise<ShippingRule> {
  const v = checkShipping(input);
  return rulesChanged(db, websiteId, (tx) =>
    updateSiteRow(tx, shippingRules, websiteId, id, v, "No such shipping rule."),
  );
}

export async function deleteShipping(db: Db, websiteId: string, id: string) {
  await rulesChanged(db, websiteId, (tx) =>
    deleteSiteRow(tx, shippingRules, websiteId, id, "No such shipping rule."),
  );
}

// ─── Tax rules ──────────────────────────────────────────────────────────────────────────────

export interface TaxInput {
  name: string;
  country: string;
  region?: string | null;
  rateBasisPoints: number;
  appliesToShipping?: boolean;
}

function checkTax(input: TaxInput) {
  const fields: Record<string, string> = {};
  if (!input.name.trim() || input.name.length > 100)
    fields.name = "Give the rule a name of up to 100 characters.";
  const country = normalizeCountry(input.country);
  if (!COUNTRY.test(country)) fields.country = "Use a two-letter country code such as US, CA or GB.";
  const region = input.region?.trim().toUpperCase() || null;
  if (region && !/^[A-Z0-9-]{1,10}$/.test(region))
    fields.region = "Use a state or region code such as NY or ON.";
  if (!Number.isInteger(input.rateBasisPoints) || input.rateBasisPoints < 0 || input.rateBasisPoints > 10000)
    fields.rateBasisPoints = "The rate is a percentage from 0 to 100 with at most two decimals.";
  throwFieldErrors(fields);
  return {
    name: input.name.trim(),
    country,
    region,
    rateBasisPoints: input.rateBasisPoints,
    appliesToShipping: Boolean(input.appliesToShipping),
  };
}

export async function listTax(db: Db, websiteId: string): Promise<TaxRule[]> {
  return db
    .select()
    .from(taxRules)
    .where(eq(taxRules.websiteId, websiteId))
    .orderBy(asc(taxRules.country), asc(taxRules.region));
}

export async function createTax(db: Db, websiteId: string, input: TaxInput): Promise<TaxRule> {
  const v = checkTax(input);
  return rulesChanged(db, websiteId, async (tx) => {
    const [row] = await tx
      .insert(taxRules)
      .values({ id: newId(), websiteId, ...v })
      .returning();
    return row!;
  });
}

export async function updateTax(db: Db, websiteId: string, id: string, input: TaxInput): Promise<TaxRule> {
  const v = checkTax(input);
  return rulesChanged(db, websiteId, (tx) =>
    updateSiteRow(tx, taxRules, websiteId, id, v, "No such tax rule."),
  );
}

export async function deleteTax(db: Db, websiteId: string, id: string) {
  await rulesChanged(db, websiteId, (tx) => deleteSiteRow(tx, taxRules, websiteId, id, "No such tax rule."));
}

// ─── Coupons ────────────────────────────────────────────────────────────────────────────────

export interface CouponInput {
  code: string;
  kind: string;
  amount?: number;
  minSubtotalCents?: number;
  startsAt?: number | null;
  endsAt?: number | null;
  usageLimit?: number | null;
  active?: boolean;
}

function couponJson(c: typeof coupons.$inferSelect): OwnerCoupon {
  return {
    id: c.id,
    code: c.code,
    kind: c.kind,
    amount: c.amount,
    minSubtotalCents: c.minSubtotalCents,
    startsAt: c.startsAt?.getTime() ?? null,
    endsAt: c.endsAt?.getTime() ?? null,
    usageLimit: c.usageLimit,
    timesUsed: c.timesUsed,
    active: c.active,
  };
}

function checkCoupon(input: CouponInput) {
  const fields: Record<string, string> = {};
  const code = normalizeCode(input.code);
  if (!/^[A-Z0-9_-]{3,40}$/.test(code)) fields.code = "A code is 3 to 40 letters, digits, - or _.";
  if (!(COUPON_KINDS as readonly string[]).includes(input.kind))
    fields.kind = "Choose percent off, amount off or free shipping.";
  const amount = input.amount ?? 0;
  if (input.kind === "percent" && (!Number.isInteger(amount) || amount < 1 || amount > 100))
    fields.amount = "A percentage is a whole number from 1 to 100.";
  if (input.kind === "fixed" && (!Number.isInteger(amount) || amount < 1 || amount > MAX_CENTS))
    fields.amount = "Enter the amount off.";
  if (!isCents(input.minSubtotalCents)) fields.minSubtotalCents = "Enter an amount of 0 or more.";
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt)
    fields.endsAt = "The end must be after the start.";
  if (
    input.usageLimit !== undefined &&
    input.usageLimit !== null &&
    (!Number.isInteger(input.usageLimit) || input.usageLimit < 1)
  )
    fields.usageLimit = "A limit is 1 or more, or empty for no limit.";
  throwFieldErrors(fields);
  return {
    code,
    kind: input.kind,
    amount: input.kind === "free_shipping" ? 0 : amount,
    minSubtotalCents: input.minSubtotalCents ?? 0,
    startsAt: input.startsAt ? new Date(input.startsAt) : null,
    endsAt: input.endsAt ? new Date(input.endsAt) : null,
    usageLimit: input.usageLimit ?? null,
    active: input.active ?? true,
  };
}

export async function listCoupons(db: Db, websiteId: string) {
  const rows = await db
    .select()
    .from(coupons)
    .where(eq(coupons.websiteId, websiteId))
    .orderBy(asc(coupons.code));
  return rows.map(couponJson);
}

const CODE_TAKEN = "Another coupon already uses this code.";

export async function createCoupon(db: Db | Tx, websiteId: string, input: CouponInput) {
  const v = checkCoupon(input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(coupons)
      .values({ id: newId(), websiteId, ...v })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ApiError(409, "conflict", CODE_TAKEN, { code: CODE_TAKEN });
    return couponJson(row);
  });
}

export async function updateCoupon(db: Db, websiteId: string, id: string, input: CouponInput) {
  const v = checkCoupon(input);
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: coupons.id })
      .from(coupons)
      .where(and(eq(coupons.websiteId, websiteId), eq(coupons.code, v.code), ne(coupons.id, id)));
    if (clash) throw new ApiError(409, "conflict", CODE_TAKEN, { code: CODE_TAKEN });
    return couponJson(await updateSiteRow(tx, coupons, websiteId, id, v, "No such coupon."));
  });
}

export async function deleteCoupon(db: Db, websiteId: string, id: string) {
  await deleteSiteRow(db, coupons, websiteId, id, "No such coupon.");
}
