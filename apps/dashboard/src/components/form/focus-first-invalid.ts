/**
 * After a save that failed: focus goes to the first field marked invalid, whose error its
 * aria-describedby reads out, so people using the keyboard or a screen reader land on it.
 */
import { type RefObject, useEffect, useRef } from "react";

/** Focuses the first `[aria-invalid="true"]` inside `root`; false when there is none. */
function focusFirstInvalid(root: ParentNode | null | undefined): boolean {
  const field = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return false;
  field.focus();
  return true;
}

/** When `pending` turns false (a submit came back), focuses the first invalid field of the form around `inside`. */
export function useFocusFirstInvalid(inside: RefObject<HTMLElement | null>, pending: boolean): void {
  const was = useRef(pending);
  useEffect(() => {
    if (was.current && !pending) focusFirstInvalid(inside.current?.closest("form") ?? inside.current);
    was.current = pending;
  }, [inside, pending]);
}
