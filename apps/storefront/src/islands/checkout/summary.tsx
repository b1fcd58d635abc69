/** The order summary beside the checkout form: the cart's lines and its totals. */
import { formatMoney } from "@atelier/commerce";
import type { ReactNode } from "react";
import { Totals, subtotalLines } from "../../lib/totals.js";
import type { CheckoutCart } from "./types.js";

export function Summary({ cart, children }: { cart: CheckoutCart; children?: ReactNode }) {
  const money = (c: number) => formatMoney(c, cart.currencyCode);
  return (
    <section className="checkout-summary" aria-labelledby="checkout-summary-title">
      <h2 id="checkout-summary-title">Order summary</h2>
      <ul className="checkout-lines">
        {cart.entries.map((l) => (
          <li key={l.id} className="checkout-line">
            {l.imageUrl ? (
              <img src={l.imageUrl} alt="" width={56} height={56} loading="lazy" />
            ) : (
              <span className="checkout-line-noimage" />
            )}
            <div className="checkout-line-info">
              <span className="checkout-line-title">{l.title}</span>
              {Object.values(l.attributes).length ? (
                <span className="checkout-muted">{Object.values(l.attributes).join(" · ")}</span>
              ) : null}
              {l.subscriptionText ? <span className="checkout-muted">{l.subscriptionText}</span> : null}
              <span className="checkout-muted">Qty {l.quantity}</span>
            </div>
            <span className="checkout-line-total">{money(l.subTotal)}</span>
          </li>
        ))}
      </ul>
      {children}
      <Totals
        className="checkout-totals"
        lines={[
          ...subtotalLines(
            cart,
            cart.validCoupons.filter((c) => c.discountCents).map((c) => c.code),
            money,
          ),
          cart.requiresShipping && {
            key: "shipping",
            label: `Shipping${cart.selectedShippingOption ? "" : " (choose a country)"}`,
            amount: cart.shippingCostCents
              ? money(cart.shippingCostCents)
              : cart.selectedShippingOption ||
                  cart.validCoupons.some((c) => c.kind === "free_shipping") ||
                  cart.discounts.some((d) => d.shippingCents > 0)
                ? "Free"
                : "—",
          },
          ...cart.applicableTaxRules.map((t) => ({
            key: `tax:${t.name}`,
            label: `${t.name} (${t.ratePercent}%)`,
            amount: money(t.taxCents),
          })),
          !cart.applicableTaxRules.length && { key: "tax", label: "Tax", amount: money(0) },
          {
            key: "total",
            label: "Total",
            amount: money(cart.grandTotalCents),
            className: "checkout-grand-total",
          },
          ...cart.appliedGiftCards.map((g) => ({
            key: `gift:${g.last4}`,
            label: `Gift card ending ${g.last4}`,
            amount: `−${money(g.amountCents)}`,
          })),
          !!cart.giftCardCents && {
            key: "due",
            label: "To pay now",
            amount: money(cart.amountDueCents),
            className: "checkout-grand-total",
          },
        ]}
      />
    </section>
  );
}
