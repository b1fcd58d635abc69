/**
 * The bar at the foot of an edit form: whether there are unsaved changes, Discard, and Save (a submit
 * button, so Enter in a field saves too). Ctrl+S or Cmd+S saves the form being edited. A member
 * whose roles do not allow the save (the screen's write permission, or `permission`) sees no bar:
 * the form stays to read.
 */
import type { Permission } from "@atelier/owner-api";
import { type ReactNode, useEffect, useRef } from "react";
import { useMayWrite } from "../permissions.js";
import { useFocusFirstInvalid } from "./focus-first-invalid.js";

export function SaveBar({
  dirty,
  pending,
  saved,
  onDiscard,
  saveLabel = "Save",
  permission,
  children,
}: {
  dirty: boolean;
  pending: boolean;
  /** What to say once the last save went through, e.g. "Store settings saved." */
  saved?: string | false;
  onDiscard?: () => void;
  saveLabel?: string;
  /** What the save needs, when not the write permission of the screen's area. */
  permission?: Permission;
  /** More actions, shown before Discard. */
  children?: ReactNode;
}) {
  const mayWrite = useMayWrite(permission);
  const bar = useRef<HTMLDivElement>(null);
  useFocusFirstInvalid(bar, pending);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key.toLowerCase() !== "s" || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const form = bar.current?.closest("form");
      if (!form) return;
      e.preventDefault();
      // With several forms on a screen, the one being typed in saves, and any other with changes.
      if (!pending && (dirty || form.contains(document.activeElement))) form.requestSubmit();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [pending, dirty]);
  if (!mayWrite) return null;
  const state = dirty ? "Unsaved changes" : pending ? "" : saved || "";
  return (
    <div className={`save-bar${dirty ? " dirty" : ""}`} ref={bar}>
      <span className="save-bar-state" role="status">
        {state}
      </span>
      <div className="btn-row">
        {children}
        {onDiscard ? (
          <button type="button" className="btn" onClick={onDiscard} disabled={!dirty || pending}>
            Discard
          </button>
        ) : null}
        <button type="submit" className="btn primary" disabled={pending} aria-keyshortcuts="Control+S Meta+S">
          {pending ? "Saving…" : saveLabel}
        </button>
      </div>
    </div>
  );
}

/** The SaveBar of a form kept in useDraft and saved by one mutation: Discard puts the draft back. */
export function DraftSaveBar({
  draft,
  save,
  saved,
  savedEarlier = false,
  saveLabel,
  permission,
}: {
  draft: { dirty: boolean; discard: () => void };
  save: { isPending: boolean; isSuccess: boolean };
  /** What to say once the mutation (or, with savedEarlier, an earlier screen) saved, e.g. "Saved." */
  saved: string;
  savedEarlier?: boolean;
  saveLabel: string;
  permission?: Permission;
}) {
  return (
    <SaveBar
      dirty={draft.dirty}
      pending={save.isPending}
      saved={(save.isSuccess || savedEarlier) && saved}
      onDiscard={draft.discard}
      saveLabel={saveLabel}
      permission={permission}
    />
  );
}
