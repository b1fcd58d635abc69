import { describe, expect, it } from "vitest";
import { parseFields } from "./fields.js";
import { MASKED_PASSWORD, answersToStore, summarize, templateField } from "./summary.js";
import { normalizeAnswers } from "./values.js";

const fields = parseFields([
  { id: "name", type: "name", title: "Name" },
  { id: "addr", type: "address", title: "Address" },
  { id: "phone", type: "phone", title: "Phone" },
  { id: "date", type: "date", title: "Date" },
  { id: "time", type: "time", title: "Time" },
  { id: "sec", type: "section", title: "About you" },
  { id: "likert", type: "likert", title: "Survey", questions: ["Service", "Price"] },
  { id: "boxes", type: "checkbox", title: "Interests", options: ["Ceramics", "Linen", "Classes"] },
  { id: "pw", type: "password", title: "Password" },
  { id: "note", type: "text", title: "Note" },
]);

describe("summaries (SPEC §3 form summary values)", () => {
  it("formats every structured answer and shows 'N/A' for an answer with no text", () => {
    const answers = normalizeAnswers(fields, {
      name: ["Ada", "Lovelace"],
      addr: { Line1: "1 Main St", Line2: "", City: "Springfield", State: "IL", Zip: "62701", Country: "US" },
      phone: ["212", "555", "0100"],
      date: ["12", "10", "1815"],
      time: ["11", "5", "", "PM"],
      likert: { Service: "2", Price: "-1" },
      boxes: ["Ceramics", "Classes"],
      pw: "hunter22",
    });
    const lines = summarize(fields, answers);
    expect(lines.map((l) => l.id)).not.toContain("sec");
    expect(Object.fromEntries(lines.map((l) => [l.id, l.value]))).toEqual({
      name: "Ada Lovelace",
      addr: "1 Main St\nSpringfield, IL 62701\nUS",
      phone: "212-555-0100",
      date: "12/10/1815",
      time: "11:05:00 PM",
      likert: "Service: Strongly Agree\nPrice: Disagree",
      boxes: "Ceramics, Classes",
      pw: MASKED_PASSWORD,
      note: "N/A",
    });
    expect(lines[0]).toEqual({ id: "name", type: "name", title: "Name", value: "Ada Lovelace" });
  });

  it("puts the country code in front of a four-part phone number", () => {
    const answers = normalizeAnswers(fields, { phone: ["44", "20", "7946", "0018"] });
    expect(summarize(fields, answers).find((l) => l.id === "phone")?.value).toBe("+44 20-7946-0018");
  });

  it("never stores a password answer", () => {
    const answers = normalizeAnswers(fields, { pw: "hunter22", note: "hi" });
    const stored = answersToStore(fields, answers);
    expect(stored.pw).toBe(MASKED_PASSWORD);
    expect(stored.note).toBe("hi");
    expect(answersToStore(fields, normalizeAnswers(fields, {})).pw).toBe("");
  });

  it("shapes answers for the template engine's summary-form-field formatter", () => {
    const answers = normalizeAnswers(fields, { name: ["Ada", "Lovelace"], boxes: ["Linen"], note: "x" });
    expect(templateField(fields[0]!, answers.name)).toEqual({
      type: "name",
      rawTitle: "Name",
      values: { First: "Ada", Last: "Lovelace" },
    });
    expect(templateField(fields[7]!, answers.boxes)).toEqual({
      type: "checkbox",
      rawTitle: "Interests",
      values: ["Linen"],
    });
    expect(templateField(fields[9]!, answers.note)).toEqual({ type: "text", rawTitle: "Note", value: "x" });
    expect(templateField(fields[9]!, "")).toEqual({ type: "text", rawTitle: "Note" });
  });
});
