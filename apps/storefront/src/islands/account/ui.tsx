import type { HttpAnswer } from "@atelier/forms";
import { type ReactNode, useId, useState } from "react";
import { send } from "../form/http.js";
import { failure } from "./session.js";

/** An input of a table-described account form. */
export interface AccountInput<K extends string> {
  key: K;
  label: string;
  /** The autocomplete token. */
  auto: string;
  type?: string;
  required?: boolean;
}

/** A form's call state: busy, its message, and the errors of its fields. */
export function useBusy() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const [fields, setFields] = useState<Record<string, string>>({});
  /** A call starts: busy, and no message. */
  const start = () => {
    setBusy(true);
    setMessage(undefined);
  };
  return {
    busy,
    setBusy,
    message,
    setMessage,
    fields,
    setFields,
    start,
    /** Starts a call and POSTs `body` to `path`. */
    post(path: string, body: unknown): Promise<HttpAnswer> {
      start();
      return send(path, { method: "POST", body });
    },
    /** Shows a failed answer: its field errors, and its message unless `field` has an error. */
    fail(answer: HttpAnswer, field?: string): void {
      const f = failure(answer);
      setFields(f.fields);
      setMessage(field && f.fields[field] ? undefined : f.message);
    },
  };
}

/** The form's submit button, saying `busyText` while its call runs. */
export function SubmitButton(props: {
  busy: boolean;
  disabled?: boolean;
  busyText: string;
  children: string;
}) {
  return (
    <button className="button button-primary" type="submit" disabled={props.busy || props.disabled}>
      {props.busy ? props.busyText : props.children}
    </button>
  );
}

export function TextInput(props: {
  label: string;
  type?: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  autoComplete?: string;
  required?: boolean;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`account-field${props.error ? " account-field-invalid" : ""}`}>
      {props.error && (
        <div className="account-field-error" id={errorId}>
          {props.error}
        </div>
      )}
      <label htmlFor={id}>
        {props.label}
        {props.required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        type={props.type ?? "text"}
        value={props.value}
        autoComplete={props.autoComplete}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

export function Alert({ children, kind = "error" }: { children: ReactNode; kind?: "error" | "success" }) {
  return (
    <p className={`account-alert account-alert-${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** An account view; the page around it (a system page of the theme) shows its title. */
export function Page({ title, children, nav }: { title: string; children: ReactNode; nav?: ReactNode }) {
  return (
    <section className="atelier-account" aria-label={title}>
      {nav}
      {children}
    </section>
  );
}
