/** Forms as the owner API sends them, the editor's draft of one, and the request body made from it. */
import { type FieldTypeSchema, type FormTemplateSchema, TEXT_INPUT_TYPES } from "@atelier/forms";
import { useQuery } from "@tanstack/react-query";
import { type FormFieldJson, type OwnerForm, get } from "../../api.js";

export type FieldTypeInfo = FieldTypeSchema;
type TemplateSchema = Pick<FormTemplateSchema, "fieldTypes" | "defaults">;

/** A field as the editor holds it: lists and numbers as the owner types them. */
export interface FieldDraft {
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

export interface FormDraft {
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
export const WITH_PLACEHOLDER: ReadonlySet<string> = new Set(TEXT_INPUT_TYPES);

export const MSG_MAX_LENGTH = "Enter a whole number of characters, like 500, or leave it empty.";

export function useTemplate() {
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

export function toFieldDraft(f: FormFieldJson): FieldDraft {
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

export function toDraft(form: Partial<OwnerForm> & { fields: FormFieldJson[] }): FormDraft {
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
export function toFieldBody(f: FieldDraft, info: FieldTypeInfo | undefined): FormFieldJson {
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

export function newFieldId(type: string, taken: Set<string>): string {
  for (;;) {
    const id = `${type}-${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}
