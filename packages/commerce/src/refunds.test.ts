import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RefundOrder, refundSuggestion } from "./refunds.js";

// Three mugs at 10.00 with 5.00 of discounts, a vase at 20.00 without; 3.00 tax; 5.00 shipping.
// After discounts: mugs 25.00, vase 20.00, shipping 5.00: tax splits 1.50 / 1.20 / 0.30.
const order: RefundOrder = {
  taxCents: 300,
  shippingCents: 500,
  lines: [
    { id: "mugs", quantity: 3, unitPriceCents: 1000, discountCents: 500 },
    { id: "vase", quantity: 1, unitPriceCents: 2000, discountCents: 0 },
  ],
};

describe("refundSuggestion", () => {
  it.each([
    { chosen: [{ lineId: "mugs", quantity: 1 }], discount: 167, tax: 50, amount: 883 },
    { chosen: [{ lineId: "mugs", quantity: 3 }], discount: 500, tax: 150, amount: 2650 },
    { chosen: [{ lineId: "vase", quantity: 1 }], discount: 0, tax: 120, amount: 2120 },
    { chosen: [{ lineId: "mugs", quantity: 9 }], discount: 500, tax: 150, amount: 2650 },
    { chosen: [{ lineId: "nope", quantity: 1 }], discount: 0, tax: 0, amount: 0 },
  ])("$chosen.0.quantity × $chosen.0.lineId gives back $amount", ({ chosen, discount, tax, amount }) => {
    const s = refundSuggestion(order, chosen);
    expect(s.amountCents).toBe(amount);
    expect(s.lines.reduce((n, l) => n + l.discountCents, 0)).toBe(discount);
    expect(s.lines.reduce((n, l) => n + l.taxCents, 0)).toBe(tax);
  });

  it("every unit of every line gives back what was paid for the items, never the shipping", () => {
    const all = refundSuggestion(
      order,
      order.lines.map((l) => ({ lineId: l.id, quantity: l.quantity })),
    );
    // Paid: 45.00 of items after discounts + 3.00 tax + 5.00 shipping = 53.00; shipping and its tax stay.
    expect(all.amountCents).toBe(5300 - 500 - 30);
  });

  it("units refunded one at a time add up to the line refunded at once", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 50_000 }),
        (quantity, unit, pct, tax) => {
          const discountCents = Math.floor((unit * quantity * pct) / 100);
          const one = (refundedQuantity: number): RefundOrder => ({
            taxCents: tax,
            shippingCents: 0,
            lines: [{ id: "l", quantity, unitPriceCents: unit, discountCents, refundedQuantity }],
          });
          let sum = 0;
          for (let done = 0; done < quantity; done++)
            sum += refundSuggestion(one(done), [{ lineId: "l", quantity: 1 }]).amountCents;
          const whole = refundSuggestion(one(0), [{ lineId: "l", quantity }]).amountCents;
          expect(sum).toBe(whole);
          expect(whole).toBe(unit * quantity - discountCents + tax);
        },
      ),
    );
  });

  it("leaves out units refunded before", () => {
    const refunded: RefundOrder = {
      ...order,
      lines: [{ ...order.lines[0]!, refundedQuantity: 2 }, order.lines[1]!],
    };
    const s = refundSuggestion(refunded, [{ lineId: "mugs", quantity: 3 }]);
    expect(s.lines[0]).toMatchObject({ quantity: 1, discountCents: 167, taxCents: 50, amountCents: 883 });
  });
});
