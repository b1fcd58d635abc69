/**
 * Automatic discounts of a store: the owner's list and form (checked here, in plain words), the
 * discounts a cart or checkout prices with, what is known of a buyer (first order, uses), and
 * counting a use when an order takes one. How a discount prices an order is @atelier/commerce's
 * discounts.ts, shared with the cart.
 */
import {
  type AutomaticDiscount,
  DISCOUNT_KINDS,
  type DiscountCustomer,
  type DiscountKind,
  isWallTime,
} from "@atelier/commerce";
import type { OwnerDiscount } from "@atelier/owner-api";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client.js";
import type { SiteReads } from "../cart/site-reads.js";
import { compiled } from "../../db/compiled.js";
import { automaticDiscounts, discountUses, orders } from "../../db/schema.js";
import { notFound, throwFieldErrors } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { deleteSiteRow, siteRowWhere } from "../../lib/site-rows.js";

type DiscountRow = typeof automaticDiscounts.$inferSelect;

export const MSG_NO_SUCH_DISCOUNT = "No such discount.";
export const MSG_DISCOUNT_USED_UP_NOW =
  "A discount on this order has just reached its usage limit. Please review your order.";
const MAX_CENTS = 100_000_000;
const MAX_IDS = 500;

export interface DiscountInput {
  name?: string;
  kind?: string;
  value?: number;
  appliesTo?: { productIds?: string[]; categoryIds?: string[]; shippingOptionIds?: string[] };
  conditions?: { minSubtotalCents?: number; minQuantity?: number; firstOrderOnly?: boolean };
  buyXGetY?: {
    buyQuantity?: number;
    getQuantity?: number;
    getProductIds?: string[];
    getCategoryIds?: string[];
  } | null;
  startsAt?: string | null;
  endsAt?: string | null;
  usageLimit?: number | null;
  perCustomerLimit?: number | null;
  combinesWithCoupons?: boolean;
  active?: boolean;
}

export function discountJson(d: DiscountRow): OwnerDiscount {
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    value: d.value,
    appliesTo: {
      productIds: d.appliesTo.productIds,
      categoryIds: d.appliesTo.categoryIds,
      shippingOptionIds: d.appliesTo.shippingOptionIds ?? [],
    },
    conditions: d.conditions,
    buyXGetY: d.buyXGetY ?? null,
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    usageLimit: d.usageLimit,
    perCustomerLimit: d.perCustomerLimit,
    timesUsed: d.timesUsed,
    combinesWithCoupons: d.combinesWithCoupons,
    active: d.active,
  };
}

const PERCENT_KINDS: readonly string[] = ["order_percentage", "product_percentage", "buy_x_get_y"];
const AMOUNT_KINDS: readonly string[] = ["order_amount", "product_amount"];
const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;
const ids = (list: readonly string[] | undefined) => [
  ...new Set((list ?? []).map((s) => s.trim()).filter(Boolean)),
];

