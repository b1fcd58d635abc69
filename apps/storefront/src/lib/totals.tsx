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

/**
 * The lines an order's totals open with: the subtotal, and the discount (the codes that gave it
 * in brackets) when there is one.
 */
export const subtotalLines = (
  amounts: { subtotalCents: number; discountCents: number },
  codes: readonly string[],
  money: (cents: number) => string,
): (TotalLine | false)[] => [
  { key: "subtotal", label: "Subtotal", amount: money(amounts.subtotalCents) },
  !!amounts.discountCents && {
    key: "discount",
    label: discountLabel(codes),
    amount: `−${money(amounts.discountCents)}`,
  },
];
