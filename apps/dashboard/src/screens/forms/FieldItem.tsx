/** One field of a form in the editor: a header to open, move or remove it, and its settings. */
import { useEffect, useId, useRef } from "react";
import { MoveButtons } from "../../components/MoveButtons.js";
import { CheckboxField, SelectField, TextField, TextareaField, binder } from "../../components/form/index.js";
import { Notice } from "../../components/ui.js";
import { type FieldDraft, type FieldTypeInfo, WITH_PLACEHOLDER } from "./model.js";

type Errors = Record<string, string>;

export function FieldItem({
  field: f,
  index,
  count,
  info,
  fieldTypes,
  errors,
  open,
  focus,
  onToggle,
  onChange,
  onMove,
  onRemove,
}: {
  field: FieldDraft;
  index: number;
  count: number;
  info: FieldTypeInfo | undefined;
  fieldTypes: FieldTypeInfo[];
  errors: Errors;
  open: boolean;
  focus: boolean;
  onToggle: () => void;
  onChange: (p: Partial<FieldDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const bodyId = useId();
  const titleRef = useRef<HTMLDivElement>(null);
  const name = f.title.trim() || `field ${index + 1}`;
  const typeTitle = info?.title ?? f.type;
  const hasErrors = Object.keys(errors).length > 0;
  const field = binder(f, onChange, errors);
  const plain = binder(f, onChange);
  useEffect(() => {
    if (focus && open) titleRef.current?.querySelector("input")?.focus();
  }, [focus, open]);
  const isSection = f.type === "section";
  return (
    <li className={`ff-item${hasErrors ? " invalid" : ""}${open ? " open" : ""}`}>
      <div className="ff-head">
        <button
          type="button"
          className="ff-toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={onToggle}
        >
          <span className="ff-num" aria-hidden="true">
            {index + 1}
          </span>
          <span className="ff-title">
            {/* The name is what shows, after the action (WCAG 2.5.3: label in name). */}
            <span className="sr-only">{open ? "Close" : "Edit"} </span>
            {f.title.trim() || (
              <span className="muted">
                Untitled<span className="sr-only"> {name}</span>
              </span>
            )}
            <span className="ff-meta">
              <span className="badge">{typeTitle}</span>
              {info?.canBeRequired && f.required ? <span className="badge accent">Required</span> : null}
              {hasErrors ? <span className="badge danger">Needs attention</span> : null}
            </span>
          </span>
        </button>
        <span className="btn-row ff-tools">
          <MoveButtons
            name={name}
            index={index}
            count={count}
            onMove={onMove}
            className="btn ghost small icon"
          />
          <button
            type="button"
            className="btn ghost small icon"
            aria-label={`Remove ${name}`}
            onClick={onRemove}
          >
            ✕
          </button>
        </span>
      </div>
      {open ? (
        <div className="ff-body" id={bodyId}>
          <div className="grid-2">
            <div ref={titleRef}>
              <TextField
                label={isSection ? "Section title" : f.type === "hidden" ? "Name" : "Label"}
                {...field("title")}
                help={f.type === "hidden" ? "Optional: the column name in submissions." : undefined}
                maxLength={500}
              />
            </div>
            <SelectField
              label="Field type"
              {...field("type")}
              options={fieldTypes.map((t) => ({ value: t.type, label: t.title }))}
            />
          </div>
          {f.type === "hidden" ? (
            <TextField
              label="Value"
              {...field("value")}
              help="Sent with every submission; visitors do not see it."
            />
          ) : (
            <TextField
              label="Description"
              {...field("description")}
              help={isSection ? "Text under the section title." : "Help text under the label."}
            />
          )}
          {WITH_PLACEHOLDER.has(f.type) ? <TextField label="Placeholder" {...field("placeholder")} /> : null}
          {info?.hasOptions ? (
            <TextareaField
              label="Options"
              {...field("options")}
              help="One option per line, in the order visitors see them."
              rows={4}
            />
          ) : null}
          {info?.hasQuestions ? (
            <TextareaField
              label="Statements to rate"
              {...field("questions")}
              help="One per line. Visitors rate each from Strongly Disagree to Strongly Agree."
              rows={4}
            />
          ) : null}
          {info?.hasMaxLength ? (
            <TextField
              label="Character limit"
              inputMode="numeric"
              {...field("maxLength")}
              help="Optional. Visitors see a counter when the site's character limit is on."
            />
          ) : errors.maxLength ? (
            <Notice kind="error">{errors.maxLength}</Notice>
          ) : null}
          {info?.canBeRequired ? (
            <CheckboxField
              label="Required"
              help="Visitors cannot send the form without answering."
              {...plain("required")}
            />
          ) : null}
          {errors.id ? <Notice kind="error">{errors.id}</Notice> : null}
        </div>
      ) : null}
    </li>
  );
}
