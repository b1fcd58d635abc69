import { describe, expect, it } from "vitest";
import { MSG_BAD_CURSOR, cursorPage, decodeCursor, encodeCursor, likePattern, pageWindow } from "./paging.js";

const twoStrings = (parts: unknown[]): parts is [string, string] =>
  parts.length === 2 && parts.every((p) => typeof p === "string");

describe("cursors", () => {
  it("round-trip and reject anything else", () => {
    expect(decodeCursor(encodeCursor(["a", "b"]), twoStrings)).toEqual(["a", "b"]);
    expect(decodeCursor(undefined, twoStrings)).toBeUndefined();
    expect(decodeCursor("", twoStrings)).toBeUndefined();
    expect(() => decodeCursor(encodeCursor(["a"]), twoStrings)).toThrow(MSG_BAD_CURSOR);
    expect(() => decodeCursor(Buffer.from("[1,2]").toString("base64url"), twoStrings)).toThrow(
      MSG_BAD_CURSOR,
    );
    expect(() => decodeCursor("!!!", twoStrings)).toThrow(MSG_BAD_CURSOR);
  });

  it("pages rows fetched one beyond the limit", () => {
    expect(cursorPage([1, 2, 3], 2)).toEqual({ page: [1, 2], last: 2, hasNextPage: true });
    expect(cursorPage([1], 2)).toEqual({ page: [1], last: 1, hasNextPage: false });
    expect(cursorPage([], 2)).toEqual({ page: [], last: undefined, hasNextPage: false });
  });
});

describe("offset pages and search patterns", () => {
  it("clamps the window and escapes LIKE's wildcards", () => {
    expect(pageWindow({}, 20, 100)).toEqual({ page: 1, pageSize: 20, offset: 0 });
    expect(pageWindow({ page: 3, pageSize: 500 }, 20, 100)).toEqual({ page: 3, pageSize: 100, offset: 200 });
    expect(pageWindow({ page: 0, pageSize: 0 }, 20, 100)).toEqual({ page: 1, pageSize: 1, offset: 0 });
    expect(likePattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});
