import { describe, expect, it } from "vitest";
import { inOrder } from "./in-order.js";

describe("inOrder", () => {
  it("sends each call only after the one before has answered, even when answers would cross", async () => {
    const arrived: string[] = [];
    // A slow first answer and a fast second one: without the queue "off" would land last.
    const delays: Record<string, number> = { "on 1": 30, off: 1, "on 2": 10 };
    const send = inOrder(async (what: string) => {
      arrived.push(`start ${what}`);
      await new Promise((r) => setTimeout(r, delays[what]));
      arrived.push(`done ${what}`);
      return what;
    });
    const answers = await Promise.all([send("on 1"), send("off"), send("on 2")]);
    expect(answers).toEqual(["on 1", "off", "on 2"]);
    expect(arrived).toEqual(["start on 1", "done on 1", "start off", "done off", "start on 2", "done on 2"]);
  });

  it("goes on after a call that failed", async () => {
    const send = inOrder(async (n: number) => {
      if (n === 1) throw new Error("offline");
      return n;
    });
    expect(await Promise.all([send(1), send(2)])).toEqual([undefined, 2]);
  });
});
