/** The Styles screen's editing state: undo/redo over the styles, dirty against what was saved. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Styles } from "./design-api.js";
import { type History, edit, redo, startHistory, undo } from "./history.js";

export function useStyleHistory(saved: Styles | undefined) {
  const [history, setHistory] = useState<History<Styles> | undefined>();
  // The first load starts the history; later loads (after Save) keep it, so Save can be undone too.
  useEffect(() => {
    if (saved && !history) setHistory(startHistory(saved));
  }, [saved, history]);
  const change = useCallback(
    (fn: (s: Styles) => Styles) => setHistory((h) => (h ? edit(h, fn(h.present)) : h)),
    [],
  );
  const replace = useCallback((s: Styles) => setHistory((h) => (h ? edit(h, s) : startHistory(s))), []);
  return {
    styles: history?.present,
    dirty: Boolean(history && saved && JSON.stringify(history.present) !== JSON.stringify(saved)),
    canUndo: Boolean(history?.past.length),
    canRedo: Boolean(history?.future.length),
    change,
    replace,
    undo: useCallback(() => setHistory((h) => (h ? undo(h) : h)), []),
    redo: useCallback(() => setHistory((h) => (h ? redo(h) : h)), []),
  };
}

/** Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z (or Ctrl+Y) redoes; text fields keep their own undo. (The save bar saves on Ctrl+S.) */
export function useDesignKeys(keys: { undo: () => void; redo: () => void }) {
  const latest = useRef(keys);
  latest.current = keys;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      const t = e.target as HTMLElement | null;
      const typing = t?.matches?.("input[type=text], input[type=number], textarea, [contenteditable=true]");
      if (typing) return;
      if (key === "z" && !e.shiftKey) latest.current.undo();
      else if ((key === "z" && e.shiftKey) || key === "y") latest.current.redo();
      else return;
      e.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
}

/** While there are unsaved changes, closing or reloading the tab asks first. */
export function useLeaveGuard(dirty: boolean) {
  useEffect(() => {
    if (!dirty) return;
    const onLeave = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onLeave);
    return () => window.removeEventListener("beforeunload", onLeave);
  }, [dirty]);
}
