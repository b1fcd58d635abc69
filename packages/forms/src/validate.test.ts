import { describe, expect, it } from "vitest";
import type { FormField } from "./fields.js";
import { parseFields, TEXT_INPUT_TYPES } from "./fields.js";
import {
  MSG_CHARACTER_LIMIT,
  MSG_FORM_INVALID,
  MSG_INVALID_AMOUNT,
  MSG_INVALID_CHOICE,
  MSG_INVALID_DATE,
  MSG_INVALID_NUMBER,
  MSG_INVALID_PHONE,
  MSG_INVALID_TIME,
  MSG_INVALID_TWITTER,
  MSG_INVALID_URL,
  MSG_URL_TOO_LONG,
} from "./messages.js";
import { isValidEmail } from "./email.js";
import { characterCounter, validateField, validateForm } from "./validate.js";
import { summarize } from "./summary.js";
import { normalizeAnswer, normalizeAnswers } from "./values.js";

const EMAIL_MSG = "Email is not valid. Email addresses should follow the format user@domain.com.";
const f = (type: FormField["type"], extra: Partial<FormField> = {}): FormField => ({
  id: "f",
  type,
  title: "F",
  ...extra,
});
const check = (field: FormField, raw: unknown, opts = {}) =>
  validateField(field, normalizeAnswer(field, raw), opts);

describe("required fields (SPEC §5)", () => {
  it("gives 'Required' for required text-like fields left blank", () => {
    for (const type of TEXT_INPUT_TYPES) {
      expect(check(f(type, { required: true }), ""), type).toBe("Required");
      expect(check(f(type, { required: true }), "   "), type).toBe("Required");
      expect(check(f(type, { required: true }), undefined), type).toBe("Required");
      expect(check(f(type), ""), type).toBeUndefined();
    }
  });

  it("gives 'Required' for required select and radio fields", () => {
    const options = ["A", "B"];
    expect(check(f("select", { required: true, options }), "")).toBe("Required");
    expect(check(f("radio", { required: true, options }), undefined)).toBe("Required");
    expect(check(f("radio", { required: true, options }), "B")).toBeUndefined();
    expect(check(f("select", { options }), "C")).toBe(MSG_INVALID_CHOICE);
  });

  it("gives 'Required' for required multi-part fields missing a needed part", () => {
    const name = f("name", { required: true });
    expect(check(name, ["", ""])).toBe("Required");
    expect(check(name, ["Ada", ""])).toBe("Required");
    expect(check(name, { First: "Ada", Last: "Lovelace" })).toBeUndefined();
    const address = f("address", { required: true });
    expect(check(address, ["1 Main St", "", "Springfield", "IL", "62701", "US"])).toBeUndefined();
    expect(check(address, ["1 Main St", "Apt 2", "", "IL", "62701", "US"])).toBe("Required");
    expect(check(f("phone", { required: true }), ["", "", ""])).toBe("Required");
    expect(check(f("date", { required: true }), ["12", "", "2024"])).toBe("Required");
    expect(check(f("time", { required: true }), ["", "30", "", "PM"])).toBe("Required");
    expect(check(f("name"), ["", ""])).toBeUndefined();
  });

  it("gives the untranslated 'Required' for checkbox groups, even when other messages are translated", () => {
    const strings = { required: "Obligatoire" };
    expect(check(f("checkbox", { required: true, options: ["A"] }), [], { strings })).toBe("Required");
    expect(check(f("text", { required: true }), "", { strings })).toBe("Obligatoire");
    expect(check(f("checkbox", { required: true, options: ["A", "B"] }), ["B"])).toBeUndefined();
    expect(check(f("checkbox", { options: ["A"] }), ["Z"])).toBe(MSG_INVALID_CHOICE);
    expect(check(f("checkbox", { options: ["A"] }), "A")).toBeUndefined();
  });

  it("never requires likert fields and skips sections", () => {
    const likert = parseFields([
      { id: "l", type: "likert", title: "L", required: true, questions: ["Q"] },
    ])[0]!;
    expect(likert.required).toBe(false);
    expect(check(likert, {})).toBeUndefined();
    expect(check(likert, { Q: "2" })).toBeUndefined();
    expect(check(likert, { Q: "7" })).toBe(MSG_INVALID_CHOICE);
    expect(check(likert, { Other: "1" })).toBe(MSG_INVALID_CHOICE);
    const section = f("section", { required: true });
    expect(check(section, "anything")).toBeUndefined();
    const result = validateForm([section, f("text", { id: "t" })], { f: "x", t: "y" });
    expect(result.valid).toBe(true);
    expect(result.answers).toEqual({ t: "y" });
  });
});

describe("the email rule", () => {
  it("accepts 3 to 256 characters in a simple address pattern", () => {
    expect(isValidEmail("a@b.c")).toBe(true);
    expect(isValidEmail(`${"a".repeat(251)}@b.com`)).toBe(false);
    expect(isValidEmail(`${"a".repeat(244)}@example.com`)).toBe(true);
    expect(isValidEmail("a@b")).toBe(false);
    expect(isValidEmail("a b@c.d")).toBe(false);
    expect(isValidEmail("@c.d")).toBe(false);
    expect(isValidEmail(42)).toBe(false);
  });

  it("says 'Email is not valid…' unless the field is optional and blank", () => {
    expect(check(f("email"), "not-an-email")).toBe(EMAIL_MSG);
    expect(check(f("email"), "")).toBeUndefined();
    expect(check(f("email", { required: true }), "ada@example.com")).toBeUndefined();
    expect(check(f("email"), " ada@example.com ")).toBeUndefined();
    expect(check(f("email"), "not-an-email", { strings: { emailExample: "nom@domaine.fr" } })).toBe(
      "Email is not valid. Email addresses should follow the format nom@domaine.fr.",
    );
  });
});

