/**
 * Property tests (fast-check): escaping formatters never let a `<` from data through; the
 * parser never throws; printing a parsed template and parsing it again renders the same;
 * generated code and closures render the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCaseFiles, loadCase, loadCaseLocale } from "./cli/cases.js";
import { codegenAvailable, generateTemplate } from "./codegen.js";
import {
  compile,
  createEngine,
  defaultFormatters,
  defaultPredicates,
  parse,
  printTemplate,
  parseJson,
  render,
} from "./index.js";

const SUITE = new URL("../../../../shared/conformance/jsont/", import.meta.url).pathname;

/** Fragments that exercise the whole syntax, valid and broken. */
const FRAGMENTS = [
  "{a}",
  "{a.b}",
  "{@}",
  "{@index}",
  "{@index0}",
  "{items.0.name}",
  "{a|html}",
  "{a|htmlattr}",
  "{a,b|json}",
  "{a|truncate 5}",
  "{a|truncate#3#!}",
  "{msg|format:a:b}",
  "{n|pluralize item items}",
  "{a|json-pretty}",
  "{a||b}",
  "{a|}",
  "{a|nope}",
  "{.section a}",
  "{.section items}",
  "{.repeated section items}",
  "{.repeated section missing}",
  "{.alternates with}",
  "{.or}",
  "{.or equal? n 2}",
  "{.end}",
  "{.equal? n 2}",
  "{.greaterThan? n 1}",
  "{.odd?}",
  "{.even? @index}",
  "{.if a || b}",
  "{.if a && missing}",
  "{.if n > 1}",
  "{.if singular?}",
  "{.var @x a}",
  "{.var @y n|mod 2}",
  "{@x}",
  "{@y}",
  "{.eval @z = n * 2; @z + 1}",
  "{.eval 'a' + n}",
  "{.macro m}",
  "{@|apply m}",
  "{a|apply m}",
  "{.include m}",
  "{.include m output}",
  "{.ctx @c k=a v=n}",
  "{@c.k}",
  "{.inject @i data.json}",
  "{@i.v}",
  "{# comment }",
  "{## multi { } line ##}",
  "{##",
  "{.newline}",
  "{.break}",
  "{.break row}",
  "{.label row}",
  "{.space}",
  "{.tab}",
  "{.meta-left}",
  "{.meta-right}",
  "{.bogus}",
  "{.section}",
  "{ a }",
  "{",
  "}",
  "{{",
  "}}",
  "#",
  "##}",
  ".",
  "|",
  " ",
  "\n",
  "text",
  "<b>",
];

const DATA = {
  a: "A<&>",
  b: "",
  n: 2,
  msg: "{0}/{1}",
  items: [{ name: "x" }, { name: "y" }, { name: "z" }],
};

const OPTIONS = { injects: { "data.json": '{"v": 7}' }, partials: { p: "[{@}]" } };

const templateArb = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 40 })
  .map((parts) => parts.join(""));

describe("escaping formatters", () => {
  it("never let a '<' from the data through", () => {
    const t = compile("{v|html}|{v|htmlattr}|{v|htmltag}");
    fc.assert(
      fc.property(fc.string(), (v) => {
        const out = t.render({ v }).output;
        expect(out).not.toContain("<");
      }),
      { numRuns: 500 },
    );
  });

  it("never let a '<' through for any JSON value", () => {
    const t = compile("{v|html}{v|htmlattr}{v|htmltag}");
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(t.render({ v }).output).not.toContain("<");
      }),
      { numRuns: 300 },
    );
  });
});

