/**
 * What `GET /api/template/GetTemplateSchema?type=…` answers for a form block type: the field
 * types a form of that block can use (with their parts and settings) and the form a new block
 * starts with. The dashboard's form editor builds itself from it.
 */
import {
  FIELD_PARTS,
  FIELD_TYPES,
  type FieldType,
  type FormField,
  isMultiPart,
  PART_LABELS,
  REQUIRED_PARTS,
} from "./fields.js";

/** Block types that hold a form, by name and by number. */
export const FORM_BLOCK_TYPES = { form: 9, newsletter: 51 } as const;
export type FormBlockType = keyof typeof FORM_BLOCK_TYPES;

export interface FieldTypeSchema {
  type: FieldType;
  title: string;
  /** Multi-part fields: their parts in answer order. */
  parts?: { name: string; label: string; requiredWhenFieldIs: boolean }[];
  /** Whether a field of this type can be required (likert, section and hidden cannot). */
  canBeRequired: boolean;
  /** radio, checkbox, select: a list of options. */
  hasOptions: boolean;
  /** likert: a list of statements. */
  hasQuestions: boolean;
  /** textarea: a character limit. */
  hasMaxLength: boolean;
}

export interface FormTemplateSchema {
  type: FormBlockType;
  blockType: number;
  fieldTypes: FieldTypeSchema[];
  defaults: {
    name: string;
    fields: FormField[];
    submissionMessage: string;
    captchaEnabled: boolean;
  };
}

const TITLES: Record<FieldType, string> = {
  text: "Text",
  textarea: "Text Area",
  email: "Email",
  currency: "Currency",
  number: "Number",
  website: "Website",
  password: "Password",
  twitter: "Twitter",
  date: "Date",
  time: "Time",
  name: "Name",
  address: "Address",
  phone: "Phone",
  section: "Section",
  radio: "Radio Buttons",
  checkbox: "Checkboxes",
  select: "Dropdown",
  likert: "Survey",
  hidden: "Hidden",
};

function fieldTypeSchema(type: FieldType): FieldTypeSchema {
  const schema: FieldTypeSchema = {
    type,
    title: TITLES[type],
    canBeRequired: type !== "likert" && type !== "section" && type !== "hidden",
    hasOptions: type === "radio" || type === "checkbox" || type === "select",
    hasQuestions: type === "likert",
    hasMaxLength: type === "textarea",
  };
  if (isMultiPart(type)) {
    schema.parts = FIELD_PARTS[type].map((name) => ({
      name,
      label: PART_LABELS[name] ?? name,
      requiredWhenFieldIs: REQUIRED_PARTS[type].includes(name),
    }));
  }
  return schema;
}

/** Reads `type`: a block type's name ("form", "newsletter") or number ("9", "51"). */
export function formBlockType(type: string): FormBlockType | undefined {
  const t = type.trim().toLowerCase();
  for (const [name, n] of Object.entries(FORM_BLOCK_TYPES) as [FormBlockType, number][]) {
    if (t === name || t === String(n)) return name;
  }
  return undefined;
}

export function formTemplateSchema(type: string): FormTemplateSchema | undefined {
  const block = formBlockType(type);
  if (!block) return undefined;
  const newsletter = block === "newsletter";
  return {
    type: block,
    blockType: FORM_BLOCK_TYPES[block],
    // A newsletter block collects an email address and optionally a name.
    fieldTypes: (newsletter ? (["email", "name", "hidden"] as const) : FIELD_TYPES).map(fieldTypeSchema),
    defaults: newsletter
      ? {
          name: "Newsletter",
          fields: [{ id: "email", type: "email", title: "Email Address", required: true }],
          submissionMessage: "Thank you for signing up!",
          captchaEnabled: false,
        }
      : {
          name: "Contact",
          fields: [
            { id: "name", type: "name", title: "Name", required: true },
            { id: "email", type: "email", title: "Email", required: true },
            { id: "subject", type: "text", title: "Subject", required: true },
            { id: "message", type: "textarea", title: "Message", required: true },
          ],
          submissionMessage: "Thank you!",
          captchaEnabled: false,
        },
  };
}
