/**
 * One form field as the visitor fills it in, for every field type of SPEC §3. Every input has a
 * visible label; a field's error shows above its title.
 */
import { characterCounter, type FormField, LIKERT_ANSWERS, MSG_CHARACTER_LIMIT } from "@atelier/forms";
import type { ReactNode } from "react";
import { inputKindOf } from "./input-types.js";

export type Value = string | string[] | Record<string, string>;

/** The parts a multi-part field shows, by position in its answer, with labels and autocomplete. */
const PART_INPUTS: Record<string, { index: number; label: string; auto?: string; size?: "s" | "m" | "l" }[]> =
  {
    name: [
      { index: 0, label: "First Name", auto: "given-name" },
      { index: 1, label: "Last Name", auto: "family-name" },
    ],
    address: [
      { index: 0, label: "Address 1", auto: "address-line1", size: "l" },
      { index: 1, label: "Address 2", auto: "address-line2", size: "l" },
      { index: 2, label: "City", auto: "address-level2" },
      { index: 3, label: "State/Province", auto: "address-level1" },
      { index: 4, label: "ZIP/Postal Code", auto: "postal-code" },
      { index: 5, label: "Country", auto: "country-name" },
    ],
    // Three parts: the server puts an empty country code in front (SPEC §5).
    phone: [
      { index: 0, label: "Area code", auto: "tel-area-code", size: "s" },
      { index: 1, label: "Prefix", size: "s" },
      { index: 2, label: "Line", size: "s" },
    ],
    date: [
      { index: 0, label: "MM", size: "s" },
      { index: 1, label: "DD", size: "s" },
      { index: 2, label: "YYYY", size: "s" },
    ],
    time: [
      { index: 0, label: "Hour", size: "s" },
      { index: 1, label: "Minute", size: "s" },
    ],
  };

/** The empty answer of a field, shaped as the inputs above fill it. */
export function initialValue(field: FormField): Value | undefined {
  switch (field.type) {
    case "section":
      return undefined;
    case "checkbox":
      return [];
    case "likert":
      return {};
    case "hidden":
      return field.value ?? "";
    case "name":
      return ["", ""];
    case "address":
      return ["", "", "", "", "", ""];
    case "phone":
      return ["", "", ""];
    case "date":
      return ["", "", ""];
    case "time":
      return ["", "", "", "AM"];
    default:
      return "";
  }
}

interface FieldProps {
  field: FormField;
  value: Value | undefined;
  error?: string;
  idPrefix: string;
  onChange(value: Value): void;
  /** The textarea character-limit flag (SPEC §3). */
  textareaLimit: boolean;
}

function Title({ field, htmlFor, as }: { field: FormField; htmlFor?: string; as: "label" | "legend" }) {
  const content = (
    <>
      {field.title}
      {field.required && (
        <span className="form-required" aria-hidden="true">
          {" "}
          *
        </span>
      )}
    </>
  );
  return as === "label" ? (
    <label className="form-field-title" htmlFor={htmlFor}>
      {content}
    </label>
  ) : (
    <legend className="form-field-title">{content}</legend>
  );
}

function Wrapper({
  field,
  error,
  errorId,
  children,
}: {
  field: FormField;
  error?: string;
  errorId: string;
  children: ReactNode;
}) {
  return (
    <div
      className={`form-field form-field-${field.type}${error ? " form-field-invalid" : ""}`}
      data-field-id={field.id}
    >
      {error && (
        <div className="form-field-error" id={errorId}>
          {error}
        </div>
      )}
      {children}
    </div>
  );
}

