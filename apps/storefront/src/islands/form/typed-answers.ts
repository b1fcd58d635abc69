/**
 * What a visitor typed into the server-rendered form before its island started. The island takes
 * it over, so nothing typed on a slow phone is lost when the island replaces the fallback form.
 */
import type { FormField } from "@atelier/forms";
import type { Value } from "./fields.js";

export interface TypedAnswers {
  values: Record<string, Value>;
  /** The field whose input had the focus, to give it back once the island shows. */
  focusedFieldId?: string;
}

const TEXT_LIKE = new Set([
  "text",
  "email",
  "number",
  "currency",
  "website",
  "password",
  "twitter",
  "textarea",
  "select",
  "radio",
]);

/** The fallback's date input says YYYY-MM-DD; the island asks MM, DD, YYYY. */
function dateParts(value: string): string[] | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m ? [m[2]!, m[3]!, m[1]!] : undefined;
}

/** The fallback's time input says HH:MM in 24 hours; the island asks hour, minute and AM/PM. */
function timeParts(value: string): string[] | undefined {
  const m = /^(\d{2}):(\d{2})/.exec(value);
  if (!m) return undefined;
  const hour = Number(m[1]);
  return [String(hour % 12 || 12), m[2]!, "", hour < 12 ? "AM" : "PM"];
}

/** Ten digits typed as one phone number, split as the island's three parts. */
function phoneParts(value: string): string[] | undefined {
  const digits = value.replace(/\D/g, "");
  return digits.length === 10 ? [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)] : undefined;
}

function answerOf(field: FormField, data: FormData): Value | undefined {
  const text = (name: string) => {
    const v = data.get(name);
    return typeof v === "string" ? v : "";
  };
  const own = text(field.id);
  if (TEXT_LIKE.has(field.type)) return own || undefined;
  switch (field.type) {
    case "checkbox": {
      const ticked = data.getAll(field.id).filter((v): v is string => typeof v === "string");
      return ticked.length ? ticked : undefined;
    }
    case "name": {
      const parts = [text(`${field.id}-first`), text(`${field.id}-last`)];
      return parts.some(Boolean) ? parts : undefined;
    }
    case "address": {
      const parts = [
        text(`${field.id}-line1`),
        text(`${field.id}-line2`),
        text(`${field.id}-city`),
        "",
        text(`${field.id}-zip`),
        "",
      ];
      return parts.some(Boolean) ? parts : undefined;
    }
    case "date":
      return dateParts(own);
    case "time":
      return timeParts(own);
    case "phone":
      return phoneParts(own);
    default:
      return undefined;
  }
}

/** Reads the fallback form inside the island's element, if it is still there. */
export function typedAnswers(el: HTMLElement, fields: FormField[]): TypedAnswers {
  const fallback = el.querySelector<HTMLFormElement>("form.form-fallback");
  if (!fallback) return { values: {} };
  const data = new FormData(fallback);
  const values: Record<string, Value> = {};
  for (const field of fields) {
    const answer = answerOf(field, data);
    if (answer !== undefined) values[field.id] = answer;
  }
  const active = document.activeElement;
  const focusedName = active && fallback.contains(active) ? (active as HTMLInputElement).name : undefined;
  const focused = focusedName
    ? fields.find((f) => focusedName === f.id || focusedName.startsWith(`${f.id}-`))
    : undefined;
  return { values, focusedFieldId: focused?.id };
}
