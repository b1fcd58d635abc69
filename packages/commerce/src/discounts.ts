/**
 * Automatic discounts: promotions applied without a code ("10 % off orders over $100", "free
 * shipping over $50", "buy 2 mugs, get 1 free"). One pure rule, used by the server for the cart,
 * the checkout quote and the order it takes, so the cart island shows what the buyer is charged.
 *
 * A discount has a kind and a value (a whole percent 0–100, or an amount in minor units), the
 * products or categories it is about, conditions (minimum subtotal or quantity of those goods, the
 * customer's first order), a schedule in the site's time zone, a total and a per-customer usage
 * limit. An order gets the single best discount that applies (see checkout-pricing.ts); amounts are
 * integers of minor units, percentages rounded half up once on the amount they discount.
 */
import { ProductType, parseProductType } from "./availability.js";

export type DiscountKind =
  | "order_percentage"
  | "order_amount"
  | "product_percentage"
  | "product_amount"
  | "free_shipping"
  | "buy_x_get_y";
export const DISCOUNT_KINDS: readonly DiscountKind[] = [
  "order_percentage",
  "order_amount",
  "product_percentage",
  "product_amount",
  "free_shipping",
  "buy_x_get_y",
];

export interface DiscountAppliesTo {
  /** Products (item ids) the discount is about; with categoryIds both empty: every product. */
  productIds: string[];
  /** Product categories (their names) the discount is about. */
  categoryIds: string[];
  /** free_shipping: the shipping options it makes free (empty: all). */
  shippingOptionIds?: string[];
}

export interface DiscountConditions {
  /** The goods the discount is about must cost at least this much (minor units). */
  minSubtotalCents: number;
  /** …or number at least this many units. */
  minQuantity: number;
  firstOrderOnly: boolean;
}

/** buy_x_get_y: buy `buyQuantity` of appliesTo, get `getQuantity` of the get products at `value` % off. */
export interface BuyXGetY {
  buyQuantity: number;
  getQuantity: number;
  /** The products given (empty, with getCategoryIds empty: the same as the bought ones). */
  getProductIds: string[];
  getCategoryIds: string[];
}

export interface AutomaticDiscount {
  id: string;
  name: string;
  kind: DiscountKind | string;
  /** A whole percent 0–100 (percentage kinds and buy X get Y), or minor units (amount kinds). */
  value: number;
  appliesTo: DiscountAppliesTo;
  conditions: DiscountConditions;
  buyXGetY?: BuyXGetY | null;
  /** Wall-clock start and end in the site's time zone, "YYYY-MM-DDTHH:mm" (null: open). */
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  timesUsed: number;
  combinesWithCoupons: boolean;
  active: boolean;
}

export interface DiscountLineInput {
  itemId: string;
  categories?: readonly string[];
  unitPriceCents: number;
  quantity: number;
  productType: unknown;
}

/** What is known of the buyer: nothing in a cart before the email is given. */
export interface DiscountCustomer {
  /** Orders the customer placed before (undefined: unknown, so "first order only" does not apply). */
  ordersPlaced?: number;
  /** Uses of each discount by this customer (by discount id). */
  usesByDiscount?: Readonly<Record<string, number>>;
}

export interface DiscountContext {
  now: Date;
  /** The site's IANA time zone, for schedules. */
  timeZone: string;
  customer?: DiscountCustomer;
}

/** A discount as applied to an order: its name and what it takes off. */
export interface AppliedDiscount {
  id: string;
  name: string;
  kind: DiscountKind;
  /** Taken off the goods (minor units). */
  amountCents: number;
  /** free_shipping: the shipping options it makes free (empty: all). */
  freeShippingOptionIds: string[] | null;
  combinesWithCoupons: boolean;
}

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

export function isWallTime(s: string): boolean {
  const m = WALL_TIME.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60;
}

/** The offset of a time zone from UTC at an instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(
    get("year"),
    get("month") - 1,
    get("day"),
    get("hour"),
    get("minute"),
    get("second"),
  );
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall-clock time in a time zone names. A time the clocks skip (spring forward) is
 * read with the offset before the change (02:30 becomes 03:30), a time they show twice (fall
 * back) is its first showing: Temporal's "compatible" reading.
 */
