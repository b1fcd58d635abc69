import { Text } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { TAG, offsetOf, syntaxErrors, tagClass } from "./jsont-editor.js";

describe("the template editor's JSON-T support", () => {
  it("finds the syntax errors the server refuses, with their line and column", () => {
    expect(syntaxErrors("<p>{title|html}</p>\n{.section item}{.end}")).toEqual([]);
    const [first] = syntaxErrors("<footer>\n  {.bogus}\n</footer>");
    expect(first).toMatchObject({ line: 2, column: 3, message: "invalid instruction '.bogus'" });
    expect(syntaxErrors("{.section a}\n{x|no-such-formatter}\n{.end}")[0]).toMatchObject({ line: 2 });
  });

  it("puts an error's line and column at the right place in the document, clamped to it", () => {
    const doc = Text.of(["<footer>", "  {.bogus}", "</footer>"]);
    expect(offsetOf(doc, 2, 3)).toBe("<footer>\n  ".length);
    expect(offsetOf(doc, 1, 1)).toBe(0);
    expect(offsetOf(doc, 9, 1)).toBe(doc.line(3).from);
    expect(offsetOf(doc, 1, 99)).toBe(doc.line(1).to);
  });

  it("marks directives, variables with formatters and comments, and leaves CSS and JSON braces alone", () => {
    const text =
      '{.repeated section items}<a href="{fullUrl|htmlattr}">{title}</a>{.or}{# none}{.end}<style>a{color:red}</style>';
    const found = [...text.matchAll(TAG)].map((m) => [m[0], tagClass(m[0])]);
    expect(found).toEqual([
      ["{.repeated section items}", "cm-jsont-directive"],
      ["{fullUrl|htmlattr}", "cm-jsont-variable"],
      ["{title}", "cm-jsont-variable"],
      ["{.or}", "cm-jsont-directive"],
      ["{# none}", "cm-jsont-comment"],
      ["{.end}", "cm-jsont-directive"],
    ]);
  });
});
