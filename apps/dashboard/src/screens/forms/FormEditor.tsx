/** The form editor: the fields as an ordered list, and what happens after a visitor submits. */
import { FORM_NAME_MAX_LENGTH } from "@atelier/owner-api";
import { Card } from "../../components/Card.js";
import { EditorForm } from "../../components/EditorForm.js";
import { DeleteCard } from "../../components/ConfirmDelete.js";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError, type FormFieldJson, type OwnerForm, patch } from "../../api.js";
import {
  CheckboxField,
  SaveBar,
  SelectField,
  TextField,
  TextareaField,
  useDraft,
  binder,
} from "../../components/form/index.js";
import { movedStep } from "../../components/move-step.js";
import { Notice, PageHead, useSiteId } from "../../components/ui.js";
import { useRecordEditor } from "../../components/useRecordEditor.js";
import {
  type FieldDraft,
  type FieldTypeInfo,
  type FormDraft,
  MSG_MAX_LENGTH,
  newFieldId,
  toDraft,
  toFieldBody,
  toFieldDraft,
} from "./model.js";
import { FieldItem } from "./FieldItem.js";

type Errors = Record<string, string>;

export function FormEditor({
  form,
  initial,
  fieldTypes,
}: {
  form?: OwnerForm;
  initial: FormDraft;
  fieldTypes: FieldTypeInfo[];
}) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const draft = useDraft<FormDraft>(initial);
  const d = draft.values;
  const [open, setOpen] = useState<Set<string>>(() => new Set(form ? [] : initial.fields.map((f) => f.id)));
  const [focusId, setFocusId] = useState<string | undefined>();
  const [newType, setNewType] = useState("text");
  /** Problems with the form's settings, by property; field problems by field id then property. */
  const [errors, setErrors] = useState<Errors>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, Errors>>({});
  const [problem, setProblem] = useState<unknown>();
  const typeInfo = new Map<string, FieldTypeInfo>(fieldTypes.map((t) => [t.type, t]));

  const set = draft.set;
  const field = binder(d, set, errors);
  const plain = binder(d, set);
  const setField = (id: string, p: Partial<FieldDraft>) =>
    set({ fields: d.fields.map((f) => (f.id === id ? { ...f, ...p } : f)) });
  const move = (i: number, by: -1 | 1) => {
    const fields = movedStep(d.fields, i, by);
    if (fields) set({ fields });
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

  /** A saved form as the list shows it: with its count of submissions. */
  const rowOf = (f: OwnerForm): OwnerForm => ({ ...f, submissions: form?.submissions ?? 0 });
  const {
    save,
    deleteConfirm: deleteForm,
    createdJustNow,
  } = useRecordEditor<OwnerForm, Record<string, unknown>>({
    url: `/api/owner/sites/${siteId}/forms`,
    id: form?.id,
    key: "form",
    body: (body) => body,
    update: patch,
    lists: [["forms", siteId]],
    page: (id) => `/sites/${siteId}/forms/${id}`,
    afterDelete: `/sites/${siteId}/forms`,
    trash: { type: "form", name: form?.name ?? "" },
    onSaved: (f) => {
      const row = rowOf(f);
      queryClient.setQueryData<OwnerForm[]>(["forms", siteId], (old) =>
        old?.some((x) => x.id === f.id) ? old.map((x) => (x.id === f.id ? row : x)) : [...(old ?? []), row],
      );
    },
    onUpdated: (f) => draft.reset(toDraft(rowOf(f))),
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
    confirm: {
      title: `Delete ${form?.name}?`,
      action: "Delete form",
      children: (
        <p>
          The form and its {form?.submissions} {form?.submissions === 1 ? "submission" : "submissions"} are
          deleted for good. Download the submissions first if you want to keep them.
        </p>
      ),
    },
  });

  const onSubmit = () => {
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

  return (
    <>
      <PageHead
        title={form ? form.name : "New form"}
        sub={
          form
            ? `${form.submissions} ${form.submissions === 1 ? "submission" : "submissions"}`
            : "Name the form, choose its fields, then save. Add it to a page with a Form block."
        }
        back={{ to: `/sites/${siteId}/forms`, label: "All forms" }}
        actions={
          form ? (
            <Link className="btn" to={`/sites/${siteId}/ops/forms/${form.id}`}>
              Submissions
            </Link>
          ) : null
        }
      />
      <EditorForm
        onSubmit={onSubmit}
        error={problem}
        className="form-editor"
        main={
          <>
            <Card title="Form">
              <TextField
                label="Form name"
                {...field("name")}
                help="Only you see it: in block settings, submissions and notification emails."
                maxLength={FORM_NAME_MAX_LENGTH}
              />
            </Card>

            <Card title="Fields">
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
            </Card>
          </>
        }
        side={
          <>
            <Card title="After submitting">
              <TextareaField
                label="Submission message"
                {...field("submissionMessage")}
                help="Shown in place of the form once it is sent."
                rows={3}
              />
              <TextareaField
                label="Submission HTML"
                className="code"
                {...field("submissionHtml")}
                help="Optional extra content under the message, such as a download link."
                rows={3}
              />
              <TextField
                label="Success redirect"
                {...field("successRedirect")}
                placeholder="/thank-you"
                help="Optional: send visitors to this page instead of showing the message."
              />
              <TextField
                label="Notify email"
                type="email"
                {...field("notifyEmail")}
                placeholder="you@example.com"
                help="Each submission is emailed here. Empty: the site's contact email."
              />
              <TextareaField
                label="Disclaimer"
                {...field("disclaimerMessage")}
                help="Optional small print above the submit button."
                rows={2}
              />
            </Card>
            <Card title="Spam protection">
              <CheckboxField
                label="Require a captcha"
                help="Visitors complete the site's captcha before the form is sent."
                {...plain("captchaEnabled")}
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
            </Card>
            {form ? (
              <DeleteCard note="A form used by a page or a product cannot be deleted: remove it there first.">
                {deleteForm.button}
              </DeleteCard>
            ) : null}
          </>
        }
        footer={
          <SaveBar
            dirty={draft.dirty}
            pending={save.isPending}
            saved={
              (save.isSuccess || createdJustNow) &&
              "Form saved. Pages that show it use the new version at once."
            }
            onDiscard={form ? draft.discard : undefined}
            saveLabel={form ? "Save form" : "Create form"}
          >
            <Link className="btn ghost" to={`/sites/${siteId}/forms`}>
              Cancel
            </Link>
          </SaveBar>
        }
      />
      {form ? deleteForm.dialog : null}
    </>
  );
}
