import { describe, expect, it } from "vitest";
import { formatRatio } from "./contrast.js";

describe("formatRatio", () => {
  it("rounds the shown ratio down so a failing pair never reads 4.5:1", () => {
    expect(formatRatio(4.499)).toBe("4.4:1");
    expect(formatRatio(21)).toBe("21.0:1");
  });
});
