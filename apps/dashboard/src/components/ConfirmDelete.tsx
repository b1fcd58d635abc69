/** The dialog that asks before something is deleted for good: Cancel, or the danger button. */
import type { Permission } from "@atelier/owner-api";
import { type ReactNode, useState } from "react";
import { Card } from "./Card.js";
import { useMayWrite } from "./permissions.js";
import { ErrorNotice, ActionDialog } from "./ui.js";

export function ConfirmDelete({
  pending,
  error,
  onConfirm,
  children,
  ...dialog
}: {
  /** e.g. "Delete Spring sale?" */
  title: string;
  /** The danger button's label, e.g. "Delete product". */
  action: string;
  pending?: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  /** What deleting means, in a sentence or two. */
  children: ReactNode;
}) {
  return (
    <ActionDialog {...dialog} onAction={onConfirm} kind="danger" disabled={pending}>
      <ErrorNotice error={error} />
      {children}
    </ActionDialog>
  );
}

/**
 * The danger button that opens the dialog above, and the dialog itself, as two pieces a screen places
 * where it wants them (the button in the form, the dialog after it). The button is null for a member
 * whose roles do not allow the delete (the screen's write permission, or `permission`).
 */
export function useDeleteConfirm({
  onClose,
  permission,
  ...dialog
}: Omit<Parameters<typeof ConfirmDelete>[0], "onClose"> & {
  /** Runs as the dialog closes, after it is hidden. */
  onClose?: () => void;
  /** What the delete needs, when not the write permission of the screen's area. */
  permission?: Permission;
}) {
  const [open, setOpen] = useState(false);
  const mayWrite = useMayWrite(permission);
  return {
    allowed: mayWrite,
    button: !mayWrite ? null : (
      <button type="button" className="btn small danger" onClick={() => setOpen(true)}>
        {dialog.action}
      </button>
    ),
    dialog: open ? (
      <ConfirmDelete
        {...dialog}
        onClose={() => {
          setOpen(false);
          onClose?.();
        }}
      />
    ) : null,
  };
}

/** The Delete card at the foot of an editor's side column (none for a member who may not delete). */
export function DeleteCard({
  note,
  permission,
  children,
}: {
  note?: string;
  permission?: Permission;
  children: ReactNode;
}) {
  if (!useMayWrite(permission)) return null;
  return (
    <Card title="Delete">
      {note ? <p className="muted small">{note}</p> : null}
      {children}
    </Card>
  );
}
