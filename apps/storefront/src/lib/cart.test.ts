import { describe, expect, it } from "vitest";
import { shouldLoadCartAtStart, syncHeaderCount } from "./cart.js";

describe("loading the cart at start (SPEC §4)", () => {
  it("happens only with a cart cookie or a signed-in site user", () => {
    expect(shouldLoadCartAtStart("")).toBe(false);
    expect(shouldLoadCartAtStart("crumb=abc")).toBe(false);
    expect(shouldLoadCartAtStart("crumb=abc; atelier_has_cart=1")).toBe(true);
    expect(shouldLoadCartAtStart("atelier_signed_in=1")).toBe(true);
  });
});

describe("the header's cart indicators", () => {
  it("show the count, capped at 100 as 100+", () => {
    const els = [
      { dataset: {} as Record<string, string>, textContent: "" },
      { dataset: {} as Record<string, string>, textContent: "" },
    ];
    const root = { querySelectorAll: () => els } as unknown as ParentNode;
    syncHeaderCount(3, root);
    expect(els.map((e) => [e.textContent, e.dataset.cartCount])).toEqual([
      ["3", "3"],
      ["3", "3"],
    ]);
    syncHeaderCount(100, root);
    expect(els[0]!.textContent).toBe("100");
    syncHeaderCount(101, root);
    expect(els[0]!.textContent).toBe("100+");
    expect(els[0]!.dataset.cartCount).toBe("101");
  });
});
