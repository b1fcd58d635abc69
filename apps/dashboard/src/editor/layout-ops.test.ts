import { describe, expect, it } from "vitest";
import type { Layout } from "../api.js";
import {
  countBlocks,
  evenSpans,
  findBlock,
  insertBlock,
  moveBlock,
  moveStep,
  newBlock,
  removeBlock,
  updateBlock,
} from "./layout-ops.js";

const b = (id: string) => ({ id, type: "text", html: `<p>${id}</p>` });
const ids = (l: Layout) =>
  l.rows.map((r) => r.columns.map((c) => c.blocks.map((x) => x.id).join(",")).join(" | "));
const spans = (l: Layout) => l.rows.map((r) => r.columns.map((c) => c.span));

const base: Layout = {
  rows: [
    { columns: [{ span: 12, blocks: [b("a"), b("b")] }] },
    {
      columns: [
        { span: 6, blocks: [b("c")] },
        { span: 6, blocks: [b("d"), b("e")] },
      ],
    },
  ],
};

describe("layout operations", () => {
  it("shares spans evenly over 12", () => {
    expect(evenSpans(1)).toEqual([12]);
    expect(evenSpans(3)).toEqual([4, 4, 4]);
    expect(evenSpans(5)).toEqual([3, 3, 2, 2, 2]);
  });

  it("finds and counts blocks", () => {
    expect(findBlock(base, "e")).toEqual({ row: 1, col: 1, index: 1 });
    expect(findBlock(base, "zz")).toBeUndefined();
    expect(countBlocks(base)).toBe(5);
  });

  it("removes a block; an emptied column goes and the row's widths are shared again", () => {
    const { layout, block } = removeBlock(base, "c");
    expect(block?.id).toBe("c");
    expect(ids(layout)).toEqual(["a,b", "d,e"]);
    expect(spans(layout)).toEqual([[12], [12]]);
    expect(ids(removeBlock(removeBlock(base, "a").layout, "b").layout)).toEqual(["c | d,e"]);
  });

  it("inserts before, after, in a new column and in a new row", () => {
    expect(ids(insertBlock(base, b("n"), { kind: "before", blockId: "a" }))).toEqual(["n,a,b", "c | d,e"]);
    expect(ids(insertBlock(base, b("n"), { kind: "after", blockId: "d" }))).toEqual(["a,b", "c | d,n,e"]);
    const right = insertBlock(base, b("n"), { kind: "right", blockId: "c" });
    expect(ids(right)).toEqual(["a,b", "c | n | d,e"]);
    expect(spans(right)).toEqual([[12], [4, 4, 4]]);
    expect(ids(insertBlock(base, b("n"), { kind: "left", blockId: "a" }))).toEqual(["n | a,b", "c | d,e"]);
    expect(ids(insertBlock(base, b("n"), { kind: "row", index: 1 }))).toEqual(["a,b", "n", "c | d,e"]);
    expect(ids(insertBlock(base, b("n"), { kind: "row", index: 99 }))).toEqual(["a,b", "c | d,e", "n"]);
  });

  it("moves blocks between columns and rows", () => {
    expect(ids(moveBlock(base, "a", { kind: "after", blockId: "e" }))).toEqual(["b", "c | d,e,a"]);
    expect(ids(moveBlock(base, "c", { kind: "before", blockId: "a" }))).toEqual(["c,a,b", "d,e"]);
    expect(ids(moveBlock(base, "e", { kind: "left", blockId: "c" }))).toEqual(["a,b", "e | c | d"]);
    expect(ids(moveBlock(base, "e", { kind: "row", index: 0 }))).toEqual(["e", "a,b", "c | d"]);
    // The only block of a row moving down past the row it leaves.
    const single: Layout = { rows: [{ columns: [{ span: 12, blocks: [b("x")] }] }, ...base.rows] };
    expect(ids(moveBlock(single, "x", { kind: "row", index: 3 }))).toEqual(["a,b", "c | d,e", "x"]);
    expect(moveBlock(base, "a", { kind: "before", blockId: "a" })).toBe(base);
  });

  it("moves one step up and down", () => {
    expect(ids(moveStep(base, "b", -1))).toEqual(["b,a", "c | d,e"]);
    expect(ids(moveStep(base, "a", -1))).toEqual(["a", "b", "c | d,e"]);
    expect(ids(moveStep(base, "c", 1))).toEqual(["a,b", "d,e", "c"]);
    const rows: Layout = {
      rows: [{ columns: [{ span: 12, blocks: [b("x")] }] }, { columns: [{ span: 12, blocks: [b("y")] }] }],
    };
    expect(ids(moveStep(rows, "y", -1))).toEqual(["y", "x"]);
    expect(moveStep(rows, "x", -1)).toBe(rows);
  });

  it("updates a block's fields but never its id or type, and makes new blocks with defaults", () => {
    const l = updateBlock(base, "a", { html: "<p>new</p>", id: "hack", type: "code" });
    expect(l.rows[0]!.columns[0]!.blocks[0]).toEqual({ id: "a", type: "text", html: "<p>new</p>" });
    const nb = newBlock({
      type: "button",
      fields: [{ key: "label", label: "Label", type: "text", default: "Go" }],
    });
    expect(nb).toMatchObject({ type: "button", label: "Go" });
    expect(nb.id).toMatch(/^b-[0-9a-f]{12}$/);
  });
});