/** The discount a form makes, merged over what was saved; every mistake in plain words. */
function checkDiscount(input: DiscountInput, saved?: OwnerDiscount) {
  const fields: Record<string, string> = {};
  const name = (input.name ?? saved?.name ?? "").trim();
  if (!name) fields.name = "Give the discount a name shoppers will see.";
  else if (name.length > 100) fields.name = "A name is at most 100 characters.";
  const kind = input.kind ?? saved?.kind ?? "";
  if (!DISCOUNT_KINDS.includes(kind as DiscountKind)) fields.kind = "Choose what the discount gives.";
  const value = kind === "free_shipping" ? 0 : (input.value ?? saved?.value ?? 0);
  if (PERCENT_KINDS.includes(kind) && (!Number.isInteger(value) || value < 1 || value > 100))
    fields.value = "A percentage is a whole number from 1 to 100.";
  if (AMOUNT_KINDS.includes(kind) && (!Number.isInteger(value) || value < 1 || value > MAX_CENTS))
    fields.value = "Enter the amount off, more than 0.";
  const a = { ...saved?.appliesTo, ...input.appliesTo };
  const appliesTo = {
    productIds: ids(a.productIds),
    categoryIds: ids(a.categoryIds),
    shippingOptionIds: ids(a.shippingOptionIds),
  };
  if (
    appliesTo.productIds.length + appliesTo.categoryIds.length + appliesTo.shippingOptionIds.length >
    MAX_IDS
  )
    fields.appliesTo = `Choose at most ${MAX_IDS} products, categories and shipping options.`;
  if (
    (kind === "product_percentage" || kind === "product_amount") &&
    !appliesTo.productIds.length &&
    !appliesTo.categoryIds.length
  )
    fields.appliesTo = "Choose the products or categories the discount is for.";
  const c = { ...saved?.conditions, ...input.conditions };
  const conditions = {
    minSubtotalCents: c.minSubtotalCents ?? 0,
    minQuantity: c.minQuantity ?? 0,
    firstOrderOnly: c.firstOrderOnly ?? false,
  };
  if (!isCount(conditions.minSubtotalCents) || conditions.minSubtotalCents > MAX_CENTS)
    fields.minSubtotalCents = "Enter a minimum of 0 or more.";
  if (!isCount(conditions.minQuantity) || conditions.minQuantity > 9999)
    fields.minQuantity = "A minimum quantity is a whole number from 0 to 9999.";
  let buyXGetY: OwnerDiscount["buyXGetY"] = null;
  if (kind === "buy_x_get_y") {
    const b = { ...saved?.buyXGetY, ...input.buyXGetY };
    buyXGetY = {
      buyQuantity: b.buyQuantity ?? 0,
      getQuantity: b.getQuantity ?? 0,
      getProductIds: ids(b.getProductIds),
      getCategoryIds: ids(b.getCategoryIds),
    };
    if (!Number.isInteger(buyXGetY.buyQuantity) || buyXGetY.buyQuantity < 1 || buyXGetY.buyQuantity > 999)
      fields.buyQuantity = "Enter how many the customer buys, from 1 to 999.";
    if (!Number.isInteger(buyXGetY.getQuantity) || buyXGetY.getQuantity < 1 || buyXGetY.getQuantity > 999)
      fields.getQuantity = "Enter how many the customer gets, from 1 to 999.";
  }
  const startsAt = input.startsAt !== undefined ? input.startsAt || null : (saved?.startsAt ?? null);
  const endsAt = input.endsAt !== undefined ? input.endsAt || null : (saved?.endsAt ?? null);
  if (startsAt && !isWallTime(startsAt)) fields.startsAt = "Enter the start as a date and a time.";
  if (endsAt && !isWallTime(endsAt)) fields.endsAt = "Enter the end as a date and a time.";
  else if (startsAt && endsAt && endsAt <= startsAt) fields.endsAt = "The end must be after the start.";
  const usageLimit = input.usageLimit !== undefined ? input.usageLimit : (saved?.usageLimit ?? null);
  const perCustomerLimit =
    input.perCustomerLimit !== undefined ? input.perCustomerLimit : (saved?.perCustomerLimit ?? null);
  if (usageLimit !== null && (!Number.isInteger(usageLimit) || usageLimit < 1))
    fields.usageLimit = "A limit is 1 or more, or empty for no limit.";
  if (perCustomerLimit !== null && (!Number.isInteger(perCustomerLimit) || perCustomerLimit < 1))
    fields.perCustomerLimit = "A limit per customer is 1 or more, or empty for no limit.";
  throwFieldErrors(fields);
  return {
    name,
    kind,
    value,
    appliesTo,
    conditions,
    buyXGetY,
    startsAt,
    endsAt,
    usageLimit,
    perCustomerLimit,
    combinesWithCoupons: input.combinesWithCoupons ?? saved?.combinesWithCoupons ?? false,
    active: input.active ?? saved?.active ?? true,
  };
}

export async function listDiscounts(db: Db, websiteId: string): Promise<OwnerDiscount[]> {
  const rows = await db
    .select()
    .from(automaticDiscounts)
    .where(eq(automaticDiscounts.websiteId, websiteId))
    .orderBy(asc(automaticDiscounts.createdAt), asc(automaticDiscounts.id));
  return rows.map(discountJson);
}

export async function getDiscount(db: Db | Tx, websiteId: string, id: string): Promise<OwnerDiscount> {
  const [row] = await db
    .select()
    .from(automaticDiscounts)
    .where(siteRowWhere(automaticDiscounts, websiteId, id));
  if (!row) throw notFound(MSG_NO_SUCH_DISCOUNT);
  return discountJson(row);
}

export async function createDiscount(db: Db, websiteId: string, input: DiscountInput, now: Date) {
  const v = checkDiscount(input);
  const [row] = await db
    .insert(automaticDiscounts)
    .values({ id: newId(), websiteId, ...v, createdAt: now })
    .returning();
  return discountJson(row!);
}

