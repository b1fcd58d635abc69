/** The dialog that asks before something is deleted for good: Cancel, or the danger button. */
import type { ReactNode } from "react";
import { ErrorNotice, Modal } from "./ui.js";

export function ConfirmDelete({
  title,
  action,
  pending,
  error,
  onConfirm,
  onClose,
  children,
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
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn danger" onClick={onConfirm} disabled={pending}>
            {action}
          </button>
        </>
      }
    >
      <ErrorNotice error={error} />
      {children}
    </Modal>
  );
}
