import { describe, expect, it } from "vitest";
import { CART_PILL_POSITIONS, cartPillPlaceWords, isCartPillPosition } from "./cart-pill.js";

describe("cart pill positions", () => {
  it("has nine places, bottom-right among them", () => {
    expect(CART_PILL_POSITIONS).toHaveLength(9);
    expect(isCartPillPosition("bottom-right")).toBe(true);
    expect(isCartPillPosition("upside-down")).toBe(false);
  });

  it.each([
    ["top-left", "top left"],
    ["center-center", "center"],
    ["center-right", "center right"],
    ["bottom-center", "bottom center"],
  ])("names %s in words as %s", (position, words) => {
    expect(cartPillPlaceWords(position)).toBe(words);
  });
});
