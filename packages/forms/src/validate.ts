/**
 * The rules of site forms (SPEC §5), applied by the form island before it sends and again by
 * the server before it stores: required fields, the email rule, the textarea character limit,
 * and the formats of the other field types.
 */
import { isValidEmail } from "./email.js";
import { type FormField, isMultiPart, LIKERT_ANSWERS, REQUIRED_PARTS } from "./fields.js";
import {
  type FormStrings,
  MSG_CHECKBOX_REQUIRED,
  MSG_CHARACTER_LIMIT,
  MSG_INVALID_AMOUNT,
  MSG_INVALID_CHOICE,
  MSG_INVALID_DATE,
  MSG_INVALID_NUMBER,
  MSG_INVALID_PHONE,
  MSG_INVALID_TIME,
  MSG_INVALID_TWITTER,
  MSG_INVALID_URL,
  MSG_URL_TOO_LONG,
  resolveStrings,
} from "./messages.js";
import { type FieldAnswer, type FormAnswers, isBlank, normalizeAnswers, partOf } from "./values.js";

/** URLs must be under this many characters (SPEC §5). */
export const URL_MAX_LENGTH = 2083;
/** Caps on answers the SPEC leaves open, so nobody stores a novel in a one-line field. */
export const TEXT_MAX_LENGTH = 2000;
export const TEXTAREA_MAX_LENGTH = 20000;
export const PART_MAX_LENGTH = 500;

/** Characters as a person counts them (code points), for limits and the character counter. */
export function characterCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

export interface CharacterCounter {
  count: number;
  limit: number;
  /** The counter flags an error once the limit is passed (SPEC §5). */
  exceeded: boolean;
}

/** The character counter of a textarea with a limit. */
export function characterCounter(text: string, limit: number): CharacterCounter {
  const count = characterCount(text);
  return { count, limit, exceeded: count > limit };
}

export interface ValidateOptions {
  /** Translations; the checkbox group's 'Required' is never translated. */
  strings?: FormStrings;
  /** The textarea character-limit flag (SPEC §3: maxLength applies under a flag). On by default. */
  textareaMaxLength?: boolean;
}

export interface ValidationResult {
  valid: boolean;
  /** Field id to message, shown above the field's title. */
  errors: Record<string, string>;
  /** The answers in their normal shape, ready to store. */
  answers: FormAnswers;
  /** 'One or more fields is invalid, please check your entries.' when invalid. */
  message?: string;
}

function isInt(s: string, min: number, max: number): boolean {
  if (!/^\d{1,4}$/.test(s.trim())) return false;
  const n = Number(s);
  return n >= min && n <= max;
}

function validDate(month: string, day: string, year: string): boolean {
  if (!isInt(month, 1, 12) || !isInt(day, 1, 31) || !isInt(year, 1, 9999)) return false;
  const y = Number(year);
  const m = Number(month);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return Number(day) <= days;
}

function validTime(hour: string, minute: string, second: string, ampm: string): boolean {
  const meridiem = ampm.trim().toUpperCase();
  if (meridiem !== "" && meridiem !== "AM" && meridiem !== "PM") return false;
  const hourOk = meridiem ? isInt(hour, 1, 12) : isInt(hour, 0, 23);
  return hourOk && isInt(minute, 0, 59) && (second.trim() === "" || isInt(second, 0, 59));
}

function multiPartError(field: FormField, answer: FieldAnswer, required: string): string | undefined {
  if (!isMultiPart(field.type) || !Array.isArray(answer)) return undefined;
  const part = (name: string) => partOf(field, answer, name);
  if (field.required && REQUIRED_PARTS[field.type].some((n) => part(n).trim() === "")) return required;
  if (isBlank(answer)) return undefined;
  if (answer.some((p) => characterCount(p) > PART_MAX_LENGTH)) return MSG_CHARACTER_LIMIT;
  switch (field.type) {
    case "date":
      return validDate(part("Month"), part("Day"), part("Year")) ? undefined : MSG_INVALID_DATE;
    case "time":
      return validTime(part("Hour"), part("Minute"), part("Second"), part("Ampm"))
        ? undefined
        : MSG_INVALID_TIME;
    case "phone": {
      const digits = answer.join("").replace(/[\s()+.-]/g, "");
      return /^\d{3,20}$/.test(digits) && answer.every((p) => /^[\d\s()+.-]*$/.test(p))
        ? undefined
        : MSG_INVALID_PHONE;
    }
    default:
      return undefined;
  }
}

