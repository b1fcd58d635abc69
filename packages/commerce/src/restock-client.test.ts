import { describe, expect, it } from "vitest";
import { MAX_PAGES, fetchAllPages, sendRestockNotifications, totalSignUps } from "./restock-client.js";

function pages(lists: string[][]) {
  const calls: (string | undefined)[] = [];
  const fetchPage = async (cursor: string | undefined) => {
    calls.push(cursor);
    const i = cursor === undefined ? 0 : Number(cursor);
    const last = i === lists.length - 1;
    return { items: lists[i]!, hasNextPage: !last, nextPageCursor: last ? null : String(i + 1) };
  };
  return { calls, fetchPage };
}

describe("restock lists", () => {
  it("fetch every page in a loop", async () => {
    const { calls, fetchPage } = pages([["a", "b"], ["c"], ["d"]]);
    await expect(fetchAllPages(fetchPage, (p) => p.items)).resolves.toEqual(["a", "b", "c", "d"]);
    expect(calls).toEqual([undefined, "1", "2"]);
  });

  it("stop at a repeated cursor and at the page guard", async () => {
    let n = 0;
    const loop = async () => {
      n++;
      return { items: [n], hasNextPage: true, nextPageCursor: "same" };
    };
    await expect(fetchAllPages(loop, (p) => p.items)).resolves.toEqual([1, 2]);
    let m = 0;
    const endless = async () => ({ items: [m], hasNextPage: true, nextPageCursor: String(++m) });
    await expect(fetchAllPages(endless, (p) => p.items)).resolves.toHaveLength(MAX_PAGES);
  });

  it("sum the sign-ups of several variants", async () => {
    const data: Record<string, string[][]> = { v1: [["x", "y"], ["z"]], v2: [["w"]], v3: [[]] };
    const total = await totalSignUps(
      ["v1", "v2", "v3"].map((variantId) => ({ productId: "p", variantId })),
      async (ref, cursor) => {
        const list = data[ref.variantId]!;
        const i = cursor ? Number(cursor) : 0;
        const last = i === list.length - 1;
        return { signUps: list[i]!, hasNextPage: !last, nextPageCursor: last ? null : String(i + 1) };
      },
    );
    expect(total).toBe(4);
  });
});

describe("sending restock notifications", () => {
  it("answers 0 without a request for an empty list", async () => {
    let called = false;
    const result = await sendRestockNotifications([], async () => {
      called = true;
      return { count: 99 };
    });
    expect(result).toEqual({ count: 0 });
    expect(called).toBe(false);
  });

  it("sends one request with the list otherwise", async () => {
    const sent: unknown[] = [];
    const result = await sendRestockNotifications([{ productId: "p", variantId: "v" }], async (list) => {
      sent.push(list);
      return { count: 3 };
    });
    expect(result).toEqual({ count: 3 });
    expect(sent).toEqual([[{ productId: "p", variantId: "v" }]]);
  });
});
