/**
 * The answers of a form as posted (`form`: a JSON object of field id to value) and their one
 * normal shape: a string for single-value fields, the list of parts for multi-part fields, the
 * list of checked options for checkbox groups, and statement-to-score for likert fields.
 */
import { FIELD_PARTS, type FormField, isMultiPart } from "./fields.js";

export type FieldAnswer = string | string[] | Record<string, string>;
/** Field id to normalized answer; sections have none. */
export type FormAnswers = Record<string, FieldAnswer>;

function scalar(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
  if (typeof raw === "boolean") return raw ? "true" : "";
  return "";
}

/**
 * The parts of a multi-part answer, in `FIELD_PARTS` order. Accepts a list (a phone answer of
 * three parts gets an empty country part in front, SPEC §5) or an object keyed by part name.
 */
export function answerParts(field: FormField, raw: unknown): string[] {
  if (!isMultiPart(field.type)) return [];
  const names = FIELD_PARTS[field.type];
  let parts: string[];
  if (Array.isArray(raw)) {
    parts = raw.map(scalar);
    if (field.type === "phone" && parts.length === 3) parts = ["", ...parts];
  } else if (raw && typeof raw === "object") {
    const r = raw as Record<string, unknown>;
    parts = names.map((n) => scalar(r[n]));
  } else {
    parts = [];
  }
  const out = names.map((_, i) => parts[i] ?? "");
  // A time with no hour, minute or second is unanswered, whatever its AM/PM choice says (the
  // form shows AM preselected): it is blank for the rules and 'N/A' in the summary.
  if (field.type === "time" && out.slice(0, 3).every((p) => p.trim() === "")) out[3] = "";
  return out;
}

/** One field's answer in its normal shape. */
export function normalizeAnswer(field: FormField, raw: unknown): FieldAnswer | undefined {
  switch (field.type) {
    case "section":
      return undefined;
    case "checkbox": {
      const list = Array.isArray(raw) ? raw : raw === undefined || raw === null || raw === "" ? [] : [raw];
      return list.map(scalar).filter((v) => v !== "");
    }
    case "likert": {
      const out: Record<string, string> = {};
      if (raw && typeof raw === "object" && !Array.isArray(raw)) {
        for (const [question, score] of Object.entries(raw as Record<string, unknown>)) {
          const s = scalar(score);
          if (s !== "") out[question] = s;
        }
      }
      return out;
    }
    case "hidden": {
      const posted = scalar(raw);
      return posted !== "" ? posted : (field.value ?? "");
    }
    default:
      if (isMultiPart(field.type)) return answerParts(field, raw);
      return scalar(raw);
  }
}

/** Every field's answer (fields not posted count as blank); answers to unknown fields are dropped. */
export function normalizeAnswers(fields: readonly FormField[], raw: Record<string, unknown>): FormAnswers {
  const out: FormAnswers = {};
  for (const f of fields) {
    const v = normalizeAnswer(f, Object.hasOwn(raw, f.id) ? raw[f.id] : undefined);
    if (v !== undefined) out[f.id] = v;
  }
  return out;
}

/** Blank: an empty or whitespace-only string, an empty list, or a list/object of blank values. */
export function isBlank(answer: FieldAnswer | undefined): boolean {
  if (answer === undefined) return true;
  if (typeof answer === "string") return answer.trim() === "";
  if (Array.isArray(answer)) return answer.every((v) => v.trim() === "");
  return Object.values(answer).every((v) => v.trim() === "");
}

/** The named part of a multi-part answer. */
export function partOf(field: FormField, answer: FieldAnswer | undefined, name: string): string {
  if (!isMultiPart(field.type) || !Array.isArray(answer)) return "";
  const i = (FIELD_PARTS[field.type] as readonly string[]).indexOf(name);
  return i >= 0 ? (answer[i] ?? "") : "";
}

/**
 * Reads the posted `form` string of SaveFormSubmission: a JSON object of field id to value.
 * Answers undefined when it is not one (the client then shows the parse-error message).
 */
export function parseFormJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  return undefined;
}
