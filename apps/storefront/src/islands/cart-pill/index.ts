/**
 * Island `cart-pill`: the floating cart pill in its drop zone (SPEC §2, §4). Hidden while the cart
 * is empty, fades in above 0, shows '100+' above 100; never on the cart or checkout pages nor
 * where the site has a custom cart. Inside the editor's frame it asks the editor to set the frame
 * URL instead of navigating. It also keeps the header indicators (`[data-cart-count]`) current.
 * Props: { totalQuantity, position? } — position is one of the nine drop-zone positions
 * ("bottom-right" by default). A plain script (no React): it is on every page of a store.
 */
import {
  type CartPillPosition,
  cartCountLabel,
  DEFAULT_CART_PILL_POSITION,
  isCartPillPosition,
  isCartPillVisible,
} from "@atelier/commerce";
import { cartQuantity, loadCartAtStart, seedQuantity, subscribeCart } from "../../lib/cart.js";
import "./cart-pill.css";

export type PillPosition = CartPillPosition;

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

const ICON =
  '<svg class="cart-pill-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false"><path d="M6 7h12l-1 13H7L6 7Zm3 0V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>';

export function mount(
  host: HTMLElement,
  { totalQuantity = 0, position = DEFAULT_CART_PILL_POSITION }: CartPillProps,
): void {
  seedQuantity(totalQuantity);
  if (!pillAllowedHere(window.location.pathname, document)) {
    loadCartAtStart();
    return;
  }
  const place = isCartPillPosition(position) ? position : DEFAULT_CART_PILL_POSITION;
  const pill = document.createElement("a");
  pill.href = "/cart";
  [pill.dataset.y, pill.dataset.x] = place.split("-");
  pill.innerHTML = `${ICON}<span class="cart-pill-count"></span>`;
  const count = pill.querySelector<HTMLElement>(".cart-pill-count")!;
  const show = (quantity: number) => {
    const visible = isCartPillVisible(quantity);
    const label = cartCountLabel(quantity);
    pill.className = `cart-pill cart-pill--${place}${visible ? " is-visible" : ""}`;
    pill.setAttribute("aria-label", `Cart, ${label} ${quantity === 1 ? "item" : "items"}`);
    if (visible) pill.removeAttribute("tabindex");
    else pill.tabIndex = -1;
    pill.dataset.cartPillCount = String(quantity);
    count.textContent = label;
  };
  pill.addEventListener("click", (e) => {
    if (!inEditorFrame()) return;
    e.preventDefault();
    window.parent.postMessage({ type: SET_FRAME_URL_MESSAGE, url: "/cart" }, window.location.origin);
  });
  show(cartQuantity());
  host.append(pill);
  subscribeCart((_, q) => show(q));
  loadCartAtStart();
}
