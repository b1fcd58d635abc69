/**
 * Forms: the site's forms (name, fields, submissions) and the form editor — the fields as an
 * ordered list of the SPEC's field types (add, edit, reorder, remove) and what happens after a
 * visitor submits (message, redirect, notification email, captcha). Form and newsletter blocks
 * on pages, and products' additional-fields forms, show these forms.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { ApiError, del, get, patch, post } from "../api.js";
import { ErrorNotice, Loading, Modal, Notice, PageHead, useSiteId } from "../components/ui.js";
import { CheckboxField, SelectField, TextField, TextareaField } from "../components/form/index.js";

// ─── Shapes ─────────────────────────────────────────────────────────────────────────────────

interface FormFieldJson {
  id: string;
  type: string;
  title: string;
  description?: string;
  required?: boolean;
  placeholder?: string;
  options?: string[];
  questions?: string[];
  maxLength?: number;
  value?: string;
}

export interface OwnerForm {
  id: string;
  name: string;
  fields: FormFieldJson[];
  submissionMessage?: string;
  submissionHtml?: string;
  successRedirect?: string | null;
  disclaimerMessage?: string | null;
  captchaEnabled?: boolean;
  captchaTheme?: number;
  captchaAlignment?: number;
  notifyEmail: string | null;
  submissions: number;
}

interface FieldTypeInfo {
  type: string;
  title: string;
  canBeRequired: boolean;
  hasOptions: boolean;
  hasQuestions: boolean;
  hasMaxLength: boolean;
}

interface TemplateSchema {
  fieldTypes: FieldTypeInfo[];
  defaults: { name: string; fields: FormFieldJson[]; submissionMessage: string; captchaEnabled: boolean };
}

/** A field as the editor holds it: lists and numbers as the owner types them. */
interface FieldDraft {
  id: string;
  type: string;
  title: string;
  description: string;
  required: boolean;
  placeholder: string;
  options: string;
  questions: string;
  maxLength: string;
  value: string;
}

interface FormDraft {
  name: string;
  fields: FieldDraft[];
  submissionMessage: string;
  submissionHtml: string;
  successRedirect: string;
  disclaimerMessage: string;
  notifyEmail: string;
  captchaEnabled: boolean;
  captchaTheme: number;
  captchaAlignment: number;
}

/** Field types whose single input shows a placeholder. */
const WITH_PLACEHOLDER = new Set([
  "text",
  "textarea",
  "email",
  "currency",
  "number",
  "website",
  "password",
  "twitter",
]);

const MSG_MAX_LENGTH = "Enter a whole number of characters, like 500, or leave it empty.";

export function useForms() {
  const siteId = useSiteId();
  return useQuery({
    queryKey: ["forms", siteId],
    queryFn: () => get<{ forms: OwnerForm[] }>(`/api/owner/sites/${siteId}/forms`).then((r) => r.forms),
    enabled: Boolean(siteId),
  });
}

