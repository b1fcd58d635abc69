/** A read-only value (a feed address, a new API key) with a button that copies it to the clipboard. */
import { type ReactNode, useState } from "react";
import { Field } from "./form/Field.js";

export function CopyField({
  label,
  value,
  help,
  buttonLabel,
  onCopy,
}: {
  label: string;
  value: string;
  help?: ReactNode;
  /** The button's accessible name where "Copy" alone would be ambiguous on the screen. */
  buttonLabel?: string;
  onCopy?: () => void;
}) {
  const [copied, setCopied] = useState<"" | "ok" | "failed">("");
  const copy = async () => {
    onCopy?.();
    try {
      await navigator.clipboard.writeText(value);
      setCopied("ok");
    } catch {
      setCopied("failed");
    }
  };
  const said =
    copied === "ok" ? "Copied" : copied === "failed" ? "Could not copy: select it and copy it." : "";
  return (
    <Field label={label} help={<span aria-live="polite">{said || help}</span>}>
      {({ id, describedBy }) => (
        <div className="copy-field">
          <input
            id={id}
            type="text"
            readOnly
            value={value}
            onFocus={(e) => e.currentTarget.select()}
            aria-describedby={describedBy}
          />
          <button type="button" className="btn small" onClick={() => void copy()} aria-label={buttonLabel}>
            Copy
          </button>
        </div>
      )}
    </Field>
  );
}
