/** A design screen with a live preview: its heading, the form of its controls, and the site beside it. */
import type { ReactNode } from "react";
import { PageHead } from "../../components/ui.js";
import { DesignHistory } from "./DesignHistory.js";

export function PreviewSplit({
  title,
  sub,
  label,
  wide,
  onSubmit,
  preview,
  children,
}: {
  title: string;
  sub: string;
  /** The form's accessible name. */
  label: string;
  /** Wider controls (a code editor). */
  wide?: boolean;
  onSubmit: () => void;
  /** The PreviewFrame. */
  preview: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="design-screen">
      <PageHead title={title} sub={sub} actions={<DesignHistory />} />
      <div className={`design-split${wide ? " wide-controls" : ""}`}>
        <form
          className="design-controls"
          aria-label={label}
          onSubmit={(e) => {
            e.preventDefault();
            onSubmit();
          }}
        >
          {children}
        </form>
        {preview}
      </div>
    </div>
  );
}
