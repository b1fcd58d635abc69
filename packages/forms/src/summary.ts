/**
 * Submission summaries (SPEC §3 form summary values): each answered field as plain text for the
 * owner's list, the CSV export and the notification email, 'N/A' for an answer with no text.
 */
import { FIELD_PARTS, type FormField, isMultiPart, likertAnswerText } from "./fields.js";
import { NO_ANSWER_TEXT } from "./messages.js";
import { type FieldAnswer, type FormAnswers, isBlank, partOf } from "./values.js";

export interface SummaryLine {
  id: string;
  type: FormField["type"];
  title: string;
  value: string;
}

/** What a password field's answer shows: stored passwords are shown masked (SPEC §9). */
export const MASKED_PASSWORD = "••••••••";

function join(parts: string[], sep: string): string {
  return parts.filter((p) => p.trim() !== "").join(sep);
}

/** One answer as text ("" when there is none). */
export function answerText(field: FormField, answer: FieldAnswer | undefined): string {
  if (answer === undefined || isBlank(answer)) return "";
  const p = (name: string) => partOf(field, answer, name).trim();
  switch (field.type) {
    case "name":
      return join([p("First"), p("Last")], " ");
    case "address": {
      const region = join([join([p("City"), p("State")], ", "), p("Zip")], " ");
      return join([p("Line1"), p("Line2"), region, p("Country")], "\n");
    }
    case "phone": {
      const number = join([p("Areacode"), p("Prefix"), p("Line")], "-");
      return p("Country") ? `+${p("Country")} ${number}` : number;
    }
    case "date":
      return `${p("Month")}/${p("Day")}/${p("Year")}`;
    case "time": {
      const two = (s: string) => (s === "" ? "00" : s.padStart(2, "0"));
      return `${p("Hour") || "00"}:${two(p("Minute"))}:${two(p("Second"))}${p("Ampm") ? ` ${p("Ampm")}` : ""}`;
    }
    case "checkbox":
      return Array.isArray(answer) ? answer.join(", ") : "";
    case "likert":
      return typeof answer === "object" && !Array.isArray(answer)
        ? Object.entries(answer)
            .map(([q, score]) => `${q}: ${likertAnswerText(score) ?? likertAnswerText(0)}`)
            .join("\n")
        : "";
    case "password":
      return MASKED_PASSWORD;
    default:
      if (isMultiPart(field.type)) return "";
      return typeof answer === "string" ? answer.trim() : "";
  }
}

/** The summary of a submission: every field but sections, in form order, 'N/A' when unanswered. */
export function summarize(fields: readonly FormField[], answers: FormAnswers): SummaryLine[] {
  return fields
    .filter((f) => f.type !== "section")
    .map((f) => {
      const text = answerText(f, answers[f.id]);
      return { id: f.id, type: f.type, title: f.title || f.id, value: text === "" ? NO_ANSWER_TEXT : text };
    });
}

/** Answers as stored: password answers are never kept, only masked. */
export function answersToStore(fields: readonly FormField[], answers: FormAnswers): FormAnswers {
  const out: FormAnswers = { ...answers };
  for (const f of fields) {
    if (f.type === "password" && out[f.id] !== undefined && !isBlank(out[f.id])) out[f.id] = MASKED_PASSWORD;
  }
  return out;
}

/**
 * A field's answer in the shape the template engine's `summary-form-field` formatter reads:
 * `{type, rawTitle, value}` for single values, `values` keyed by part name for multi-part fields,
 * the list of checked values for checkbox groups and statement-to-score for likert fields.
 */
export function templateField(field: FormField, answer: FieldAnswer | undefined): Record<string, unknown> {
  const base: Record<string, unknown> = { type: field.type, rawTitle: field.title };
  if (answer === undefined) return base;
  if (isMultiPart(field.type) && Array.isArray(answer)) {
    const values: Record<string, string> = {};
    for (const name of FIELD_PARTS[field.type]) {
      const v = partOf(field, answer, name);
      if (v !== "") values[name] = v;
    }
    return { ...base, values };
  }
  if (field.type === "checkbox" || field.type === "likert")
    return isBlank(answer) ? base : { ...base, values: answer };
  if (field.type === "password") return isBlank(answer) ? base : { ...base, value: MASKED_PASSWORD };
  return typeof answer === "string" && answer !== "" ? { ...base, value: answer } : base;
}
