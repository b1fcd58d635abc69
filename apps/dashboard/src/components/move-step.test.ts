import { describe, expect, it } from "vitest";
import { movedStep } from "./move-step.js";

describe("movedStep", () => {
  it("swaps the item with its neighbour and leaves the list as it was", () => {
    const list = ["a", "b", "c"];
    expect(movedStep(list, 1, -1)).toEqual(["b", "a", "c"]);
    expect(movedStep(list, 1, 1)).toEqual(["a", "c", "b"]);
    expect(list).toEqual(["a", "b", "c"]);
  });

  it("gives nothing at the ends", () => {
    expect(movedStep(["a", "b"], 0, -1)).toBeUndefined();
    expect(movedStep(["a", "b"], 1, 1)).toBeUndefined();
  });
});