function useTemplate() {
  return useQuery({
    queryKey: ["form-template"],
    queryFn: () => get<TemplateSchema>("/api/template/GetTemplateSchema?type=form"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);

function toFieldDraft(f: FormFieldJson): FieldDraft {
  return {
    id: f.id,
    type: f.type,
    title: f.title ?? "",
    description: f.description ?? "",
    required: Boolean(f.required),
    placeholder: f.placeholder ?? "",
    options: (f.options ?? []).join("\n"),
    questions: (f.questions ?? []).join("\n"),
    maxLength: f.maxLength === undefined ? "" : String(f.maxLength),
    value: f.value ?? "",
  };
}

function toDraft(form: Partial<OwnerForm> & { fields: FormFieldJson[] }): FormDraft {
  return {
    name: form.name ?? "",
    fields: form.fields.map(toFieldDraft),
    submissionMessage: form.submissionMessage ?? "",
    submissionHtml: form.submissionHtml ?? "",
    successRedirect: form.successRedirect ?? "",
    disclaimerMessage: form.disclaimerMessage ?? "",
    notifyEmail: form.notifyEmail ?? "",
    captchaEnabled: Boolean(form.captchaEnabled),
    captchaTheme: form.captchaTheme ?? 1,
    captchaAlignment: form.captchaAlignment ?? 1,
  };
}

/** The field as the server takes it: only the settings its type has. */
function toFieldBody(f: FieldDraft, info: FieldTypeInfo | undefined): FormFieldJson {
  const out: FormFieldJson = { id: f.id, type: f.type, title: f.title.trim() };
  if (f.description.trim()) out.description = f.description.trim();
  if (info?.canBeRequired) out.required = f.required;
  if (WITH_PLACEHOLDER.has(f.type) && f.placeholder.trim()) out.placeholder = f.placeholder.trim();
  if (info?.hasOptions) out.options = lines(f.options);
  if (info?.hasQuestions) out.questions = lines(f.questions);
  if (info?.hasMaxLength && f.maxLength.trim()) out.maxLength = Number(f.maxLength.trim());
  if (f.type === "hidden") out.value = f.value;
  return out;
}

function newFieldId(type: string, taken: Set<string>): string {
  for (;;) {
    const id = `${type}-${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}

// ─── The list ───────────────────────────────────────────────────────────────────────────────

export function Forms() {
  const siteId = useSiteId();
  const { formId } = useParams();
  if (formId) return <FormEditorScreen key={formId} formId={formId} />;
  return <FormList siteId={siteId} />;
}

function FormList({ siteId }: { siteId: string }) {
  const forms = useForms();
  const [params] = useSearchParams();
  const deleted = params.get("deleted");
  return (
    <>
      <PageHead
        title="Forms"
        sub="Contact forms, sign-ups and surveys for the form blocks on your pages."
        actions={
          <Link className="btn primary" to={`/sites/${siteId}/forms/new`}>
            Create form
          </Link>
        }
      />
      {deleted ? <Notice kind="ok">The form “{deleted}” was deleted.</Notice> : null}
      <ErrorNotice error={forms.error} />
      {forms.isLoading ? <Loading /> : null}
      {forms.data ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th>Form</th>
                <th className="num">Fields</th>
                <th className="num">Submissions</th>
                <th className="hide-phone">After submitting</th>
              </tr>
            </thead>
            <tbody>
              {forms.data.map((f) => (
                <tr key={f.id}>
                  <td>
                    <Link to={`/sites/${siteId}/forms/${f.id}`}>{f.name}</Link>
                    {f.captchaEnabled ? <span className="badge"> Captcha</span> : null}
                  </td>
                  <td className="num">{f.fields.filter((x) => x.type !== "section").length}</td>
                  <td className="num">
                    <Link
                      to={`/sites/${siteId}/ops/forms/${f.id}`}
                      aria-label={`${f.submissions} submissions of ${f.name}`}
                    >
                      {f.submissions}
                    </Link>
                  </td>
                  <td className="hide-phone muted small">
                    {f.successRedirect
                      ? `Goes to ${f.successRedirect}`
                      : f.submissionMessage
                        ? `Shows “${f.submissionMessage.length > 50 ? `${f.submissionMessage.slice(0, 50)}…` : f.submissionMessage}”`
                        : "Shows a thank-you message"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {!forms.data.length ? (
            <div className="empty">
              <p>No forms yet.</p>
              <Link className="btn primary" to={`/sites/${siteId}/forms/new`}>
                Create your first form
              </Link>
            </div>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

// ─── The editor ─────────────────────────────────────────────────────────────────────────────

function FormEditorScreen({ formId }: { formId: string }) {
  const siteId = useSiteId();
  const forms = useForms();
  const template = useTemplate();
  const isNew = formId === "new";
  if (forms.isLoading || template.isLoading) return <Loading />;
  if (!template.data) return <ErrorNotice error={template.error} />;
  if (!forms.data) return <ErrorNotice error={forms.error} />;
  const form = forms.data.find((f) => f.id === formId);
  if (!isNew && !form) {
    return (
      <>
        <PageHead title="Form not found" />
        <Notice kind="error">
          This form does not exist any more. <Link to={`/sites/${siteId}/forms`}>All forms</Link>
        </Notice>
      </>
    );
  }
  const initial = form
    ? toDraft(form)
    : toDraft({
        name: "",
        fields: template.data.defaults.fields,
        submissionMessage: template.data.defaults.submissionMessage,
        captchaEnabled: template.data.defaults.captchaEnabled,
        notifyEmail: null,
      });
  return <FormEditor form={form} initial={initial} fieldTypes={template.data.fieldTypes} />;
}

type Errors = Record<string, string>;

function FormEditor({
  form,
  initial,
  fieldTypes,
}: {
  form?: OwnerForm;
  initial: FormDraft;
  fieldTypes: FieldTypeInfo[];
}) {
  const siteId = useSiteId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [d, setD] = useState<FormDraft>(initial);
  const [saved, setSaved] = useState(params.get("saved") === "1");
  const [open, setOpen] = useState<Set<string>>(() => new Set(form ? [] : initial.fields.map((f) => f.id)));
  const [focusId, setFocusId] = useState<string | undefined>();
  const [newType, setNewType] = useState("text");
  const [confirmDelete, setConfirmDelete] = useState(false);
  /** Problems with the form's settings, by property; field problems by field id then property. */
  const [errors, setErrors] = useState<Errors>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, Errors>>({});
  const [problem, setProblem] = useState<unknown>();
  const typeInfo = new Map(fieldTypes.map((t) => [t.type, t]));

  const set = (p: Partial<FormDraft>) => {
    setSaved(false);
    setD((old) => ({ ...old, ...p }));
  };
  const setField = (id: string, p: Partial<FieldDraft>) => {
    setSaved(false);
    setD((old) => ({ ...old, fields: old.fields.map((f) => (f.id === id ? { ...f, ...p } : f)) }));
  };
  const move = (i: number, by: -1 | 1) => {
    const next = [...d.fields];
    const j = i + by;
    if (j < 0 || j >= next.length) return;
    [next[i], next[j]] = [next[j]!, next[i]!];
    set({ fields: next });
  };
  const remove = (id: string) => set({ fields: d.fields.filter((f) => f.id !== id) });
  const add = () => {
    const info = typeInfo.get(newType);
    const id = newFieldId(newType, new Set(d.fields.map((f) => f.id)));
    set({
      fields: [
        ...d.fields,
        toFieldDraft({ id, type: newType, title: info?.type === "hidden" ? "" : (info?.title ?? "") }),
      ],
    });
    setOpen((o) => new Set(o).add(id));
    setFocusId(id);
  };

  const save = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      form
        ? patch<{ form: OwnerForm }>(`/api/owner/sites/${siteId}/forms/${form.id}`, body)
        : post<{ form: OwnerForm }>(`/api/owner/sites/${siteId}/forms`, body),
    onSuccess: ({ form: f }) => {
      const row: OwnerForm = { ...f, submissions: form?.submissions ?? 0 };
      queryClient.setQueryData<OwnerForm[]>(["forms", siteId], (old) =>
        old?.some((x) => x.id === f.id) ? old.map((x) => (x.id === f.id ? row : x)) : [...(old ?? []), row],
      );
      void queryClient.invalidateQueries({ queryKey: ["forms", siteId] });
      setSaved(true);
      if (!form) navigate(`/sites/${siteId}/forms/${f.id}?saved=1`, { replace: true });
      else setD(toDraft(row));
    },
    onError: (err, body) => {
      setProblem(err);
      if (!(err instanceof ApiError) || !err.fields) return;
      // Field problems come keyed by position (`fields.2.options`): keep them with their field.
      const ids = (body.fields as FormFieldJson[]).map((f) => f.id);
      const top: Errors = {};
      const byField: Record<string, Errors> = {};
      for (const [key, message] of Object.entries(err.fields)) {
        const m = /^fields\.(\d+)\.(\w+)$/.exec(key);
        const id = m ? ids[Number(m[1])] : undefined;
        if (m && id) byField[id] = { ...byField[id], [m[2]!]: message };
        else top[key] = message;
      }
      setErrors(top);
      setFieldErrors(byField);
      setOpen((o) => new Set([...o, ...Object.keys(byField)]));
    },
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(undefined);
    setErrors({});
    // Character limits are whole numbers; say so before asking the server.
    const local: Record<string, Errors> = {};
    for (const f of d.fields) {
      const t = f.maxLength.trim();
      if (typeInfo.get(f.type)?.hasMaxLength && t && !/^[1-9]\d{0,6}$/.test(t))
        local[f.id] = { maxLength: MSG_MAX_LENGTH };
    }
    setFieldErrors(local);
    if (Object.keys(local).length) {
      setOpen((o) => new Set([...o, ...Object.keys(local)]));
      setProblem(new Error("Please correct the highlighted fields."));
      return;
    }
    save.mutate({
      name: d.name,
      fields: d.fields.map((f) => toFieldBody(f, typeInfo.get(f.type))),
      submissionMessage: d.submissionMessage,
      submissionHtml: d.submissionHtml,
      successRedirect: d.successRedirect.trim() || null,
      disclaimerMessage: d.disclaimerMessage.trim() || null,
      notifyEmail: d.notifyEmail.trim() || null,
      captchaEnabled: d.captchaEnabled,
      captchaTheme: d.captchaTheme,
      captchaAlignment: d.captchaAlignment,
    });
  };

  const removeForm = useMutation({
    mutationFn: () => del(`/api/owner/sites/${siteId}/forms/${form!.id}`),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["forms", siteId] });
      navigate(`/sites/${siteId}/forms?deleted=${encodeURIComponent(form!.name)}`);
    },
  });

  return (
    <>
      <PageHead
        title={form ? form.name : "New form"}
        sub={
          form
            ? `${form.submissions} ${form.submissions === 1 ? "submission" : "submissions"}`
            : "Name the form, choose its fields, then save. Add it to a page with a Form block."
        }
        actions={
          <>
            <Link className="btn" to={`/sites/${siteId}/forms`}>
              All forms
            </Link>
            {form ? (
              <Link className="btn" to={`/sites/${siteId}/ops/forms/${form.id}`}>
                Submissions
              </Link>
            ) : null}
          </>
        }
      />
      <form onSubmit={onSubmit} noValidate className="form-editor">
        {saved ? (
          <Notice kind="ok">Form saved. Pages that show it use the new version at once.</Notice>
        ) : null}
        <ErrorNotice error={problem} />
        <div className="split">
          <div>
            <div className="card">
              <h2>Form</h2>
              <TextField
                label="Form name"
                value={d.name}
                onChange={(v) => set({ name: v })}
                error={errors.name}
                help="Only you see it: in block settings, submissions and notification emails."
                maxLength={200}
              />
            </div>

            <div className="card">
              <h2>Fields</h2>
              {errors.fields ? <Notice kind="error">{errors.fields}</Notice> : null}
              {d.fields.length ? (
                <ol className="ff-list">
                  {d.fields.map((f, i) => (
                    <FieldItem
                      key={f.id}
                      field={f}
                      index={i}
                      count={d.fields.length}
                      info={typeInfo.get(f.type)}
                      fieldTypes={fieldTypes}
                      errors={fieldErrors[f.id] ?? {}}
                      open={open.has(f.id)}
                      focus={focusId === f.id}
                      onToggle={() =>
                        setOpen((o) => {
                          const n = new Set(o);
                          if (!n.delete(f.id)) n.add(f.id);
                          return n;
                        })
                      }
                      onChange={(p) => setField(f.id, p)}
                      onMove={(by) => move(i, by)}
                      onRemove={() => remove(f.id)}
                    />
                  ))}
                </ol>
              ) : (
                <p className="empty">This form has no fields yet. Add the first one below.</p>
              )}
              <div className="ff-add">
                <SelectField
                  label="New field type"
                  value={newType}
                  onChange={(v) => setNewType(v)}
                  options={fieldTypes.map((t) => ({ value: t.type, label: t.title }))}
                />
                <button type="button" className="btn" onClick={add}>
                  Add field
                </button>
              </div>
            </div>
          </div>

          <div>
            <div className="card">
              <h2>After submitting</h2>
              <TextareaField
                label="Submission message"
                value={d.submissionMessage}
                onChange={(v) => set({ submissionMessage: v })}
                error={errors.submissionMessage}
                help="Shown in place of the form once it is sent."
                rows={3}
              />
              <TextareaField
                label="Submission HTML"
                className="code"
                value={d.submissionHtml}
                onChange={(v) => set({ submissionHtml: v })}
                error={errors.submissionHtml}
                help="Optional extra content under the message, such as a download link."
                rows={3}
              />
              <TextField
                label="Success redirect"
                value={d.successRedirect}
                onChange={(v) => set({ successRedirect: v })}
                error={errors.successRedirect}
                placeholder="/thank-you"
                help="Optional: send visitors to this page instead of showing the message."
              />
              <TextField
                label="Notify email"
                type="email"
                value={d.notifyEmail}
                onChange={(v) => set({ notifyEmail: v })}
                error={errors.notifyEmail}
                placeholder="you@example.com"
                help="Each submission is emailed here. Empty: the site's contact email."
              />
              <TextareaField
                label="Disclaimer"
                value={d.disclaimerMessage}
                onChange={(v) => set({ disclaimerMessage: v })}
                error={errors.disclaimerMessage}
                help="Optional small print above the submit button."
                rows={2}
              />
            </div>
            <div className="card">
              <h2>Spam protection</h2>
              <CheckboxField
                label="Require a captcha"
                help="Visitors complete the site's captcha before the form is sent."
                value={d.captchaEnabled}
                onChange={(captchaEnabled) => set({ captchaEnabled })}
              />
              {d.captchaEnabled ? (
                <div className="grid-2">
                  <SelectField
                    label="Captcha theme"
                    value={String(d.captchaTheme)}
                    onChange={(v) => set({ captchaTheme: Number(v) })}
                    error={errors.captchaTheme}
                    options={[
                      { value: "1", label: "Light" },
                      { value: "2", label: "Dark" },
                    ]}
                  />
                  <SelectField
                    label="Captcha alignment"
                    value={String(d.captchaAlignment)}
                    onChange={(v) => set({ captchaAlignment: Number(v) })}
                    error={errors.captchaAlignment}
                    options={[
                      { value: "1", label: "Left" },
                      { value: "2", label: "Center" },
                      { value: "3", label: "Right" },
                    ]}
                  />
                </div>
              ) : null}
            </div>
            {form ? (
              <div className="card">
                <h2>Delete</h2>
                <p className="muted small">
                  A form used by a page or a product cannot be deleted: remove it there first.
                </p>
                <button type="button" className="btn small danger" onClick={() => setConfirmDelete(true)}>
                  Delete form
                </button>
              </div>
            ) : null}
          </div>
        </div>
        <div className="btn-row sticky-actions">
          <button type="submit" className="btn primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : form ? "Save form" : "Create form"}
          </button>
          <Link className="btn ghost" to={`/sites/${siteId}/forms`}>
            Cancel
          </Link>
        </div>
      </form>
      {confirmDelete && form ? (
        <Modal
          title={`Delete ${form.name}?`}
          onClose={() => {
            setConfirmDelete(false);
            removeForm.reset();
          }}
          footer={
            <>
              <button type="button" className="btn" onClick={() => setConfirmDelete(false)}>
                Cancel
              </button>
              <button
                type="button"
                className="btn danger"
                disabled={removeForm.isPending}
                onClick={() => removeForm.mutate()}
              >
                Delete form
              </button>
            </>
          }
        >
          <ErrorNotice error={removeForm.error} />
          <p>
            The form and its {form.submissions} {form.submissions === 1 ? "submission" : "submissions"} are
            deleted for good. Download the submissions first if you want to keep them.
          </p>
        </Modal>
      ) : null}
    </>
  );
}

function FieldItem({
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
          aria-label={`${open ? "Close" : "Edit"} ${name}`}
          onClick={onToggle}
        >
          <span className="ff-num" aria-hidden="true">
            {index + 1}
          </span>
          <span className="ff-title">
            {f.title.trim() || <span className="muted">Untitled</span>}
            <span className="ff-meta">
              <span className="badge">{typeTitle}</span>
              {info?.canBeRequired && f.required ? <span className="badge accent">Required</span> : null}
              {hasErrors ? <span className="badge danger">Needs attention</span> : null}
            </span>
          </span>
        </button>
        <span className="btn-row ff-tools">
          <button
            type="button"
            className="btn ghost small icon"
            aria-label={`Move ${name} up`}
            disabled={index === 0}
            onClick={() => onMove(-1)}
          >
            ↑
          </button>
          <button
            type="button"
            className="btn ghost small icon"
            aria-label={`Move ${name} down`}
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            ↓
          </button>
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
                value={f.title}
                onChange={(v) => onChange({ title: v })}
                error={errors.title}
                help={f.type === "hidden" ? "Optional: the column name in submissions." : undefined}
                maxLength={500}
              />
            </div>
            <SelectField
              label="Field type"
              value={f.type}
              onChange={(v) => onChange({ type: v })}
              error={errors.type}
              options={fieldTypes.map((t) => ({ value: t.type, label: t.title }))}
            />
          </div>
          {f.type === "hidden" ? (
            <TextField
              label="Value"
              value={f.value}
              onChange={(v) => onChange({ value: v })}
              error={errors.value}
              help="Sent with every submission; visitors do not see it."
            />
          ) : (
            <TextField
              label="Description"
              value={f.description}
              onChange={(v) => onChange({ description: v })}
              error={errors.description}
              help={isSection ? "Text under the section title." : "Help text under the label."}
            />
          )}
          {WITH_PLACEHOLDER.has(f.type) ? (
            <TextField
              label="Placeholder"
              value={f.placeholder}
              onChange={(v) => onChange({ placeholder: v })}
              error={errors.placeholder}
            />
          ) : null}
          {info?.hasOptions ? (
            <TextareaField
              label="Options"
              value={f.options}
              onChange={(v) => onChange({ options: v })}
              error={errors.options}
              help="One option per line, in the order visitors see them."
              rows={4}
            />
          ) : null}
          {info?.hasQuestions ? (
            <TextareaField
              label="Statements to rate"
              value={f.questions}
              onChange={(v) => onChange({ questions: v })}
              error={errors.questions}
              help="One per line. Visitors rate each from Strongly Disagree to Strongly Agree."
              rows={4}
            />
          ) : null}
          {info?.hasMaxLength ? (
            <TextField
              label="Character limit"
              inputMode="numeric"
              value={f.maxLength}
              onChange={(v) => onChange({ maxLength: v })}
              error={errors.maxLength}
              help="Optional. Visitors see a counter when the site's character limit is on."
            />
          ) : errors.maxLength ? (
            <Notice kind="error">{errors.maxLength}</Notice>
          ) : null}
          {info?.canBeRequired ? (
            <CheckboxField
              label="Required"
              help="Visitors cannot send the form without answering."
              value={f.required}
              onChange={(required) => onChange({ required })}
            />
          ) : null}
          {errors.id ? <Notice kind="error">{errors.id}</Notice> : null}
        </div>
      ) : null}
    </li>
  );
}
