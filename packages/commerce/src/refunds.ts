/**
 * What a refund of some units of an order's lines gives back: each unit's price, less its
 * pro-rata share of the discounts the line got, plus its share of the order's tax (tax is split
 * over the lines' amounts after discounts and the shipping, so a refund of items never returns
 * the shipping's tax). In whole minor units: refunding every unit of a line gives back exactly
 * what the line paid. The owner API and the dashboard's refund dialog use this one rule.
 */
import { allocateProRata } from "./discounts.js";

export interface RefundOrderLine {
  id: string;
  quantity: number;
  unitPriceCents: number;
  /** The line's share of the order's discounts (minor units). */
  discountCents: number;
  /** Units refunded by earlier refunds. */
  refundedQuantity?: number;
}

export interface RefundOrder {
  taxCents: number;
  shippingCents: number;
  lines: readonly RefundOrderLine[];
}

export interface RefundLineShare {
  lineId: string;
  quantity: number;
  /** The units' price before discounts. */
  subtotalCents: number;
  /** Their share of the line's discounts. */
  discountCents: number;
  /** Their share of the order's tax. */
  taxCents: number;
  /** subtotal − discount + tax: what the units are refunded. */
  amountCents: number;
}

/** `part` of `total` units of an amount, rounded half up (exact for every unit). */
function shareOf(amount: number, part: number, total: number): number {
  if (total <= 0 || part <= 0) return 0;
  if (part >= total) return amount;
  return Number((BigInt(amount) * BigInt(part) * 2n + BigInt(total)) / (BigInt(total) * 2n));
}

/** A line's amount after its discounts. */
export const lineNetCents = (l: RefundOrderLine) =>
  Math.max(0, l.unitPriceCents * l.quantity - l.discountCents);

/** Units of a line not refunded yet. */
export const refundableUnits = (l: RefundOrderLine) => Math.max(0, l.quantity - (l.refundedQuantity ?? 0));

/**
 * The suggested refund of `units` units of each chosen line (units beyond those not refunded yet
 * are left out). Answers each line's share and the total.
 */
export function refundSuggestion(
  order: RefundOrder,
  chosen: readonly { lineId: string; quantity: number }[],
): { lines: RefundLineShare[]; amountCents: number } {
  const nets = order.lines.map(lineNetCents);
  const taxes = allocateProRata(order.taxCents, [...nets, Math.max(0, order.shippingCents)]);
  const lines: RefundLineShare[] = [];
  for (const c of chosen) {
    const i = order.lines.findIndex((l) => l.id === c.lineId);
    const line = order.lines[i];
    if (!line) continue;
    const units = Math.min(Math.max(0, Math.trunc(c.quantity)), refundableUnits(line));
    if (units <= 0) continue;
    // The units refunded before took their share first: this refund's share is what the
    // refunded-so-far-plus-these units are worth less what the earlier ones were.
    const before = line.refundedQuantity ?? 0;
    const upTo = (n: number, amount: number) => shareOf(amount, n, line.quantity);
    const part = (amount: number) => upTo(before + units, amount) - upTo(before, amount);
    const subtotalCents = units * line.unitPriceCents;
    const discountCents = part(line.discountCents);
    const taxCents = part(taxes[i] ?? 0);
    lines.push({
      lineId: line.id,
      quantity: units,
      subtotalCents,
      discountCents,
      taxCents,
      amountCents: Math.max(0, subtotalCents - discountCents + taxCents),
    });
  }
  return { lines, amountCents: lines.reduce((s, l) => s + l.amountCents, 0) };
}
