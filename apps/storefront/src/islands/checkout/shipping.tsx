/** The shipping method step: the options the store's rules give for the address. */
import { formatMoney } from "@atelier/commerce";
import type { CheckoutCart } from "./types.js";

export function ShippingMethod(props: {
  cart: CheckoutCart;
  /** The shipping address's country ("" before one is chosen). */
  country: string;
  /** The chosen option's id. */
  selected: string;
  onSelect: (id: string) => void;
  error?: string;
}) {
  const { cart } = props;
  const money = (c: number) => formatMoney(c, cart.currencyCode);
  return (
    <fieldset className="checkout-section">
      <legend>Shipping method</legend>
      {cart.shippingError ? <p className="checkout-error">{cart.shippingError}</p> : null}
      {!cart.shippingError && cart.shippingOptions.length === 0 ? (
        <p className="checkout-muted">
          {props.country ? "Shipping is free." : "Choose a country to see the shipping options."}
        </p>
      ) : null}
      <div className="checkout-options">
        {cart.shippingOptions.map((o) => (
          <label key={o.id} className="checkout-option">
            <input
              type="radio"
              name="shippingOption"
              value={o.id}
              checked={props.selected === o.id}
              onChange={() => props.onSelect(o.id)}
            />
            <span className="checkout-option-name">{o.name}</span>
            <span className="checkout-option-price">{o.costCents ? money(o.costCents) : "Free"}</span>
          </label>
        ))}
      </div>
      {props.error ? <p className="checkout-error">{props.error}</p> : null}
    </fieldset>
  );
}
