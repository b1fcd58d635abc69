/**
 * Island `cart-pill`: the floating cart pill in its drop zone (SPEC §2, §4). Hidden while the cart
 * is empty, fades in above 0, shows '100+' above 100; never on the cart or checkout pages nor
 * where the site has a custom cart. Inside the editor's frame it asks the editor to set the frame
 * URL instead of navigating. It also keeps the header indicators (`[data-cart-count]`) current.
 * Props: { totalQuantity, position? } — position is one of the nine drop-zone positions
 * ("bottom-right" by default).
 */
import { cartCountLabel, isCartPillVisible } from "@atelier/commerce";
import { useEffect, useState } from "react";
import { cartQuantity, loadCartAtStart, seedQuantity, subscribeCart } from "../../lib/cart.js";
import "./cart-pill.css";

export const POSITIONS = [
  "top-left",
  "top-center",
  "top-right",
  "center-left",
  "center-center",
  "center-right",
  "bottom-left",
  "bottom-center",
  "bottom-right",
] as const;
export type PillPosition = (typeof POSITIONS)[number];

/** The message the editor's frame listens for to follow the pill. */
export const SET_FRAME_URL_MESSAGE = "atelier:set-frame-url";

export interface CartPillProps {
  totalQuantity?: number;
  position?: PillPosition;
}

/** Pages where the pill never shows (SPEC §2): the cart, checkout (express included), a custom cart. */
export function pillAllowedHere(pathname: string, doc: ParentNode): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (
    path === "/cart" ||
    path === "/commerce/cart" ||
    path === "/checkout" ||
    path.startsWith("/checkout/")
  ) {
    return false;
  }
  return !doc.querySelector("[data-custom-cart]");
}

function inEditorFrame(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true;
  }
}

export default function CartPill({ totalQuantity = 0, position = "bottom-right" }: CartPillProps) {
  const [quantity, setQuantity] = useState(() => {
    seedQuantity(totalQuantity);
    return cartQuantity();
  });
  const [allowed] = useState(() => pillAllowedHere(window.location.pathname, document));

  useEffect(() => {
    const off = subscribeCart((_, q) => setQuantity(q));
    loadCartAtStart();
    return off;
  }, []);

  if (!allowed) return null;
  const visible = isCartPillVisible(quantity);
  const label = cartCountLabel(quantity);
  const place = (POSITIONS as readonly string[]).includes(position) ? position : "bottom-right";
  return (
    <a
      href="/cart"
      className={`cart-pill cart-pill--${place}${visible ? " is-visible" : ""}`}
      aria-label={`Cart, ${label} ${quantity === 1 ? "item" : "items"}`}
      tabIndex={visible ? undefined : -1}
      data-cart-pill-count={quantity}
      onClick={(e) => {
        if (!inEditorFrame()) return;
        e.preventDefault();
        window.parent.postMessage({ type: SET_FRAME_URL_MESSAGE, url: "/cart" }, window.location.origin);
      }}
    >
      <svg
        className="cart-pill-icon"
        viewBox="0 0 24 24"
        width="20"
        height="20"
        aria-hidden="true"
        focusable="false"
      >
        <path
          d="M6 7h12l-1 13H7L6 7Zm3 0V5a3 3 0 0 1 6 0v2"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinejoin="round"
        />
      </svg>
      <span className="cart-pill-count">{label}</span>
    </a>
  );
}