export function zonedTimeToInstant(wallTime: string, timeZone: string): Date {
  const m = WALL_TIME.exec(wallTime);
  if (!m) throw new RangeError(`Not a wall-clock time: ${wallTime}`);
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  // The offsets a day either side: the two candidates around a change.
  const before = zoneOffsetMs(asUtc - 86_400_000, timeZone);
  const after = zoneOffsetMs(asUtc + 86_400_000, timeZone);
  const candidates = [asUtc - before, asUtc - after].filter((t) => t + zoneOffsetMs(t, timeZone) === asUtc);
  if (candidates.length) return new Date(Math.min(...candidates));
  // Skipped: read with the offset before the change.
  return new Date(asUtc - before);
}

/** Whether a discount's schedule covers an instant (start inclusive, end exclusive). */
export function discountScheduled(
  d: Pick<AutomaticDiscount, "startsAt" | "endsAt">,
  now: Date,
  timeZone: string,
): boolean {
  const t = now.getTime();
  if (d.startsAt && t < zonedTimeToInstant(d.startsAt, timeZone).getTime()) return false;
  if (d.endsAt && t >= zonedTimeToInstant(d.endsAt, timeZone).getTime()) return false;
  return true;
}

/** `pct` % of an amount of minor units, rounded half up, exact. */
export function percentOf(amountCents: number, pct: number): number {
  const p = BigInt(Math.min(100, Math.max(0, Math.trunc(pct))));
  return Number((BigInt(Math.max(0, amountCents)) * p + 50n) / 100n);
}

/**
 * Splits an amount over weights in proportion, in whole minor units that add up to it exactly
 * (largest remainders get the leftover units; ties to the first). Used for a discount over the
 * order's lines and for refunds of part of an order.
 */
