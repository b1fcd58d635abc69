/**
 * The visitor's cart in the browser: one store shared by every island on the page (the product
 * form, the cart pill, the cart page), fed by the cart calls. Islands subscribe to it; a
 * `atelier:cart` event on window also announces each change to any other script.
 */
import { type AddEntryAnswer, type CartJson, type EntryAnswer, cartCountLabel } from "@atelier/commerce";
import { apiCall } from "./api.js";
import { announceCensusEvent } from "./census-events.js";
import { CART_PRESENT_COOKIE, SIGNED_IN_COOKIE, readCookie } from "./cookies.js";

type Listener = (cart: CartJson | null, totalQuantity: number) => void;

let current: CartJson | null = null;
let knownQuantity = 0;
let loading: Promise<CartJson> | null = null;
const listeners = new Set<Listener>();

const CART_EVENT = "atelier:cart";

/** The header's cart indicators (`[data-cart-count]`): the count, capped at 100 as "100+". */
export function syncHeaderCount(
  totalQuantity: number,
  root: ParentNode | undefined = globalThis.document,
): void {
  if (!root) return;
  for (const el of root.querySelectorAll<HTMLElement>("[data-cart-count]")) {
    el.dataset.cartCount = String(totalQuantity);
    el.textContent = cartCountLabel(totalQuantity);
  }
}

function publish(): void {
  syncHeaderCount(knownQuantity);
  for (const l of listeners) l(current, knownQuantity);
  if (typeof window !== "undefined") {
    window.dispatchEvent(
      new CustomEvent(CART_EVENT, { detail: { totalQuantity: knownQuantity, cart: current } }),
    );
  }
}

/** The cart as last loaded (null before it is). */
export function currentCart(): CartJson | null {
  return current;
}

/** Units in the cart as far as the page knows (the server-rendered count until the cart loads). */
export function cartQuantity(): number {
  return knownQuantity;
}

/** Seeds the count from the server-rendered page, unless a cart already loaded. */
export function seedQuantity(totalQuantity: number): void {
  if (current === null && Number.isFinite(totalQuantity) && totalQuantity >= 0) {
    knownQuantity = Math.trunc(totalQuantity);
  }
}

export function subscribeCart(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function setCart(cart: CartJson): void {
  current = cart;
  knownQuantity = cart.totalQuantity;
  publish();
}

/**
 * At start the cart is loaded only when there can be one: a site user is signed in or the cart
 * cookie exists (SPEC §4).
 */
export function shouldLoadCartAtStart(cookieString: string = globalThis.document?.cookie ?? ""): boolean {
  return (
    readCookie(CART_PRESENT_COOKIE, cookieString) !== undefined ||
    readCookie(SIGNED_IN_COOKIE, cookieString) !== undefined
  );
}

let started = false;

/** Loads the cart once per page, when there can be one (see shouldLoadCartAtStart). */
export function loadCartAtStart(): void {
  if (started) return;
  started = true;
  if (shouldLoadCartAtStart()) loadCart().catch(() => {});
}

/** Loads (or reloads) the cart; concurrent callers share one request. */
export function loadCart(): Promise<CartJson> {
  if (!loading) {
    loading = apiCall<CartJson>(`/api/commerce/shopping-cart?timecode=${Date.now()}`)
      .then((cart) => {
        setCart(cart);
        return cart;
      })
      .finally(() => {
        loading = null;
      });
  }
  return loading;
}

interface AddInput {
  itemId: string;
  sku?: string;
  quantity: number;
  additionalFields?: Record<string, unknown> | null;
}

function fieldsJson(fields: Record<string, unknown> | null | undefined): string | null {
  return fields && Object.keys(fields).length ? JSON.stringify(fields) : null;
}

/** Adds to the cart (or, for express, to a cart of its own whose token comes back). */
export async function addToCart(input: AddInput, express = false): Promise<AddEntryAnswer> {
  const answer = await apiCall<AddEntryAnswer>(
    `/api/commerce/shopping-cart/entries${express ? "?isExpress=true" : ""}`,
    {
      method: "POST",
      body: {
        itemId: input.itemId,
        sku: input.sku,
        quantity: input.quantity,
        additionalFields: fieldsJson(input.additionalFields),
      },
    },
  );
  if (!express) setCart(answer.shoppingCart);
  announceCensusEvent({
    event: "add-to-cart",
    itemId: input.itemId,
    sku: input.sku,
    quantity: input.quantity,
  });
  return answer;
}

/** Starts a subscription purchase: answers the cart token for the subscription page. */
export async function startSubscription(input: AddInput): Promise<string> {
  const { cartToken } = await apiCall<{ cartToken: string }>("/api/3/commerce/cart/subscription", {
    method: "POST",
    body: {
      itemId: input.itemId,
      sku: input.sku,
      qty: input.quantity,
      additionalFields: fieldsJson(input.additionalFields),
    },
  });
  return cartToken;
}

export async function changeQuantity(entryId: string, quantity: unknown): Promise<CartJson> {
  const answer = await apiCall<EntryAnswer>(
    `/api/commerce/shopping-cart/entries/${encodeURIComponent(entryId)}`,
    {
      method: "PATCH",
      body: { quantity },
    },
  );
  setCart(answer.shoppingCart);
  return answer.shoppingCart;
}

export async function removeFromCart(entryId: string): Promise<CartJson> {
  const answer = await apiCall<{ shoppingCart: CartJson }>(
    `/api/commerce/shopping-cart/entries/${encodeURIComponent(entryId)}`,
    { method: "DELETE" },
  );
  setCart(answer.shoppingCart);
  return answer.shoppingCart;
}
