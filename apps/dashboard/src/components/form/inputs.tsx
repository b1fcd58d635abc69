/**
 * The dashboard's plain inputs. Each takes its value and gives back the new value (not an event), so
 * a screen binds a field with `{...form.bind("name")}` and reads as a list of fields.
 */
import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { Field, type ValueFieldProps } from "./Field.js";

type Without<T> = Omit<T, "value" | "onChange" | "id" | "children">;

export function TextField({
  label,
  help,
  error,
  value,
  onChange,
  type = "text",
  ...rest
}: ValueFieldProps<string> & {
  type?: "text" | "email" | "password" | "url" | "search" | "number" | "date" | "datetime-local";
} & Without<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} help={help} error={error}>
      {({ control }) => (
        <input {...control} type={type} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
      )}
    </Field>
  );
}

/** The search box of a list's toolbar; minWidth widens its frame. */
export function SearchField({
  label,
  value,
  onChange,
  minWidth,
  ...rest
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  minWidth?: number;
} & Without<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} style={minWidth ? { minWidth } : undefined}>
      {({ control }) => (
        <input
          {...control}
          type="search"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...rest}
        />
      )}
    </Field>
  );
}

/** A whole or decimal number; empty gives undefined. */
export function NumberField({
  label,
  help,
  error,
  value,
  onChange,
  ...rest
}: ValueFieldProps<number | undefined> & Without<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} help={help} error={error}>
      {({ control }) => (
        <input
          {...control}
          type="number"
          value={value ?? ""}
          onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          {...rest}
        />
      )}
    </Field>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  label,
  help,
  error,
  value,
  onChange,
  options,
  ...rest
}: ValueFieldProps<string> & {
  options: readonly Option[];
} & Without<SelectHTMLAttributes<HTMLSelectElement>>) {
  return (
    <Field label={label} help={help} error={error}>
      {({ control }) => (
        <select {...control} value={value} onChange={(e) => onChange(e.target.value)} {...rest}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function TextareaField({
  label,
  help,
  error,
  value,
  onChange,
  ...rest
}: ValueFieldProps<string> & Without<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field label={label} help={help} error={error}>
      {({ control }) => (
        <textarea {...control} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
      )}
    </Field>
  );
}

/** A checkbox with its label to the right and its help (or error) under the label. */
export function CheckboxField({
  label,
  help,
  error,
  value,
  onChange,
  disabled,
}: ValueFieldProps<boolean> & { disabled?: boolean }) {
  return (
    <label className={`check${error ? " invalid" : ""}`}>
      <input
        type="checkbox"
        checked={value}
        disabled={disabled}
        aria-invalid={Boolean(error)}
        onChange={(e) => onChange(e.target.checked)}
      />
      <span>
        {label}
        {error ? <span className="error">{error}</span> : help ? <span className="help">{help}</span> : null}
      </span>
    </label>
  );
}
