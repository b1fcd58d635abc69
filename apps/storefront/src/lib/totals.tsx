/** An order's totals as a description list: one row (term and amount) a line. */
import type { ReactNode } from "react";

interface TotalLine {
  key: string;
  label: ReactNode;
  amount: ReactNode;
  /** The row's class (a grand total stands out). */
  className?: string;
}

/** The rows of `lines` that are not left out (false: a line that does not apply). */
export function Totals({ className, lines }: { className: string; lines: (TotalLine | false)[] }) {
  return (
    <dl className={className}>
      {lines.map((line) =>
        line === false ? null : (
          <div key={line.key} className={line.className}>
            <dt>{line.label}</dt>
            <dd>{line.amount}</dd>
          </div>
        ),
      )}
    </dl>
  );
}

/** "Discount", with the codes that gave it in brackets when there are any. */
const discountLabel = (codes: readonly string[]): string =>
  codes.length ? `Discount (${codes.join(", ")})` : "Discount";

/** One discount of an order as its own line: an automatic discount by name, or a coupon by code. */
export interface DiscountLineView {
  name: string;
  amountCents: number;
  /** The shipping it made free. */
  shippingCents: number;
}

/**
 * The lines an order's totals open with: the subtotal, then each discount by its name (an
 * automatic discount that makes shipping free says so), or, for orders without discount lines,
 * one discount line with the codes that gave it in brackets.
 */
export const subtotalLines = (
  amounts: { subtotalCents: number; discountCents: number; discounts?: readonly DiscountLineView[] },
  codes: readonly string[],
  money: (cents: number) => string,
): (TotalLine | false)[] => [
  { key: "subtotal", label: "Subtotal", amount: money(amounts.subtotalCents) },
  ...(amounts.discounts?.length
    ? amounts.discounts.map((d, i) => ({
        key: `discount:${i}`,
        label: d.name,
        amount: d.amountCents ? `−${money(d.amountCents)}` : "Free shipping",
        className: "atelier-discount-line",
      }))
    : [
        !!amounts.discountCents && {
          key: "discount",
          label: discountLabel(codes),
          amount: `−${money(amounts.discountCents)}`,
        },
      ]),
];
