/** Coupon and gift-card codes: the code input and the list of applied codes with their state. */
import { formatMoney } from "@atelier/commerce";
import { type FormEvent, useId, useState } from "react";
import { addCodes } from "./form.js";
import type { CheckoutCart } from "./types.js";

export function CodesForm({
  codes,
  onChange,
  cart,
}: {
  codes: string[];
  onChange: (codes: string[]) => void;
  cart: CheckoutCart;
}) {
  const [codeInput, setCodeInput] = useState("");
  const codeId = useId();
  const money = (c: number) => formatMoney(c, cart.currencyCode);
  const applyCode = (event: FormEvent) => {
    event.preventDefault();
    const next = addCodes(codes, codeInput);
    setCodeInput("");
    if (next.length !== codes.length) onChange(next);
  };
  return (
    <form className="checkout-codes" onSubmit={applyCode} aria-label="Coupon or gift card">
      <div className="checkout-field">
        <label htmlFor={codeId}>Coupon or gift card code</label>
        <div className="checkout-code-row">
          <input
            id={codeId}
            name="code"
            value={codeInput}
            autoComplete="off"
            onChange={(e) => setCodeInput(e.target.value)}
          />
          <button type="submit" className="atelier-button atelier-button--secondary">
            Apply
          </button>
        </div>
      </div>
      {codes.length ? (
        <ul className="checkout-code-list">
          {codes.map((code) => {
            const invalid = cart.invalidCoupons.find((c) => c.code === code);
            const gift = cart.appliedGiftCards.find((g) => code.replace(/-/g, "").endsWith(g.last4));
            return (
              <li key={code} className={invalid ? "is-invalid" : "is-valid"}>
                <span className="checkout-code">{code}</span>
                <span>
                  {invalid
                    ? invalid.reason
                    : gift
                      ? `Gift card: ${money(gift.balanceCents)} left after this order`
                      : "Applied"}
                </span>
                <button
                  type="button"
                  className="checkout-link-button"
                  onClick={() => onChange(codes.filter((c) => c !== code))}
                >
                  Remove {code}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </form>
  );
}
