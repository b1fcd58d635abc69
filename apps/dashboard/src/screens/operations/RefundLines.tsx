/**
 * The refund dialog's items: how many units of each line to refund, each line showing its share
 * of the order's discounts. The suggested amount comes from @atelier/commerce's refund rule, the
 * same the owner API applies.
 */
import { type RefundOrder, refundSuggestion, refundableUnits } from "@atelier/commerce";
import { formatCents } from "../../api.js";
import { NumberField } from "../../components/form/index.js";
import type { Order } from "./order-types.js";

/** The order as the shared refund rule reads it. */
export function refundOrderOfJson(order: Order): RefundOrder {
  return {
    taxCents: order.taxCents,
    shippingCents: order.shippingCents,
    lines: order.lines.map((l) => ({
      id: l.id,
      quantity: l.quantity,
      unitPriceCents: l.unitPriceCents,
      discountCents: l.discountCents,
      refundedQuantity: l.refundedQuantity ?? 0,
    })),
  };
}

export const chosenUnits = (units: Record<string, number>) =>
  Object.entries(units)
    .filter(([, q]) => q > 0)
    .map(([lineId, quantity]) => ({ lineId, quantity }));

/** The chosen units that can still go back in stock (not restocked before). */
export function restockableUnits(order: Order, chosen: { lineId: string; quantity: number }[]) {
  return chosen
    .map((c) => {
      const l = order.lines.find((x) => x.id === c.lineId);
      return { lineId: c.lineId, quantity: l ? Math.min(c.quantity, l.quantity - l.restockedQuantity) : 0 };
    })
    .filter((c) => c.quantity > 0);
}

export function RefundLines({
  order,
  units,
  onChange,
}: {
  order: Order;
  units: Record<string, number>;
  onChange: (units: Record<string, number>) => void;
}) {
  const rule = refundOrderOfJson(order);
  const money = (c: number) => formatCents(c, order.currency);
  return (
    <fieldset className="refund-lines">
      <legend>Items to refund</legend>
      {order.lines.map((l, i) => {
        const left = refundableUnits(rule.lines[i]!);
        const picked = units[l.id] ?? 0;
        const share = picked
          ? refundSuggestion(rule, [{ lineId: l.id, quantity: picked }]).lines[0]
          : undefined;
        return (
          <div key={l.id} className="refund-line">
            <div className="refund-line-name">
              <strong>{l.productName}</strong>
              <div className="muted small">
                {l.quantity} × {money(l.unitPriceCents)}
                {l.discountCents ? ` · discounts −${money(l.discountCents)}` : ""}
                {left < l.quantity ? ` · ${l.quantity - left} refunded` : ""}
              </div>
              {share ? (
                <div className="small">
                  Refund {money(share.amountCents)}
                  {share.discountCents ? ` (after −${money(share.discountCents)} of discounts)` : ""}
                </div>
              ) : null}
            </div>
            <NumberField
              label="Units"
              aria-label={`Units of ${l.productName}`}
              min={0}
              max={left}
              step={1}
              disabled={left === 0}
              value={picked}
              onChange={(q) =>
                onChange({ ...units, [l.id]: Math.min(left, Math.max(0, Math.trunc(q ?? 0))) })
              }
              help={left ? `Up to ${left}` : "Refunded"}
            />
          </div>
        );
      })}
    </fieldset>
  );
}
