/**
 * The add-to-cart modal form for a product's additional fields (SPEC §2): every field with a
 * visible label, checked with the same rules as the server (@atelier/forms); errors show above
 * each field's title.
 */
import {
  FIELD_PARTS,
  type FormField,
  LIKERT_ANSWERS,
  PART_LABELS,
  isMultiPart,
  parseFields,
  validateForm,
} from "@atelier/forms";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Modal } from "../../lib/modal.js";
import { inputKindOf } from "../form/input-types.js";
import type { AdditionalForm } from "./enhance.js";

type Values = Record<string, unknown>;

interface AdditionalFieldsFormProps {
  form: AdditionalForm;
  submitLabel: string;
  onSubmit: (values: Values) => void;
  onCancel: () => void;
}

export function AdditionalFieldsForm({ form, submitLabel, onSubmit, onCancel }: AdditionalFieldsFormProps) {
  const fields = useMemo(() => parseFields(form.fields), [form]);
  const [values, setValues] = useState<Values>(() => {
    const v: Values = {};
    for (const f of fields) if (f.type === "hidden") v[f.id] = f.value ?? "";
    return v;
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string>();
  const base = useId();
  const set = (id: string, value: unknown) => setValues((v) => ({ ...v, [id]: value }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const result = validateForm(fields, values);
    if (!result.valid) {
      setErrors(result.errors);
      setMessage(result.message);
      return;
    }
    onSubmit(values);
  };

  const fieldId = (f: FormField, part = "") => `${base}-${f.id}${part ? `-${part}` : ""}`;
  const error = (f: FormField) =>
    errors[f.id] ? (
      <p className="additional-field-error" id={`${fieldId(f)}-error`} role="alert">
        {errors[f.id]}
      </p>
    ) : null;
  const title = (f: FormField) => (
    <>
      {f.title}
      {f.required ? <span aria-hidden="true"> *</span> : null}
    </>
  );

  const render = (f: FormField) => {
    if (f.type === "hidden") return null;
    if (f.type === "section") {
      return (
        <div key={f.id} className="additional-field-section">
          <h3>{f.title}</h3>
          {f.description ? <p>{f.description}</p> : null}
        </div>
      );
    }
    const describedBy = errors[f.id] ? `${fieldId(f)}-error` : undefined;
    if (isMultiPart(f.type) || f.type === "radio" || f.type === "checkbox" || f.type === "likert") {
      let body: React.ReactNode;
      if (isMultiPart(f.type)) {
        const parts = (values[f.id] as Record<string, string> | undefined) ?? {};
        body = (
          <div className="additional-field-parts">
            {FIELD_PARTS[f.type].map((part) => (
              <label key={part} className="additional-field-part">
                <span>{PART_LABELS[part] ?? part}</span>
                <input
                  type="text"
                  value={parts[part] ?? ""}
                  onChange={(e) => set(f.id, { ...parts, [part]: e.target.value })}
                  aria-describedby={describedBy}
                />
              </label>
            ))}
          </div>
        );
      } else if (f.type === "likert") {
        const answers = (values[f.id] as Record<string, string> | undefined) ?? {};
        body = (f.questions ?? []).map((q) => (
          <label key={q} className="additional-field-part">
            <span>{q}</span>
            <select value={answers[q] ?? ""} onChange={(e) => set(f.id, { ...answers, [q]: e.target.value })}>
              <option value="">Select Value</option>
              {LIKERT_ANSWERS.map((a) => (
                <option key={a.score} value={String(a.score)}>
                  {a.text}
                </option>
              ))}
            </select>
          </label>
        ));
      } else {
        const checkbox = f.type === "checkbox";
        const chosen = checkbox ? ((values[f.id] as string[] | undefined) ?? []) : values[f.id];
        body = (f.options ?? []).map((o) => (
          <label key={o} className="additional-field-choice">
            <input
              type={checkbox ? "checkbox" : "radio"}
              name={fieldId(f)}
              value={o}
              checked={checkbox ? (chosen as string[]).includes(o) : chosen === o}
              onChange={(e) => {
                if (!checkbox) return set(f.id, o);
                const list = chosen as string[];
                set(f.id, e.target.checked ? [...list, o] : list.filter((x) => x !== o));
              }}
            />
            {o}
          </label>
        ));
      }
      return (
        <fieldset key={f.id} className="additional-field" aria-describedby={describedBy}>
          {error(f)}
          <legend>{title(f)}</legend>
          {f.description ? <p className="additional-field-description">{f.description}</p> : null}
          {body}
        </fieldset>
      );
    }
    const common = {
      id: fieldId(f),
      value: String(values[f.id] ?? ""),
      "aria-describedby": describedBy,
      "aria-invalid": errors[f.id] ? true : undefined,
      placeholder: f.placeholder,
    };
    const input = inputKindOf(f.type);
    return (
      <div key={f.id} className="additional-field">
        {error(f)}
        <label htmlFor={fieldId(f)}>{title(f)}</label>
        {f.description ? <p className="additional-field-description">{f.description}</p> : null}
        {f.type === "textarea" ? (
          <textarea {...common} rows={4} onChange={(e) => set(f.id, e.target.value)} />
        ) : f.type === "select" ? (
          <select {...common} onChange={(e) => set(f.id, e.target.value)}>
            <option value="">Select Value</option>
            {(f.options ?? []).map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            type={input.type}
            inputMode={input.mode}
            autoComplete={input.auto}
            onChange={(e) => set(f.id, e.target.value)}
          />
        )}
      </div>
    );
  };

  return (
    <Modal
      title={form.name || "Additional information"}
      onClose={onCancel}
      className="additional-fields-modal"
    >
      <form className="additional-fields-form" onSubmit={submit} noValidate>
        {message ? (
          <p className="additional-fields-message" role="alert">
            {message}
          </p>
        ) : null}
        {fields.map(render)}
        <div className="atelier-modal-actions">
          <button type="button" className="atelier-button atelier-button--secondary" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" className="atelier-button">
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
