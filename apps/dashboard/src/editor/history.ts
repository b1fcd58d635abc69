/** Undo and redo of the page layout: typing in one field within a moment is one step. */
import type { Layout } from "../api.js";

interface History {
  layout: Layout;
  past: Layout[];
  future: Layout[];
  /** Edits with the same key in a row (typing in one block) make one undo step. */
  lastKey?: string;
  lastAt: number;
}
type HistoryAction =
  | { type: "load"; layout: Layout }
  | { type: "set"; layout: Layout; key?: string }
  | { type: "undo" }
  | { type: "redo" };

export function historyReducer(h: History, a: HistoryAction): History {
  switch (a.type) {
    case "load":
      return { layout: a.layout, past: [], future: [], lastAt: 0 };
    case "set": {
      const now = Date.now();
      const coalesce = a.key !== undefined && a.key === h.lastKey && now - h.lastAt < 1500;
      return {
        layout: a.layout,
        past: coalesce ? h.past : [...h.past.slice(-99), h.layout],
        future: [],
        lastKey: a.key,
        lastAt: now,
      };
    }
    case "undo": {
      const prev = h.past[h.past.length - 1];
      if (!prev) return h;
      return { layout: prev, past: h.past.slice(0, -1), future: [h.layout, ...h.future], lastAt: 0 };
    }
    case "redo": {
      const next = h.future[0];
      if (!next) return h;
      return { layout: next, past: [...h.past, h.layout], future: h.future.slice(1), lastAt: 0 };
    }
  }
}
