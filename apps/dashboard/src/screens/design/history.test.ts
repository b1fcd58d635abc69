import { describe, expect, it } from "vitest";
import { edit, redo, startHistory, undo } from "./history.js";

describe("history", () => {
  it("undoes and redoes edits in order", () => {
    let h = startHistory({ a: 1 });
    h = edit(h, { a: 2 });
    h = edit(h, { a: 3 });
    h = undo(h);
    expect(h.present).toEqual({ a: 2 });
    h = undo(h);
    expect(h.present).toEqual({ a: 1 });
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toEqual({ a: 2 });
    h = redo(h);
    expect(h.present).toEqual({ a: 3 });
    expect(redo(h)).toBe(h);
  });

  it("drops the redo branch on a new edit and ignores edits that change nothing", () => {
    let h = edit(edit(startHistory(1), 2), 3);
    h = undo(h);
    h = edit(h, 9);
    expect(h.future).toEqual([]);
    expect(h.past).toEqual([1, 2]);
    expect(edit(h, 9)).toBe(h);
  });
});
