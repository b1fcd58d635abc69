/**
 * `summary-form-field`: one answered form field as a line of an order or submission
 * summary: the field's title in bold and its answer formatted by field type.
 */
import type { Formatter } from "../types.js";
import { asString, isObject, isTruthy, toDisplayString } from "../util/values.js";
import { get, path } from "./node.js";

/** Shown for a field with no answer when the site has no localized text for it. */
const NO_ANSWER_TEXT = "N/A";

/** Survey (likert) answers by score, with the localized-string key that overrides each. */
const LIKERT_ANSWERS: Readonly<Record<string, { key: string; text: string }>> = {
  "-2": { key: "productAnswerMapStronglyDisagree", text: "Strongly Disagree" },
  "-1": { key: "productAnswerMapDisagree", text: "Disagree" },
  "0": { key: "productAnswerMapNeutral", text: "Neutral" },
  "1": { key: "productAnswerMapAgree", text: "Agree" },
  "2": { key: "productAnswerMapStronglyAgree", text: "Strongly Agree" },
};

function show(values: unknown, name: string): string {
  return toDisplayString(get(values, name));
}

function orZeros(values: unknown, name: string): string {
  const v = get(values, name);
  return isTruthy(v) ? toDisplayString(v) : "00";
}

function likertAnswers(strings: unknown): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const [score, { key, text }] of Object.entries(LIKERT_ANSWERS)) {
    const localized = get(strings, key);
    answers[score] = typeof localized === "string" ? localized : text;
  }
  return answers;
}

type Renderer = (values: unknown, strings: unknown) => string;

/** How the answer of each structured field type prints; other types print their `value`. */
const RENDERERS: Readonly<Record<string, Renderer>> = {
  address: (v) => {
    let out = `<div style="padding-left:5px;">\n  <div>${show(v, "Line1")}</div>`;
    if (isTruthy(get(v, "Line2"))) out += `\n  <div>${show(v, "Line2")}</div>`;
    out += `\n  <div>${show(v, "City")}, ${show(v, "State")} ${show(v, "Zip")} ${show(v, "Country")}</div>\n</div>`;
    return out;
  },
  date: (v) => `${show(v, "Month")}/${show(v, "Day")}/${show(v, "Year")}`,
  likert: (v, strings) => {
    const answers = likertAnswers(strings);
    let out = '<div style="padding-left:5px;">';
    if (isObject(v)) {
      for (const [question, score] of Object.entries(v)) {
        const answer = answers[asString(score)] ?? answers["0"];
        out += `\n  <div><span style="font-weight:bold;">${question}:</span> ${answer}</div>`;
      }
    }
    return `${out}\n</div>`;
  },
  name: (v) => `${show(v, "First")} ${show(v, "Last")}`,
  phone: (v) => {
    const country = get(v, "Country");
    const prefix = isTruthy(country) ? `+${toDisplayString(country)} ` : "";
    return `${prefix}${show(v, "Areacode")}-${show(v, "Prefix")}-${show(v, "Line")}`;
  },
  time: (v) => `${orZeros(v, "Hour")}:${orZeros(v, "Minute")}:${orZeros(v, "Second")} ${show(v, "Ampm")}`,
};

/** A checkbox answer: its list of checked values joined by ", " (then a newline), else its single value. */
function checkboxAnswer(field: unknown): string {
  const values = get(field, "values");
  if (isTruthy(values)) {
    const list = Array.isArray(values) ? values : [values];
    return `${list.map(toDisplayString).join(", ")}\n`;
  }
  const value = get(field, "value");
  return isTruthy(value) ? toDisplayString(value) : "";
}

/** The answer of a form field as summary text ("" when it has none). */
export function formFieldAnswer(field: unknown, strings: unknown): string {
  const type = asString(get(field, "type"));
  if (type === "checkbox") return checkboxAnswer(field);
  const render = Object.hasOwn(RENDERERS, type) ? RENDERERS[type] : undefined;
  if (render === undefined) return toDisplayString(get(field, "value"));
  return render(get(field, "values"), strings);
}

/**
 * `{field|summary-form-field}`: the field's `rawTitle` and its answer in the summary
 * wrapper; a field without an answer shows the site's no-answer text or "N/A".
 */
export const summaryFormFieldFormatter: Formatter = (_args, vars, ctx) => {
  const field = vars[0].value;
  const strings = ctx.resolve("localizedStrings");
  let answer = formFieldAnswer(field, strings);
  if (answer === "") {
    const text = asString(path(strings, ["productSummaryFormNoAnswerText"])).trim();
    answer = text === "" ? NO_ANSWER_TEXT : text;
  }
  vars[0].value =
    '<div style="font-size:11px; margin-top:3px">\n' +
    `  <span style="font-weight:bold;">${asString(get(field, "rawTitle"))}:</span> ${answer}\n</div>`;
};
