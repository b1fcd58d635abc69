/**
 * The frame every dashboard input sits in: a visible label, then the input, then either the field's
 * error (from the API's `fields` or the form's own check) or its help, linked to the input by
 * aria-describedby.
 */
import { type CSSProperties, type ReactNode, useId } from "react";

export interface FieldProps {
  label: string;
  help?: ReactNode;
  error?: string;
}

/** The props of an input that shows `value` and hands the new value to `onChange` (not an event). */
export type ValueFieldProps<V> = FieldProps & { value: V; onChange: (value: V) => void };

interface FieldIds {
  /** The input's id, for the label's htmlFor. */
  id: string;
  /** The label's own id, for inputs labelled by aria-labelledby. */
  labelId: string;
  /** The id of the help or error line, when there is one. */
  describedBy: string | undefined;
  invalid: boolean;
  /** id, aria-invalid and aria-describedby, to spread on the one input the label names. */
  control: { id: string; "aria-invalid": boolean; "aria-describedby": string | undefined };
}

export function Field({
  label,
  help,
  error,
  labelFor = true,
  className,
  style,
  children,
}: FieldProps & {
  /** False where the label names a group of controls rather than one input. */
  labelFor?: boolean;
  className?: string;
  style?: CSSProperties;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const labelId = `${id}-l`;
  const noteId = `${id}-d`;
  const describedBy = error || help ? noteId : undefined;
  return (
    <div className={`field${error ? " invalid" : ""}${className ? ` ${className}` : ""}`} style={style}>
      {labelFor ? (
        <label htmlFor={id} id={labelId}>
          {label}
        </label>
      ) : (
        <span className="label" id={labelId}>
          {label}
        </span>
      )}
      {children({
        id,
        labelId,
        describedBy,
        invalid: Boolean(error),
        control: { id, "aria-invalid": Boolean(error), "aria-describedby": describedBy },
      })}
      {error ? (
        <span className="error" id={noteId}>
          {error}
        </span>
      ) : help ? (
        <span className="help" id={noteId}>
          {help}
        </span>
      ) : null}
    </div>
  );
}
