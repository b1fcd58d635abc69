import { describe, expect, it } from "vitest";
import { listToText, textToList } from "./list-text.js";

describe("list as text", () => {
  it("reads a comma-separated line: trimmed, blanks dropped, order kept", () => {
    expect(textToList(" news,  Summer sale ,,shoes , ")).toEqual(["news", "Summer sale", "shoes"]);
    expect(textToList("")).toEqual([]);
    expect(textToList(" , ")).toEqual([]);
  });

  it("shows a list joined by comma and space, and reads it back unchanged", () => {
    expect(listToText(["US", "CA", "GB"])).toBe("US, CA, GB");
    expect(listToText([])).toBe("");
    expect(textToList(listToText(["a b", "c"]))).toEqual(["a b", "c"]);
  });
});
