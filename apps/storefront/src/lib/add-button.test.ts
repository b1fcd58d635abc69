import { describe, expect, it } from "vitest";
import {
  ADDED_AFTER_MS,
  ADDED_FOR_MS,
  AddButtonMachine,
  type AddButtonState,
  ERROR_IDLE_AFTER_MS,
  LABEL_ADDED,
  LABEL_ADDING,
  type Timers,
  failureTitle,
  labelFor,
} from "./add-button.js";

/** Timers driven by hand: `advance(ms)` runs what falls due. */
function fakeTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    set(fn, ms) {
      const id = ++seq;
      pending.set(id, { at: now + ms, fn });
      return id;
    },
    clear(handle) {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = end;
    },
  };
}

function machine() {
  const clock = fakeTimers();
  const states: AddButtonState[] = [];
  const m = new AddButtonMachine((s) => states.push(s), clock.timers);
  return { m, states, clock };
}

describe("the add-to-cart button", () => {
  it("goes idle → adding → added about 1 s after the answer → idle 2 s later", () => {
    const { m, states, clock } = machine();
    expect(m.state).toBe("idle");
    expect(m.press()).toBe(true);
    expect(m.state).toBe("adding");
    m.succeeded();
    clock.advance(ADDED_AFTER_MS - 1);
    expect(m.state).toBe("adding");
    clock.advance(1);
    expect(m.state).toBe("added");
    clock.advance(ADDED_FOR_MS - 1);
    expect(m.state).toBe("added");
    clock.advance(1);
    expect(m.state).toBe("idle");
    expect(states).toEqual(["adding", "added", "idle"]);
    expect(ADDED_AFTER_MS).toBe(1000);
    expect(ADDED_FOR_MS).toBe(2000);
  });

  it("ignores clicks while adding and while added", () => {
    const { m, clock } = machine();
    m.press();
    expect(m.press()).toBe(false);
    m.succeeded();
    clock.advance(ADDED_AFTER_MS);
    expect(m.state).toBe("added");
    expect(m.press()).toBe(false);
    expect(m.state).toBe("added");
    clock.advance(ADDED_FOR_MS);
    expect(m.press()).toBe(true);
  });

  it("returns to idle 1 s after an error", () => {
    const { m, states, clock } = machine();
    m.press();
    m.failed();
    clock.advance(ERROR_IDLE_AFTER_MS - 1);
    expect(m.state).toBe("adding");
    clock.advance(1);
    expect(m.state).toBe("idle");
    expect(states).toEqual(["adding", "idle"]);
    expect(ERROR_IDLE_AFTER_MS).toBe(1000);
  });

  it("cancels at once, and disposes its timer", () => {
    const { m, clock } = machine();
    m.press();
    m.cancel();
    expect(m.state).toBe("idle");
    m.press();
    m.succeeded();
    m.dispose();
    clock.advance(10_000);
    expect(m.state).toBe("adding");
  });

  it("labels each state", () => {
    expect(labelFor("idle", "Add To Cart")).toBe("Add To Cart");
    expect(labelFor("adding", "Add To Cart")).toBe(LABEL_ADDING);
    expect(labelFor("added", "Add To Cart")).toBe(LABEL_ADDED);
    expect(LABEL_ADDING).toBe("Adding…");
    expect(LABEL_ADDED).toBe("Added!");
  });

  it("titles failure alerts as the SPEC does", () => {
    expect(failureTitle("cart")).toBe("Unable to Add Item");
    expect(failureTitle("express")).toBe("Unable to Purchase Item");
    expect(failureTitle("subscription")).toBe("Unable to Purchase Item");
    expect(failureTitle("gift-card")).toBe("Unable to purchase Gift Card");
  });
});
