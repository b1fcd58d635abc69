import { type ReactNode, useId } from "react";

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