export async function updateDiscount(db: Db, websiteId: string, id: string, input: DiscountInput) {
  return db.transaction(async (tx) => {
    const saved = await getDiscount(tx, websiteId, id);
    const v = checkDiscount(input, saved);
    const [row] = await tx
      .update(automaticDiscounts)
      .set(v)
      .where(siteRowWhere(automaticDiscounts, websiteId, id))
      .returning();
    return discountJson(row!);
  });
}

export async function deleteDiscount(db: Db, websiteId: string, id: string) {
  await deleteSiteRow(db, automaticDiscounts, websiteId, id, MSG_NO_SUCH_DISCOUNT);
}

const activeDiscountsQuery = (db: Db) =>
  db
    .select()
    .from(automaticDiscounts)
    .where(
      and(
        eq(automaticDiscounts.websiteId, sql.placeholder("websiteId")),
        eq(automaticDiscounts.active, true),
      ),
    )
    .orderBy(asc(automaticDiscounts.createdAt), asc(automaticDiscounts.id));
const activeDiscountRows = compiled("discounts_active", activeDiscountsQuery);
const activeDiscountRowsLocked = compiled("discounts_active_locked", (db) =>
  activeDiscountsQuery(db).for("update"),
);

/** The store's active discounts, as the pricing rule reads them (locked when an order is taken). */
export async function activeDiscounts(
  db: Db | Tx,
  websiteId: string,
  opts: { lock?: boolean } = {},
): Promise<AutomaticDiscount[]> {
  const rows = opts.lock
    ? await activeDiscountRowsLocked(db, { websiteId })
    : await activeDiscountRows(db, { websiteId });
  return rows.map((r) => ({ ...discountJson(r), buyXGetY: r.buyXGetY ?? null }));
}

/**
 * The store's active discounts, kept per site content version (an owner's change to one bumps it:
 * migration 0033), but read afresh when one has a usage limit: an order counting a use of a
 * discount does not bump the version, and a used-up discount must stop applying at once.
 */
export async function keptActiveDiscounts(
  db: Db | Tx,
  reads: Pick<SiteReads, "site" | "keep">,
): Promise<AutomaticDiscount[]> {
  const kept = await reads.keep("automatic-discounts", db, (d) => activeDiscounts(d, reads.site.id));
  return kept.some((d) => d.usageLimit != null) ? activeDiscounts(db, reads.site.id) : kept;
}

/** What the store knows of a buyer by email: orders placed before and uses of each discount. */
export async function discountCustomer(
  db: Db | Tx,
  websiteId: string,
  email: string | undefined,
): Promise<DiscountCustomer | undefined> {
  const e = email?.trim().toLowerCase();
  if (!e) return undefined;
  const [placed] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.websiteId, websiteId), sql`lower(${orders.email}) = ${e}`));
  const uses = await db
    .select({ id: discountUses.discountId, n: sql<number>`count(*)::int` })
    .from(discountUses)
    .where(and(eq(discountUses.websiteId, websiteId), eq(discountUses.email, e)))
    .groupBy(discountUses.discountId);
  return {
    ordersPlaced: Number(placed?.n ?? 0),
    usesByDiscount: Object.fromEntries(uses.map((u) => [u.id, Number(u.n)])),
  };
}

/**
 * Counts one use of a discount by an order, in the order's transaction: a conditional update, so
 * that under any concurrency no more orders carry it than its limit allows. False when it is used up.
 */
export async function takeDiscountUse(
  tx: Tx,
  websiteId: string,
  discountId: string,
  use: { orderId: string; email: string; now: Date; perCustomerLimit: number | null },
): Promise<boolean> {
  const email = use.email.trim().toLowerCase();
  const done = await tx
    .update(automaticDiscounts)
    .set({ timesUsed: sql`${automaticDiscounts.timesUsed} + 1` })
    .where(
      siteRowWhere(
        automaticDiscounts,
        websiteId,
        discountId,
        sql`(${automaticDiscounts.usageLimit} is null or ${automaticDiscounts.timesUsed} < ${automaticDiscounts.usageLimit})`,
      ),
    )
    .returning({ id: automaticDiscounts.id });
  if (!done.length) return false;
  if (use.perCustomerLimit != null) {
    // The row is locked now: this count sees every other order's committed use.
    const [mine] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(discountUses)
      .where(
        and(
          eq(discountUses.websiteId, websiteId),
          eq(discountUses.discountId, discountId),
          eq(discountUses.email, email),
        ),
      );
    if (Number(mine?.n ?? 0) >= use.perCustomerLimit) return false;
  }
  await tx.insert(discountUses).values({
    id: newId(),
    websiteId,
    discountId,
    orderId: use.orderId,
    email,
    createdAt: use.now,
  });
  return true;
}
