/**
 * Island `cart-page`: the full cart at /cart (SPEC §2): each line with its image, options,
 * quantity to change and a Remove button, the subtotal, the automatic discount that applies (by
 * its name, as the server will charge it) and a Checkout button. Errors of a change
 * (the SPEC's quantity and stock texts, the 429 and crumb texts) show beside the line.
 * Props: { shopUrl?, checkoutUrl?, cart?, showContinue? } — cart is the server-rendered cart, if any.
 */
import { type CartJson, formatMoney } from "@atelier/commerce";
import { type FormEvent, useEffect, useState } from "react";
import {
  changeQuantity,
  currentCart,
  loadCart,
  removeFromCart,
  setCart,
  subscribeCart,
} from "../../lib/cart.js";
import { announce } from "../../lib/announce.js";
import "../../lib/ui.css";
import "./cart-page.css";

type Entry = CartJson["entries"][number];

export interface CartPageProps {
  shopUrl?: string;
  checkoutUrl?: string;
  cart?: CartJson;
  /** Show a Continue Shopping button when the cart is empty (themes usually link back themselves). */
  showContinue?: boolean;
}

export default function CartPage({
  shopUrl = "/",
  checkoutUrl = "/checkout",
  cart: initial,
  showContinue = false,
}: CartPageProps) {
  const [cart, setLocal] = useState<CartJson | null>(() => currentCart() ?? initial ?? null);
  const [loadError, setLoadError] = useState<string>();

  useEffect(() => {
    if (initial && !currentCart()) setCart(initial);
    const off = subscribeCart((c) => {
      if (c) setLocal(c);
    });
    loadCart().catch((err: Error) => setLoadError(err.message));
    return off;
  }, [initial]);

  if (!cart) {
    return (
      <div className="cart-view" aria-busy={loadError ? undefined : true}>
        {loadError ? (
          <p role="alert">{loadError}</p>
        ) : (
          <p className="cart-view-loading">Loading your cart…</p>
        )}
      </div>
    );
  }
  if (cart.entries.length === 0) {
    return (
      <div className="cart-view cart-view--empty">
        <p>You have nothing in your shopping cart.</p>
        {showContinue ? (
          <a className="atelier-button cart-view-continue" href={shopUrl}>
            Continue Shopping
          </a>
        ) : null}
      </div>
    );
  }
  const money = (minor: number) => formatMoney(minor, cart.currencyCode);
  return (
    <div className="cart-view">
      <ul className="cart-lines" aria-label="Items in your cart">
        {cart.entries.map((e) => (
          <CartLine key={e.id} entry={e} money={money} />
        ))}
      </ul>
      <div className="cart-summary">
        <div className="cart-subtotal">
          <span>Subtotal</span>
          <span className="cart-subtotal-amount" data-subtotal-cents={cart.subtotalCents}>
            {money(cart.subtotalCents)}
          </span>
        </div>
        {(cart.discounts ?? []).map((d) => (
          <div className="cart-discount" key={d.name} data-discount-cents={d.amountCents}>
            <span>{d.name}</span>
            <span>{d.amountCents ? `−${money(d.amountCents)}` : "Free shipping"}</span>
          </div>
        ))}
        {cart.discountCents > 0 ? (
          <div className="cart-subtotal cart-discounted">
            <span>After discounts</span>
            <span data-total-cents={cart.subtotalCents - cart.discountCents}>
              {money(cart.subtotalCents - cart.discountCents)}
            </span>
          </div>
        ) : null}
        <p className="cart-note">Shipping and taxes are calculated at checkout.</p>
        <a className="atelier-button cart-checkout" href={checkoutUrl}>
          Checkout
        </a>
      </div>
    </div>
  );
}

function CartLine({ entry, money }: { entry: Entry; money: (minor: number) => string }) {
  const [quantity, setQuantity] = useState(String(entry.quantity));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const inputId = `cart-qty-${entry.id}`;
  const errorId = `cart-error-${entry.id}`;

  useEffect(() => setQuantity(String(entry.quantity)), [entry.quantity]);

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (quantity === String(entry.quantity) || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await changeQuantity(entry.id, quantity.trim() === "" ? "" : Number(quantity));
      announce(`Quantity of ${entry.title || entry.sku} changed to ${quantity.trim() || 0}.`);
    } catch (err) {
      setError((err as Error).message);
      setQuantity(String(entry.quantity));
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await removeFromCart(entry.id);
      // The line leaves the page, and focus with it: say what happened.
      announce(`${entry.title || entry.sku} removed from the cart.`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  const options = Object.entries(entry.chosenVariant.attributes);
  return (
    <li className={`cart-line${entry.available ? "" : " cart-line--unavailable"}`} data-entry-id={entry.id}>
      <div className="cart-line-image">
        {entry.imageUrl ? <img src={entry.imageUrl} alt="" width="96" height="96" loading="lazy" /> : null}
      </div>
      <div className="cart-line-info">
        <a className="cart-line-title" href={entry.url || undefined}>
          {entry.title || entry.sku}
        </a>
        {options.length ? (
          <ul className="cart-line-options">
            {options.map(([k, v]) => (
              <li key={k}>
                {k}: {v}
              </li>
            ))}
          </ul>
        ) : null}
        {entry.isSubscription ? <p className="cart-line-note">Subscription</p> : null}
        {!entry.available ? <p className="cart-line-note">This item is no longer available.</p> : null}
        <div className="cart-line-unit">
          {entry.onSale ? <s className="cart-line-original">{money(entry.unitPriceCents)}</s> : null}{" "}
          {money(entry.purchasePriceCents)}
          {entry.quantity > 1 ? " each" : ""}
        </div>
      </div>
      <form className="cart-line-quantity" onSubmit={submit}>
        <label htmlFor={inputId}>Quantity</label>
        <input
          id={inputId}
          type="number"
          inputMode="numeric"
          min={1}
          max={9999}
          step={1}
          value={quantity}
          disabled={busy || !entry.available}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setQuantity(e.target.value)}
          onBlur={() => void submit()}
        />
        <button type="submit" className="cart-line-update" hidden={quantity === String(entry.quantity)}>
          Update
        </button>
      </form>
      <div className="cart-line-total">{money(entry.subTotal)}</div>
      <button
        type="button"
        className="cart-line-remove"
        onClick={() => void remove()}
        disabled={busy}
        aria-label={`Remove ${entry.title || entry.sku}`}
      >
        Remove
      </button>
      {error ? (
        <p className="cart-line-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}
