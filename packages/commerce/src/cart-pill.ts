/**
 * The floating cart pill's drop zones (SPEC §3 position grid): the nine places of the page where
 * the pill may sit. One list for the server (validation), the dashboard (the zone picker) and the
 * storefront (the pill's class). No I/O.
 */
export const CART_PILL_POSITIONS = [
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
export type CartPillPosition = (typeof CART_PILL_POSITIONS)[number];

/** Where the pill sits until the owner moves it. */
export const DEFAULT_CART_PILL_POSITION: CartPillPosition = "bottom-right";

export function isCartPillPosition(value: string): value is CartPillPosition {
  return (CART_PILL_POSITIONS as readonly string[]).includes(value);
}

/** A position in words, for labels: "top left", "center" (for center-center), "bottom right". */
export function cartPillPlaceWords(position: string): string {
  return position === "center-center" ? "center" : position.replace("-", " ");
}