describe("textarea character limit", () => {
  const area = f("textarea", { maxLength: 10 });
  it("says 'You have exceeded the character limit.' above the limit, under the flag", () => {
    expect(check(area, "0123456789")).toBeUndefined();
    expect(check(area, "0123456789x")).toBe(MSG_CHARACTER_LIMIT);
    expect(check(area, "0123456789x", { textareaMaxLength: false })).toBeUndefined();
    expect(check(area, "")).toBeUndefined();
  });
  it("counts characters, not UTF-16 units", () => {
    expect(check(area, "😀".repeat(10))).toBeUndefined();
    expect(characterCounter("😀😀", 1)).toEqual({ count: 2, limit: 1, exceeded: true });
    expect(characterCounter("ab", 2).exceeded).toBe(false);
  });
  it("caps fields the SPEC leaves open", () => {
    expect(check(f("text"), "x".repeat(2001))).toBe(MSG_CHARACTER_LIMIT);
    expect(check(f("textarea"), "x".repeat(20001))).toBe(MSG_CHARACTER_LIMIT);
    expect(check(f("hidden"), "x".repeat(2001))).toBe(MSG_CHARACTER_LIMIT);
  });
});

describe("formats of the other field types", () => {
  it("checks numbers, amounts, web addresses and handles", () => {
    expect(check(f("number"), "42")).toBeUndefined();
    expect(check(f("number"), "-3.5")).toBeUndefined();
    expect(check(f("number"), "forty")).toBe(MSG_INVALID_NUMBER);
    expect(check(f("currency"), "25.50")).toBeUndefined();
    expect(check(f("currency"), "$1,250.00")).toBeUndefined();
    expect(check(f("currency"), "25.505")).toBe(MSG_INVALID_AMOUNT);
    expect(check(f("website"), "example.com")).toBeUndefined();
    expect(check(f("website"), "https://example.com/a?b=c")).toBeUndefined();
    expect(check(f("website"), "not a url")).toBe(MSG_INVALID_URL);
    expect(check(f("website"), `https://example.com/${"x".repeat(2070)}`)).toBe(MSG_URL_TOO_LONG);
    expect(check(f("twitter"), "@atelier_nyc")).toBeUndefined();
    expect(check(f("twitter"), "no spaces please")).toBe(MSG_INVALID_TWITTER);
  });

  it("checks dates, times and phone numbers", () => {
    expect(check(f("date"), ["2", "29", "2024"])).toBeUndefined();
    expect(check(f("date"), ["2", "29", "2023"])).toBe(MSG_INVALID_DATE);
    expect(check(f("date"), ["13", "1", "2023"])).toBe(MSG_INVALID_DATE);
    expect(check(f("date"), ["", "", ""])).toBeUndefined();
    expect(check(f("time"), ["11", "05", "", "PM"])).toBeUndefined();
    expect(check(f("time"), ["23", "05", "10", ""])).toBeUndefined();
    expect(check(f("time"), ["13", "05", "", "PM"])).toBe(MSG_INVALID_TIME);
    expect(check(f("time"), ["10", "61", "", ""])).toBe(MSG_INVALID_TIME);
    // The form preselects AM: a time left empty is unanswered, and 'Required' when required.
    expect(check(f("time"), ["", "", "", "AM"])).toBeUndefined();
    expect(check(f("time", { required: true }), ["", "", "", "PM"])).toBe("Required");
    expect(summarize([f("time")], normalizeAnswers([f("time")], { f: ["", "", "", "AM"] }))[0]!.value).toBe(
      "N/A",
    );
    expect(check(f("phone"), ["212", "555", "0100"])).toBeUndefined();
    expect(check(f("phone"), ["44", "20", "7946", "0018"])).toBeUndefined();
    expect(check(f("phone"), ["abc", "555", "0100"])).toBe(MSG_INVALID_PHONE);
  });
});

describe("validateForm", () => {
  const contact = parseFields([
    { id: "name", type: "name", title: "Name" },
    { id: "email", type: "email", title: "Email", required: true },
    { id: "phone", type: "phone", title: "Phone" },
    { id: "subject", type: "select", title: "Subject", options: ["An order", "Wholesale"] },
    { id: "message", type: "textarea", title: "Message", required: true, maxLength: 2000 },
  ]);

  it("answers errors by field id and 'One or more fields is invalid, please check your entries.'", () => {
    const result = validateForm(contact, { email: "nope", message: "" });
    expect(result.valid).toBe(false);
    expect(result.message).toBe(MSG_FORM_INVALID);
    expect(result.errors).toEqual({ email: EMAIL_MSG, message: "Required" });
  });

  it("normalizes answers: phone of three parts gets an empty country in front; unknown ids dropped", () => {
    const result = validateForm(contact, {
      name: ["Ada", "Lovelace"],
      email: "ada@example.com",
      phone: ["212", "555", "0100"],
      subject: "Wholesale",
      message: "Hello",
      extra: "dropped",
    });
    expect(result.valid).toBe(true);
    expect(result.message).toBeUndefined();
    expect(result.answers.phone).toEqual(["", "212", "555", "0100"]);
    expect(result.answers).not.toHaveProperty("extra");
  });

  it("parseFields drops malformed fields and duplicate ids", () => {
    expect(
      parseFields([
        { id: "a", type: "text", title: "A" },
        { id: "a", type: "text", title: "dup" },
        { id: "b", type: "wat" },
        { id: "bad id!", type: "text" },
        null,
        "x",
        { id: "c", type: "select", options: ["x", 3], maxLength: -1 },
      ]).map((x) => x.id),
    ).toEqual(["a", "c"]);
    expect(parseFields("nope")).toEqual([]);
  });
});
