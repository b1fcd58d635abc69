import { describe, expect, it } from "vitest";
import { LayoutError, validateLayout } from "./blocks.js";

const withProduct = {
  rows: [{ columns: [{ span: 12, blocks: [{ id: "p1", type: "product" }] }] }],
};

describe("drafts may hold blocks not filled in yet", () => {
  it("accepts a product block without its product in a draft", () => {
    const { layout } = validateLayout(withProduct, { draft: true });
    expect(layout.rows[0]!.columns[0]!.blocks[0]).toMatchObject({
      id: "p1",
      type: "product",
    });
  });
  it("refuses it when publishing, with the field's message", () => {
    expect(() => validateLayout(withProduct)).toThrow(LayoutError);
    expect(() => validateLayout(withProduct)).toThrow("Product: this field is required.");
  });
});
