/**
 * Form field types (SPEC §3) and the shape of each one's answer. Multi-part fields (name,
 * address, phone, date, time) answer a list of parts in a fixed order, which is also the order
 * of the names the form summary values use.
 */

/** The text-like field types: one input the visitor types into, which may show a placeholder. */
export const TEXT_INPUT_TYPES = [
  "text",
  "textarea",
  "email",
  "currency",
  "number",
  "website",
  "password",
  "twitter",
] as const;

export const FIELD_TYPES = [
  ...TEXT_INPUT_TYPES,
  "date",
  "time",
  "name",
  "address",
  "phone",
  "section",
  "radio",
  "checkbox",
  "select",
  "likert",
  "hidden",
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === "string" && (FIELD_TYPES as readonly string[]).includes(value);
}

/** One field of a form definition (the `fields` of a form). */
export interface FormField {
  id: string;
  type: FieldType;
  title: string;
  description?: string;
  required?: boolean;
  placeholder?: string;
  /** radio, checkbox and select: the choices. */
  options?: string[];
  /** likert: the statements a visitor rates. */
  questions?: string[];
  /** textarea: the character limit, applied when the form's character-limit flag is on. */
  maxLength?: number;
  /** hidden: the value sent with every submission. */
  value?: string;
}

/** What a form block shows and how it behaves after a successful submission (SPEC §3 Form). */
export interface FormDefinition {
  id: string;
  name: string;
  fields: FormField[];
  submissionMessage?: string;
  submissionHtml?: string;
  successRedirect?: string | null;
  disclaimerMessage?: string | null;
  captchaEnabled?: boolean;
  captchaTheme?: number;
  captchaAlignment?: number;
}

/** The parts of each multi-part field, in the order its answer lists them (SPEC §3 summary values). */
export const FIELD_PARTS = {
  name: ["First", "Last"],
  address: ["Line1", "Line2", "City", "State", "Zip", "Country"],
  phone: ["Country", "Areacode", "Prefix", "Line"],
  date: ["Month", "Day", "Year"],
  time: ["Hour", "Minute", "Second", "Ampm"],
} as const satisfies Partial<Record<FieldType, readonly string[]>>;

export type MultiPartType = keyof typeof FIELD_PARTS;

export function isMultiPart(type: FieldType): type is MultiPartType {
  return Object.hasOwn(FIELD_PARTS, type);
}

/** The parts a required multi-part field must have filled in. */
export const REQUIRED_PARTS: Readonly<Record<MultiPartType, readonly string[]>> = {
  name: ["First", "Last"],
  address: ["Line1", "City", "State", "Zip", "Country"],
  phone: ["Areacode", "Prefix", "Line"],
  date: ["Month", "Day", "Year"],
  time: ["Hour", "Minute"],
};

/** Visible labels of the parts, for the form island and the template schema. */
export const PART_LABELS: Readonly<Record<string, string>> = {
  First: "First Name",
  Last: "Last Name",
  Line1: "Address 1",
  Line2: "Address 2",
  City: "City",
  State: "State",
  Zip: "ZIP Code",
  Country: "Country",
  Areacode: "Area Code",
  Prefix: "Prefix",
  Line: "Line",
  Month: "MM",
  Day: "DD",
  Year: "YYYY",
  Hour: "Hour",
  Minute: "Minute",
  Second: "Second",
  Ampm: "AM/PM",
};

/** Survey (likert) answers by score (SPEC §8). */
export const LIKERT_ANSWERS: readonly { score: number; text: string }[] = [
  { score: -2, text: "Strongly Disagree" },
  { score: -1, text: "Disagree" },
  { score: 0, text: "Neutral" },
  { score: 1, text: "Agree" },
  { score: 2, text: "Strongly Agree" },
];

export function likertAnswerText(score: unknown): string | undefined {
  const n =
    typeof score === "number" ? score : typeof score === "string" && score.trim() ? Number(score) : NaN;
  return LIKERT_ANSWERS.find((a) => a.score === n)?.text;
}

/** Field types that carry no answer. */
export function hasAnswer(type: FieldType): boolean {
  return type !== "section";
}

const ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Reads a stored or posted form definition leniently: unknown field types and malformed fields
 * are dropped, so a broken definition never breaks a page or a submission.
 */
export function parseFields(raw: unknown): FormField[] {
  if (!Array.isArray(raw)) return [];
  const out: FormField[] = [];
  const seen = new Set<string>();
  for (const f of raw) {
    if (!f || typeof f !== "object") continue;
    const r = f as Record<string, unknown>;
    if (!isFieldType(r.type) || typeof r.id !== "string" || !ID_PATTERN.test(r.id) || seen.has(r.id))
      continue;
    seen.add(r.id);
    const field: FormField = {
      id: r.id,
      type: r.type,
      title: typeof r.title === "string" ? r.title : "",
      required: r.required === true && r.type !== "likert" && r.type !== "section" && r.type !== "hidden",
    };
    if (typeof r.description === "string") field.description = r.description;
    if (typeof r.placeholder === "string") field.placeholder = r.placeholder;
    if (Array.isArray(r.options)) field.options = r.options.filter((o): o is string => typeof o === "string");
    if (Array.isArray(r.questions))
      field.questions = r.questions.filter((o): o is string => typeof o === "string");
    if (typeof r.maxLength === "number" && Number.isInteger(r.maxLength) && r.maxLength > 0)
      field.maxLength = r.maxLength;
    if (typeof r.value === "string") field.value = r.value;
    out.push(field);
  }
  return out;
}