/** The message for one field's answer, or undefined when it is fine. */
export function validateField(
  field: FormField,
  answer: FieldAnswer | undefined,
  opts: ValidateOptions = {},
): string | undefined {
  const s = resolveStrings(opts.strings);
  if (field.type === "section" || answer === undefined) return undefined;
  const blank = isBlank(answer);

  if (isMultiPart(field.type)) return multiPartError(field, answer, s.required);

  if (field.type === "checkbox") {
    const list = Array.isArray(answer) ? answer : [];
    if (field.required && list.length === 0) return MSG_CHECKBOX_REQUIRED;
    if (field.options && list.some((v) => !field.options!.includes(v))) return MSG_INVALID_CHOICE;
    return undefined;
  }

  if (field.type === "likert") {
    // Never required (SPEC §5); an answer must be one of the five scores.
    if (typeof answer !== "object" || Array.isArray(answer)) return undefined;
    for (const [question, score] of Object.entries(answer)) {
      if (field.questions && !field.questions.includes(question)) return MSG_INVALID_CHOICE;
      if (!LIKERT_ANSWERS.some((a) => String(a.score) === score.trim())) return MSG_INVALID_CHOICE;
    }
    return undefined;
  }

  const text = typeof answer === "string" ? answer : "";
  if (field.type === "hidden")
    return characterCount(text) > TEXT_MAX_LENGTH ? MSG_CHARACTER_LIMIT : undefined;
  if (blank) return field.required ? s.required : undefined;
  const value = text.trim();

  switch (field.type) {
    case "email":
      return isValidEmail(value) ? undefined : s.emailInvalid;
    case "textarea": {
      const count = characterCount(text);
      if (opts.textareaMaxLength !== false && field.maxLength && count > field.maxLength)
        return s.characterLimit;
      return count > TEXTAREA_MAX_LENGTH ? s.characterLimit : undefined;
    }
    case "select":
    case "radio":
      return field.options && !field.options.includes(text) ? MSG_INVALID_CHOICE : undefined;
    case "number":
      return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(value.replace(/,/g, "")) && value.length <= 40
        ? undefined
        : MSG_INVALID_NUMBER;
    case "currency":
      return /^[^\d\s-]{0,3}\s?(\d{1,3}(,\d{3})+|\d{1,15})(\.\d{1,2})?$/.test(value)
        ? undefined
        : MSG_INVALID_AMOUNT;
    case "website":
      if (value.length >= URL_MAX_LENGTH) return MSG_URL_TOO_LONG;
      return /^(https?:\/\/)?[^\s/?#.]+(\.[^\s/?#.]+)+([/?#]\S*)?$/i.test(value)
        ? undefined
        : MSG_INVALID_URL;
    case "twitter":
      return /^@?\w{1,15}$/.test(value) ? undefined : MSG_INVALID_TWITTER;
    default:
      return characterCount(text) > TEXT_MAX_LENGTH ? s.characterLimit : undefined;
  }
}

/**
 * Validates every field of a form against the posted answers (field id to raw value). Sections
 * are skipped; answers to fields the form does not have are dropped.
 */
export function validateForm(
  fields: readonly FormField[],
  raw: Record<string, unknown>,
  opts: ValidateOptions = {},
): ValidationResult {
  const answers = normalizeAnswers(fields, raw);
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const message = validateField(f, answers[f.id], opts);
    if (message) errors[f.id] = message;
  }
  const valid = Object.keys(errors).length === 0;
  return valid
    ? { valid, errors, answers }
    : { valid, errors, answers, message: resolveStrings(opts.strings).formInvalid };
}
