import { describe, expect, it } from "vitest";
import { pillAllowedHere } from "./index.js";

const doc = (custom: boolean) => ({ querySelector: () => (custom ? {} : null) }) as unknown as ParentNode;

describe("where the cart pill shows (SPEC §2)", () => {
  it("never on the cart or checkout pages, nor where a custom cart exists", () => {
    expect(pillAllowedHere("/", doc(false))).toBe(true);
    expect(pillAllowedHere("/shop/p/apron", doc(false))).toBe(true);
    expect(pillAllowedHere("/cart", doc(false))).toBe(false);
    expect(pillAllowedHere("/cart/", doc(false))).toBe(false);
    expect(pillAllowedHere("/commerce/cart", doc(false))).toBe(false);
    expect(pillAllowedHere("/checkout", doc(false))).toBe(false);
    expect(pillAllowedHere("/checkout/gift-card", doc(false))).toBe(false);
    expect(pillAllowedHere("/cartography", doc(false))).toBe(true);
    expect(pillAllowedHere("/shop", doc(true))).toBe(false);
  });
});