export function Field({ field, value, error, idPrefix, onChange, textareaLimit }: FieldProps) {
  const id = `${idPrefix}-${field.id}`;
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const described =
    [error ? errorId : "", field.description ? helpId : ""].filter(Boolean).join(" ") || undefined;
  const help = field.description ? (
    <p className="form-field-help" id={helpId}>
      {field.description}
    </p>
  ) : null;
  const invalid = error ? true : undefined;

  if (field.type === "hidden") return null;
  if (field.type === "section") {
    return (
      <div className="form-section">
        <h3 className="form-section-title">{field.title}</h3>
        {field.description && <p className="form-field-help">{field.description}</p>}
      </div>
    );
  }

  const parts = PART_INPUTS[field.type];
  if (parts) {
    const list = Array.isArray(value) ? value : [];
    const setPart = (index: number, v: string) => {
      const next = [...list];
      next[index] = v;
      onChange(next);
    };
    return (
      <Wrapper field={field} error={error} errorId={errorId}>
        <fieldset className="form-fieldset" aria-describedby={described}>
          <Title field={field} as="legend" />
          {help}
          <div className={`form-parts form-parts-${field.type}`}>
            {parts.map((p) => (
              <label key={p.index} className={`form-part form-part-${p.size ?? "m"}`}>
                <input
                  type="text"
                  value={list[p.index] ?? ""}
                  autoComplete={p.auto}
                  inputMode={["phone", "date", "time"].includes(field.type) ? "numeric" : undefined}
                  aria-invalid={invalid}
                  onChange={(e) => setPart(p.index, e.target.value)}
                />
                <span className="form-part-label">{p.label}</span>
              </label>
            ))}
            {field.type === "time" && (
              <label className="form-part form-part-s">
                <select value={list[3] || "AM"} onChange={(e) => setPart(3, e.target.value)}>
                  <option value="AM">AM</option>
                  <option value="PM">PM</option>
                </select>
                <span className="form-part-label">AM/PM</span>
              </label>
            )}
          </div>
        </fieldset>
      </Wrapper>
    );
  }

  if (field.type === "radio" || field.type === "checkbox") {
    const options = field.options ?? [];
    const checked = (o: string) =>
      field.type === "checkbox" ? Array.isArray(value) && value.includes(o) : value === o;
    const toggle = (o: string, on: boolean) => {
      if (field.type === "radio") return onChange(o);
      const list = Array.isArray(value) ? value : [];
      onChange(on ? [...list, o] : list.filter((x) => x !== o));
    };
    return (
      <Wrapper field={field} error={error} errorId={errorId}>
        <fieldset className="form-fieldset" aria-describedby={described}>
          <Title field={field} as="legend" />
          {help}
          <div className="form-options">
            {options.map((o, i) => (
              <label key={o} className="form-option" htmlFor={`${id}-${i}`}>
                <input
                  id={`${id}-${i}`}
                  type={field.type}
                  name={id}
                  value={o}
                  checked={checked(o)}
                  aria-invalid={invalid}
                  onChange={(e) => toggle(o, e.target.checked)}
                />{" "}
                {o}
              </label>
            ))}
          </div>
        </fieldset>
      </Wrapper>
    );
  }

  if (field.type === "likert") {
    const answers = value && typeof value === "object" && !Array.isArray(value) ? value : {};
    return (
      <Wrapper field={field} error={error} errorId={errorId}>
        <fieldset className="form-fieldset" aria-describedby={described}>
          <Title field={field} as="legend" />
          {help}
          {(field.questions ?? []).map((q, qi) => (
            <fieldset key={q} className="form-likert-question">
              <legend>{q}</legend>
              <div className="form-likert-answers">
                {LIKERT_ANSWERS.map((a) => (
                  <label key={a.score} className="form-option" htmlFor={`${id}-${qi}-${a.score}`}>
                    <input
                      id={`${id}-${qi}-${a.score}`}
                      type="radio"
                      name={`${id}-${qi}`}
                      value={a.score}
                      checked={answers[q] === String(a.score)}
                      onChange={() => onChange({ ...answers, [q]: String(a.score) })}
                    />{" "}
                    {a.text}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </fieldset>
      </Wrapper>
    );
  }

  const text = typeof value === "string" ? value : "";

  if (field.type === "select") {
    return (
      <Wrapper field={field} error={error} errorId={errorId}>
        <Title field={field} as="label" htmlFor={id} />
        {help}
        <select
          id={id}
          value={text}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
        >
          <option value="">Select an option</option>
          {(field.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      </Wrapper>
    );
  }

  if (field.type === "textarea") {
    const counter = textareaLimit && field.maxLength ? characterCounter(text, field.maxLength) : undefined;
    const counterId = `${id}-counter`;
    return (
      <Wrapper field={field} error={error} errorId={errorId}>
        <Title field={field} as="label" htmlFor={id} />
        {help}
        <textarea
          id={id}
          rows={5}
          value={text}
          placeholder={field.placeholder}
          aria-invalid={invalid || counter?.exceeded || undefined}
          aria-describedby={[described, counter ? counterId : ""].filter(Boolean).join(" ") || undefined}
          onChange={(e) => onChange(e.target.value)}
        />
        {counter && (
          <p
            className={`form-counter${counter.exceeded ? " form-counter-exceeded" : ""}`}
            id={counterId}
            aria-live="polite"
          >
            {counter.count} / {counter.limit}
            {counter.exceeded && !error && (
              <span className="form-counter-message"> {MSG_CHARACTER_LIMIT}</span>
            )}
          </p>
        )}
      </Wrapper>
    );
  }

  const input = inputKindOf(field.type);
  return (
    <Wrapper field={field} error={error} errorId={errorId}>
      <Title field={field} as="label" htmlFor={id} />
      {help}
      <div className={field.type === "currency" ? "form-currency" : undefined}>
        <input
          id={id}
          type={input.type}
          inputMode={input.mode}
          autoComplete={input.auto}
          value={text}
          placeholder={field.placeholder ?? (field.type === "twitter" ? "@" : undefined)}
          aria-invalid={invalid}
          aria-describedby={described}
          onChange={(e) => onChange(e.target.value)}
        />
      </div>
    </Wrapper>
  );
}
