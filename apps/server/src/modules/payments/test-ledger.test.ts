/** The test payment provider's one-file ledger, shared by the processes pointed at its folder. */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TestLedger } from "./test-ledger.js";

const dirs: string[] = [];
const newDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "atelier-ledger-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the test payment ledger", () => {
  it("creates a name once across processes: the first line in the file wins, both see it", () => {
    const dir = newDir();
    // Two processes on one folder, each with its own memory of the file.
    const one = new TestLedger(dir);
    const two = new TestLedger(dir);
    expect(one.read("charges/a")).toBeUndefined();
    expect(two.read("charges/a")).toBeUndefined();
    expect(one.create("charges/a", { by: "one" })).toBe(true);
    expect(two.create("charges/a", { by: "two" })).toBe(false);
    expect(two.read("charges/a")).toEqual({ by: "one" });
    // Two processes that each appended a creation before reading the other's: the first wins.
    const file = path.join(dir, "ledger.jsonl");
    appendFileSync(file, `\n${JSON.stringify({ n: "charges/b", v: 1, w: "x" })}\n`);
    appendFileSync(file, `\n${JSON.stringify({ n: "charges/b", v: 2, w: "y" })}\n`);
    expect(one.read("charges/b")).toBe(1);
    expect(new TestLedger(dir).read("charges/b")).toBe(1);
    expect(two.create("charges/b", 3)).toBe(false);
  });

  it("keeps the last write, answers fresh copies and lists by kind", () => {
    const dir = newDir();
    const ledger = new TestLedger(dir);
    ledger.create("charges/a", { status: "requires_action" });
    const read = ledger.read<{ status: string }>("charges/a")!;
    read.status = "changed in memory only";
    expect(ledger.read("charges/a")).toEqual({ status: "requires_action" });
    ledger.write("charges/a", { status: "succeeded" });
    ledger.write("vault/pm", { card: "4242" });
    expect(new TestLedger(dir).read("charges/a")).toEqual({ status: "succeeded" });
    expect(new TestLedger(dir).list("charges/")).toEqual([{ status: "succeeded" }]);
  });

  it("skips a line cut short and reads the lines after it", () => {
    const dir = newDir();
    const ledger = new TestLedger(dir);
    ledger.create("charges/a", 1);
    appendFileSync(path.join(dir, "ledger.jsonl"), '\n{"n":"charges/b","v":');
    ledger.create("charges/c", 3);
    const again = new TestLedger(dir);
    expect(again.list("charges/").sort()).toEqual([1, 3]);
    expect(readFileSync(path.join(dir, "ledger.jsonl"), "utf8")).toContain('"charges/c"');
  });

  it("still reads a ledger written before, one file per value", () => {
    const dir = newDir();
    mkdirSync(path.join(dir, "charges"), { recursive: true });
    writeFileSync(path.join(dir, "charges", "old.json"), JSON.stringify({ id: "tch_old" }));
    const ledger = new TestLedger(dir);
    expect(ledger.read("charges/old")).toEqual({ id: "tch_old" });
    expect(ledger.create("charges/old", { id: "again" })).toBe(false);
    ledger.create("charges/new", { id: "tch_new" });
    expect(
      ledger
        .list<{ id: string }>("charges/")
        .map((c) => c.id)
        .sort(),
    ).toEqual(["tch_new", "tch_old"]);
  });
});