export function allocateProRata(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((s, w) => s + Math.max(0, w), 0);
  if (total <= 0 || amount <= 0) return weights.map(() => 0);
  const a = BigInt(amount);
  const T = BigInt(total);
  const shares = weights.map((w) => (a * BigInt(Math.max(0, w))) / T);
  let left = amount - shares.reduce((s, x) => s + Number(x), 0);
  const order = weights
    .map((w, i) => ({ i, rem: (a * BigInt(Math.max(0, w))) % T }))
    .sort((x, y) => (x.rem === y.rem ? x.i - y.i : x.rem > y.rem ? -1 : 1));
  const out = shares.map(Number);
  for (const { i } of order) {
    if (left <= 0) break;
    if (weights[i]! <= 0) continue;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

function matches(line: DiscountLineInput, productIds: readonly string[], categoryIds: readonly string[]) {
  if (productIds.length === 0 && categoryIds.length === 0) return true;
  return productIds.includes(line.itemId) || (line.categories ?? []).some((c) => categoryIds.includes(c));
}

/** Lines a discount may take money off: everything but gift cards and subscriptions' renewals. */
function discountable(lines: readonly DiscountLineInput[]) {
  return lines.filter((l) => parseProductType(l.productType) !== ProductType.GIFT_CARD && l.quantity > 0);
}

const sum = (lines: readonly DiscountLineInput[]) =>
  lines.reduce((s, l) => s + l.unitPriceCents * l.quantity, 0);

/** buy X get Y: the value off, the bought units taken dearest first and the given ones cheapest first. */
export function buyXGetYDiscount(
  lines: readonly DiscountLineInput[],
  rule: BuyXGetY & { productIds: readonly string[]; categoryIds: readonly string[]; percentOff: number },
): number {
  const N = Math.trunc(rule.buyQuantity);
  const M = Math.trunc(rule.getQuantity);
  if (N < 1 || M < 1) return 0;
  const sameSet = rule.getProductIds.length === 0 && rule.getCategoryIds.length === 0;
  interface Unit {
    price: number;
    buy: boolean;
    get: boolean;
    used: boolean;
  }
  const units: Unit[] = [];
  for (const l of discountable(lines)) {
    const buy = matches(l, rule.productIds, rule.categoryIds);
    const get = sameSet ? buy : matches(l, rule.getProductIds, rule.getCategoryIds);
    if (!buy && !get) continue;
    for (let q = 0; q < l.quantity; q++) units.push({ price: l.unitPriceCents, buy, get, used: false });
  }
  const dearest = units.filter((u) => u.buy).sort((a, b) => b.price - a.price);
  const cheapest = units.filter((u) => u.get).sort((a, b) => a.price - b.price);
  let bi = 0;
  let gi = 0;
  let given = 0;
  for (;;) {
    // Take N bought units (dearest first), then M given units (cheapest first) not yet taken.
    const bought: Unit[] = [];
    for (let j = bi; j < dearest.length && bought.length < N; j++)
      if (!dearest[j]!.used) bought.push(dearest[j]!);
    if (bought.length < N) break;
    for (const u of bought) u.used = true;
    const gets: Unit[] = [];
    while (gi < cheapest.length && gets.length < M) {
      const u = cheapest[gi++]!;
      if (!u.used) gets.push(u);
    }
    if (gets.length < M) {
      for (const u of bought) u.used = false;
      break;
    }
    for (const u of gets) {
      u.used = true;
      given += u.price;
    }
    while (bi < dearest.length && dearest[bi]!.used) bi++;
  }
  return percentOf(given, rule.percentOff);
}

/** Why a discount does not apply to this cart, or undefined when it does. */
export function discountProblem(
  d: AutomaticDiscount,
  lines: readonly DiscountLineInput[],
  ctx: DiscountContext,
): string | undefined {
  if (!d.active || !DISCOUNT_KINDS.includes(d.kind as DiscountKind)) return "inactive";
  if (!discountScheduled(d, ctx.now, ctx.timeZone)) return "not scheduled";
  if (d.usageLimit != null && d.timesUsed >= d.usageLimit) return "used up";
  const uses = ctx.customer?.usesByDiscount?.[d.id] ?? 0;
  if (d.perCustomerLimit != null && uses >= d.perCustomerLimit) return "used up by this customer";
  if (d.conditions.firstOrderOnly && ctx.customer?.ordersPlaced !== 0) return "not a first order";
  const about = discountable(lines).filter((l) =>
    matches(l, d.appliesTo.productIds, d.appliesTo.categoryIds),
  );
  if (about.length === 0) return "no products it is about";
  if (sum(about) < d.conditions.minSubtotalCents) return "below the minimum subtotal";
  if (about.reduce((s, l) => s + l.quantity, 0) < d.conditions.minQuantity)
    return "below the minimum quantity";
  return undefined;
}

/** What a discount takes off the goods of a cart it applies to (0 for free shipping). */
export function discountAmount(d: AutomaticDiscount, lines: readonly DiscountLineInput[]): number {
  const goods = discountable(lines);
  const all = sum(goods);
  const about = goods.filter((l) => matches(l, d.appliesTo.productIds, d.appliesTo.categoryIds));
  const value = Math.max(0, Math.trunc(d.value));
  switch (d.kind as DiscountKind) {
    case "order_percentage":
      return Math.min(all, percentOf(all, value));
    case "order_amount":
      return Math.min(all, value);
    case "product_percentage":
      return percentOf(sum(about), value);
    case "product_amount":
      // An amount off each unit of the products, never more than the unit costs.
      return about.reduce((s, l) => s + Math.min(l.unitPriceCents, value) * l.quantity, 0);
    case "buy_x_get_y":
      return d.buyXGetY
        ? buyXGetYDiscount(goods, {
            ...d.buyXGetY,
            productIds: d.appliesTo.productIds,
            categoryIds: d.appliesTo.categoryIds,
            percentOff: value,
          })
        : 0;
    default:
      return 0;
  }
}

/** The discounts that apply to a cart, each with what it takes off (the best is chosen by the pricing). */
export function applicableDiscounts(
  discounts: readonly AutomaticDiscount[],
  lines: readonly DiscountLineInput[],
  ctx: DiscountContext,
): AppliedDiscount[] {
  const out: AppliedDiscount[] = [];
  for (const d of discounts) {
    if (discountProblem(d, lines, ctx)) continue;
    const amountCents = discountAmount(d, lines);
    const freeShipping = d.kind === "free_shipping";
    if (!freeShipping && amountCents <= 0) continue;
    out.push({
      id: d.id,
      name: d.name,
      kind: d.kind as DiscountKind,
      amountCents,
      freeShippingOptionIds: freeShipping ? [...(d.appliesTo.shippingOptionIds ?? [])] : null,
      combinesWithCoupons: d.combinesWithCoupons,
    });
  }
  return out;
}

/** Whether an applied free-shipping discount covers a shipping option. */
export function shipsFree(
  applied: AppliedDiscount | null | undefined,
  optionId: string | undefined,
): boolean {
  if (!applied?.freeShippingOptionIds) return false;
  return (
    applied.freeShippingOptionIds.length === 0 ||
    (!!optionId && applied.freeShippingOptionIds.includes(optionId))
  );
}
