import { describe, expect, it } from "vitest";
import { formFieldAnswer, summaryFormFieldFormatter } from "./form-summary.js";
import { fakeContext, format } from "./testing.js";

const wrap = (title: string, answer: string) =>
  `<div style="font-size:11px; margin-top:3px">\n  <span style="font-weight:bold;">${title}:</span> ${answer}\n</div>`;

describe("summary-form-field", () => {
  it("prints plain fields and N/A without an answer", () => {
    const ctx = fakeContext({});
    expect(format(summaryFormFieldFormatter, { type: "text", rawTitle: "City", value: "Oslo" }, ctx)).toBe(
      wrap("City", "Oslo"),
    );
    expect(format(summaryFormFieldFormatter, { type: "email", rawTitle: "Email" }, ctx)).toBe(
      wrap("Email", "N/A"),
    );
  });

  it("uses the localized no-answer text", () => {
    const ctx = fakeContext({ localizedStrings: { productSummaryFormNoAnswerText: " Sin respuesta " } });
    expect(format(summaryFormFieldFormatter, { type: "checkbox", rawTitle: "Opt" }, ctx)).toBe(
      wrap("Opt", "Sin respuesta"),
    );
  });

  it("formats structured answers", () => {
    expect(formFieldAnswer({ type: "checkbox", values: ["A", "B"] }, undefined)).toBe("A, B\n");
    expect(formFieldAnswer({ type: "checkbox", value: "Only" }, undefined)).toBe("Only");
    expect(formFieldAnswer({ type: "name", values: { First: "Ada", Last: "Lovelace" } }, undefined)).toBe(
      "Ada Lovelace",
    );
    expect(formFieldAnswer({ type: "date", values: { Month: 12, Day: 10, Year: 1815 } }, undefined)).toBe(
      "12/10/1815",
    );
    expect(
      formFieldAnswer(
        { type: "phone", values: { Country: "44", Areacode: "20", Prefix: "7946", Line: "0018" } },
        {},
      ),
    ).toBe("+44 20-7946-0018");
    expect(
      formFieldAnswer({ type: "phone", values: { Areacode: "212", Prefix: "555", Line: "0100" } }, {}),
    ).toBe("212-555-0100");
    expect(formFieldAnswer({ type: "time", values: { Hour: 11, Minute: "05", Ampm: "pm" } }, {})).toBe(
      "11:05:00 pm",
    );
    expect(formFieldAnswer({ type: "time", values: { Hour: 0, Ampm: "am" } }, {})).toBe("00:00:00 am");
  });

  it("formats addresses, with the second line only when present", () => {
    const values = { Line1: "1 Main St", City: "Springfield", State: "IL", Zip: "62701", Country: "US" };
    expect(formFieldAnswer({ type: "address", values }, {})).toBe(
      '<div style="padding-left:5px;">\n  <div>1 Main St</div>\n  <div>Springfield, IL 62701 US</div>\n</div>',
    );
    expect(formFieldAnswer({ type: "address", values: { ...values, Line2: "Apt 2" } }, {})).toContain(
      "<div>1 Main St</div>\n  <div>Apt 2</div>",
    );
  });

  it("maps survey scores to answers, localized when the site has strings", () => {
    const field = { type: "likert", values: { Service: "2", Price: "-1", Speed: "9" } };
    expect(formFieldAnswer(field, {})).toBe(
      '<div style="padding-left:5px;">' +
        '\n  <div><span style="font-weight:bold;">Service:</span> Strongly Agree</div>' +
        '\n  <div><span style="font-weight:bold;">Price:</span> Disagree</div>' +
        '\n  <div><span style="font-weight:bold;">Speed:</span> Neutral</div>' +
        "\n</div>",
    );
    expect(
      formFieldAnswer({ type: "likert", values: { Q: -2 } }, { productAnswerMapStronglyDisagree: "Nope" }),
    ).toContain("Q:</span> Nope</div>");
  });
});
