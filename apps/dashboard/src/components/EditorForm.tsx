/**
 * The form of an editor screen (an item, a product, a form, a page's settings): the save's error, a
 * main column and a side column, then the save bar.
 */
import type { ReactNode } from "react";
import { ErrorNotice } from "./ui.js";

export function EditorForm({
  onSubmit,
  error,
  className,
  main,
  side,
  footer,
}: {
  /** Runs on Save (or Enter); the page stays where it is. */
  onSubmit: () => void;
  error: unknown;
  className?: string;
  main: ReactNode;
  side: ReactNode;
  /** The save bar. */
  footer: ReactNode;
}) {
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      noValidate
      className={className}
    >
      <ErrorNotice error={error} />
      <div className="split">
        <div>{main}</div>
        <div>{side}</div>
      </div>
      {footer}
    </form>
  );
}
