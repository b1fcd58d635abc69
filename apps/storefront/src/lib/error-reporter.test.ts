import { describe, expect, it } from "vitest";
import {
  DEBOUNCE_MS,
  type ErrorEvent,
  ErrorReporter,
  MAX_BATCHES,
  MAX_QUEUED,
  MAX_STACK,
} from "./error-reporter.js";

/** A reporter on a hand-driven clock: `advance` runs the timers that are due. */
function harness() {
  const sent: ErrorEvent[][] = [];
  let now = 0;
  let timer: { at: number; fn: () => void } | undefined;
  const reporter = new ErrorReporter({
    send: (b) => sent.push(b),
    now: () => now,
    setTimer: (fn, ms) => {
      timer = { at: now + ms, fn };
      return timer;
    },
    clearTimer: (h) => {
      if (h === timer) timer = undefined;
    },
  });
  const advance = (ms: number) => {
    now += ms;
    if (timer && timer.at <= now) {
      const t = timer;
      timer = undefined;
      t.fn();
    }
  };
  return { reporter, sent, advance };
}

describe("the script error reporter (SPEC §9)", () => {
  it("sends a batch 1000 ms after the last error, not before", () => {
    const { reporter, sent, advance } = harness();
    reporter.report({ message: "a" });
    advance(DEBOUNCE_MS - 1);
    reporter.report({ message: "b" });
    advance(DEBOUNCE_MS - 1);
    expect(sent).toEqual([]);
    advance(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((e) => JSON.parse(e.data).message)).toEqual(["a", "b"]);
    expect(sent[0]![0]!.event).toBe("javascript-error");
  });

  it("keeps at most 10 queued events", () => {
    const { reporter, sent, advance } = harness();
    for (let i = 0; i < MAX_QUEUED + 5; i++) reporter.report({ message: `e${i}` });
    advance(DEBOUNCE_MS);
    expect(sent[0]).toHaveLength(MAX_QUEUED);
  });

  it("sends at most 20 batches a page", () => {
    const { reporter, sent, advance } = harness();
    for (let i = 0; i < MAX_BATCHES + 3; i++) {
      reporter.report({ message: `e${i}` });
      advance(DEBOUNCE_MS);
    }
    expect(sent).toHaveLength(MAX_BATCHES);
  });

  it("cuts stack traces at 5000 characters", () => {
    const { reporter, sent, advance } = harness();
    reporter.report({ message: "long", stack: "x".repeat(MAX_STACK + 100) });
    advance(DEBOUNCE_MS);
    expect(JSON.parse(sent[0]![0]!.data).stack).toHaveLength(MAX_STACK);
  });
});
