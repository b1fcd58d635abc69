/**
 * Saves what the owner writes a moment after they stop: one save at a time, the newest values
 * saved again when they changed while a save ran. `flush` saves now and waits (before a send).
 */
import { useCallback, useEffect, useRef, useState } from "react";

export type AutosaveState =
  | { kind: "idle" }
  | { kind: "waiting" }
  | { kind: "saving" }
  | { kind: "saved" }
  | { kind: "failed"; error: unknown };

export function useAutosave<T>(values: T, save: (values: T) => Promise<void>, delay = 800) {
  const [state, setState] = useState<AutosaveState>({ kind: "idle" });
  /** The last save's refusal, kept while the next one waits (its field messages stay in view). */
  const [error, setError] = useState<unknown>(null);
  const json = JSON.stringify(values);
  const latest = useRef({ values, json, save });
  latest.current = { values, json, save };
  /** What the server holds (the loaded campaign's fields, then each save's). */
  const saved = useRef(json);
  const running = useRef<Promise<void> | null>(null);

  const run = useCallback(async (): Promise<void> => {
    while (running.current) await running.current.catch(() => undefined);
    const { values: v, json: j, save: s } = latest.current;
    if (j === saved.current) return;
    setState({ kind: "saving" });
    const attempt = s(v).then(
      () => {
        saved.current = j;
        setError(null);
        setState(latest.current.json === j ? { kind: "saved" } : { kind: "waiting" });
      },
      (error: unknown) => {
        setState({ kind: "failed", error });
        setError(error);
        throw error;
      },
    );
    running.current = attempt;
    try {
      await attempt;
    } finally {
      running.current = null;
    }
  }, []);

  useEffect(() => {
    if (json === saved.current) return;
    setState((s) => (s.kind === "saving" ? s : { kind: "waiting" }));
    const timer = setTimeout(() => void run().catch(() => undefined), delay);
    return () => clearTimeout(timer);
  }, [json, delay, run]);

  return { state, error, flush: run, dirty: json !== saved.current };
}