describe("parser", () => {
  it("never throws on arbitrary strings", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (src) => {
        const r = parse(src);
        expect(Array.isArray(r.errors)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("never throws on template-like input, and rendering never throws", () => {
    fc.assert(
      fc.property(templateArb, (src) => {
        const r = parse(src);
        for (const e of r.errors) {
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.column).toBeGreaterThanOrEqual(1);
        }
        const out = render(src, DATA, OPTIONS);
        expect(typeof out.output).toBe("string");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("printer round trip", () => {
  const roundTrip = (src: string, json: unknown, options = {}) => {
    const printed = printTemplate(parse(src).ast);
    const a = render(src, json, options).output;
    const b = render(printed, json, options).output;
    return { a, b, printed };
  };

  it("renders the same after print(parse(template)) for generated templates", () => {
    fc.assert(
      fc.property(templateArb, (src) => {
        const { a, b } = roundTrip(src, DATA, OPTIONS);
        expect(b).toBe(a);
      }),
      { numRuns: 1000 },
    );
  });

  it("renders the same after print(parse(template)) for every conformance template", async () => {
    const files = findCaseFiles([SUITE]);
    expect(files.length).toBeGreaterThan(300);
    for (const f of files) {
      const c = loadCase(f);
      await loadCaseLocale(c);
      const { a, b } = roundTrip(c.template, c.json, c.options);
      expect(b, f).toBe(a);
    }
  });

  it("prints a known template in canonical form", () => {
    const src = "{.section a}x{.or}y{.end}{.repeated section items}{name|html}{.alternates with},{.end}";
    expect(printTemplate(parse(src).ast)).toBe(src);
  });

  it("escapes text braces that would otherwise parse as an instruction", () => {
    // "{" + dropped {.end} + "b}" is one text node "{b}" that must not become a variable.
    const src = "a{{.end}b}";
    const { a, b, printed } = roundTrip(src, { b: "B" });
    expect(a).toBe("a{b}");
    expect(b).toBe(a);
    expect(printed).toContain("{.meta-left}");
  });
});

describe("generated code and closures", () => {
  const generated = createEngine();
  const closures = createEngine({ codegen: false });
  const both = (src: string, json: unknown, options = {}) => {
    const a = generated.render(src, json, options);
    const b = closures.render(src, json, options);
    return { a, b };
  };

  it("render the same output and errors for generated templates", () => {
    fc.assert(
      fc.property(templateArb, (src) => {
        const { a, b } = both(src, DATA, OPTIONS);
        expect(a.output).toBe(b.output);
        expect(a.errors).toEqual(b.errors);
      }),
      { numRuns: 1000 },
    );
  });

  it("are generated here (Node allows new Function), except for templates with breaks", () => {
    expect(codegenAvailable()).toBe(true);
    const tables = { formatters: defaultFormatters, predicates: defaultPredicates };
    const fallback = () => () => {};
    expect(generateTemplate(parse("{a|html}").ast.body, tables, fallback)).toBeTypeOf("function");
  });

  it("render long templates (blocks split into functions of their own) the same", () => {
    const long =
      "{.repeated section items}" +
      "<i>{name|html}</i>{@index}{.section name}{@|truncate 1}{.or}-{.end}".repeat(150) +
      "{.alternates with},{.end}";
    const { a, b } = both(long, DATA, OPTIONS);
    expect(a.output.length).toBeGreaterThan(1000);
    expect(a.output).toBe(b.output);
  });

  it("read the same members: inherited names, __proto__, array and number members", () => {
    const json = parseJson(
      '{"a": "text", "n": 1.0, "m": 2, "o": {"__proto__": {"x": 1}, "constructor": 3}, "list": [1, 2], "x": {"0": "zero"}}',
    );
    const names = [
      "constructor",
      "toString",
      "__proto__",
      "hasOwnProperty",
      "valueOf",
      "length",
      "0",
      "x",
      "value",
      "text",
    ];
    let src = "";
    for (const name of names) {
      src += `[{${name}}|{a.${name}}|{n.${name}}|{o.${name}}|{list.${name}}|{x.${name}}]`;
      src += `{.section o}{${name}}{.section ${name}}<{@}>{.end}{.end}{.if ${name}}T{.end}`;
    }
    const { a, b } = both(src, json);
    expect(a.output).toBe(b.output);
    expect(a.errors).toEqual(b.errors);
    expect(a.output).toContain("[|||3||]");
  });

  it("evaluate `.if` chains left to right, stopping when an && is false or an || true", () => {
    const src =
      "{.if a && b || c}T{.or}F{.end}|{.if a || b && c}T{.or}F{.end}|{.if a && b && c || a}T{.or}F{.end}";
    for (let bits = 0; bits < 8; bits++) {
      const json = { a: bits & 1, b: (bits >> 1) & 1, c: (bits >> 2) & 1 };
      const { a, b } = both(src, json);
      expect(a.output, JSON.stringify(json)).toBe(b.output);
    }
    // `true && false || true` stops at the false &&.
    expect(both("{.if a && b || c}T{.or}F{.end}", { a: 1, b: 0, c: 1 }).a.output).toBe("F");
  });

  it("render every conformance case the same", async () => {
    const files = findCaseFiles([SUITE]);
    for (const f of files) {
      const c = loadCase(f);
      await loadCaseLocale(c);
      const { a, b } = both(c.template, c.json, c.options);
      expect(a.output, f).toBe(b.output);
      expect(a.errors, f).toEqual(b.errors);
    }
  });
});
