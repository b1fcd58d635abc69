/** The order summary beside the checkout form: the cart's lines and its totals. */
import { formatMoney } from "@atelier/commerce";
import type { ReactNode } from "react";
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
      <dl className="checkout-totals">
        <div>
          <dt>Subtotal</dt>
          <dd>{money(cart.subtotalCents)}</dd>
        </div>
        {cart.discountCents ? (
          <div>
            <dt>
              Discount
              {cart.validCoupons.some((c) => c.discountCents)
                ? ` (${cart.validCoupons
                    .filter((c) => c.discountCents)
                    .map((c) => c.code)
                    .join(", ")})`
                : ""}
            </dt>
            <dd>−{money(cart.discountCents)}</dd>
          </div>
        ) : null}
        {cart.requiresShipping ? (
          <div>
            <dt>Shipping{cart.selectedShippingOption ? "" : " (choose a country)"}</dt>
            <dd>
              {cart.shippingCostCents
                ? money(cart.shippingCostCents)
                : cart.selectedShippingOption || cart.validCoupons.some((c) => c.kind === "free_shipping")
                  ? "Free"
                  : "—"}
            </dd>
          </div>
        ) : null}
        {cart.applicableTaxRules.map((t) => (
          <div key={t.name}>
            <dt>
              {t.name} ({t.ratePercent}%)
            </dt>
            <dd>{money(t.taxCents)}</dd>
          </div>
        ))}
        {!cart.applicableTaxRules.length ? (
          <div>
            <dt>Tax</dt>
            <dd>{money(0)}</dd>
          </div>
        ) : null}
        <div className="checkout-grand-total">
          <dt>Total</dt>
          <dd>{money(cart.grandTotalCents)}</dd>
        </div>
        {cart.appliedGiftCards.map((g) => (
          <div key={g.last4}>
            <dt>Gift card ending {g.last4}</dt>
            <dd>−{money(g.amountCents)}</dd>
          </div>
        ))}
        {cart.giftCardCents ? (
          <div className="checkout-grand-total">
            <dt>To pay now</dt>
            <dd>{money(cart.amountDueCents)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
