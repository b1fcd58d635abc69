/**
 * A screen's editable copy of what it loaded: change it field by field, see whether it differs from
 * what was saved, discard it, or take the saved answer as the new starting point.
 */
import { useCallback, useMemo, useState } from "react";
import { fieldErrors } from "./errors.js";

interface Draft<T extends object> {
  values: T;
  set: (patch: Partial<T>) => void;
  dirty: boolean;
  discard: () => void;
  /** After a save: what the server answered becomes both the draft and the saved state. */
  reset: (saved: T) => void;
  /** `{value, onChange, error}` for a field, the error from the API's `fields` of `error`. */
  bind: <K extends keyof T & string>(
    key: K,
    error?: unknown,
  ) => { value: T[K]; onChange: (value: T[K]) => void; error: string | undefined };
}

/**
 * `{value, onChange, error}` for a field of `values`, for a form or a part of one that is given its
 * values, its setter and (optionally) its errors by field name.
 */
export function binder<T extends object>(
  values: T,
  set: (patch: Partial<T>) => void,
  errors: Record<string, string | undefined> = {},
) {
  return <K extends keyof T & string>(key: K) => ({
    value: values[key],
    onChange: (value: T[K]) => set({ [key]: value } as unknown as Partial<T>),
    error: errors[key],
  });
}

export function useDraft<T extends object>(initial: T): Draft<T> {
  const [saved, setSaved] = useState(initial);
  const [values, setValues] = useState(initial);
  const set = useCallback((patch: Partial<T>) => setValues((v) => ({ ...v, ...patch })), []);
  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(saved), [values, saved]);
  return {
    values,
    set,
    dirty,
    discard: () => setValues(saved),
    reset: (next) => {
      setSaved(next);
      setValues(next);
    },
    bind: (key, error) => binder(values, set, fieldErrors(error))(key),
  };
}
