import { describe, expect, it } from "vitest";
import { ADDRESS_FIELDS, REQUIRED_ADDRESS_FIELDS, emptyAddress } from "./saved-address.js";

describe("saved address", () => {
  it("starts empty in form order", () => {
    expect(Object.keys(emptyAddress())).toEqual([...ADDRESS_FIELDS]);
    expect(Object.values(emptyAddress()).every((v) => v === "")).toBe(true);
  });

  it("requires only parts of the address", () => {
    for (const f of REQUIRED_ADDRESS_FIELDS) expect(ADDRESS_FIELDS).toContain(f);
  });
});
