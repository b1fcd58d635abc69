import { describe, expect, it } from "vitest";
import {
  CACHE_CAPACITY,
  compile,
  createEngine,
  formatError,
  MAX_PARTIAL_DEPTH,
  parse,
  printTemplate,
  type RenderContext,
  render,
} from "./index.js";
import { parseJson } from "./util/json.js";

const msgs = (src: string) => parse(src).errors.map(formatError);

describe("parser errors", () => {
  it("reports unknown formatters and predicates with line and column", () => {
    expect(msgs("ab\n  {x|nope}")).toEqual(["2:6 unknown formatter 'nope'"]);
    expect(msgs("{.nope?}a{.end}")).toEqual(["1:1 unknown predicate 'nope?'"]);
    expect(msgs("{.section a}{.or nope? 1}b{.end}")).toEqual(["1:13 unknown predicate 'nope?'"]);
  });

  it("reports unclosed blocks at the opening instruction", () => {
    expect(msgs("x\n{.section a}\n{.repeated section b}")).toEqual([
      "2:1 unclosed block: {.section a} has no {.end}",
      "3:1 unclosed block: {.repeated section b} has no {.end}",
    ]);
  });

  it("reports misplaced and malformed instructions", () => {
    expect(msgs("{.end}")).toEqual(["1:1 {.end} is not allowed at the root: there is no open block"]);
    expect(msgs("{.or}")).toEqual(["1:1 {.or} is not allowed at the root: there is no open block"]);
    expect(msgs("{.section a}{.alternates with}{.end}")).toEqual([
      "1:13 {.alternates with} is not allowed inside {.section a}",
    ]);
    expect(msgs("{.section a}{.or}{.or}{.end}")[0]).toMatch(/^1:18 dead code/);
    expect(msgs("{.bogus}")).toEqual(["1:1 invalid instruction '.bogus'"]);
    expect(msgs("{.section}")).toHaveLength(1);
    expect(msgs("{.end x}")).toEqual(["1:1 extra characters after {.end}: ' x'"]);
    expect(msgs("{## open")).toEqual(["1:1 unterminated multi-line comment: missing '##}'"]);
    expect(msgs("{.eval 1 +* 'x}")).toHaveLength(1);
  });

  it("keeps text that is not an instruction, without errors", () => {
    for (const src of ["{ a }", "{a b}", "{a||b}", "function(){ return 1; }", "{", "}", "{.5}"]) {
      expect(parse(src).errors).toEqual([]);
      expect(render(src, { a: 1, b: 2 }).output).toBe(src);
    }
  });

  it("refuses absurdly deep nesting instead of overflowing the stack", () => {
    const n = 20000;
    const src = `${"{.section a}".repeat(n)}x${"{.end}".repeat(n)}`;
    const r = render(src, { a: { a: 1 } });
    expect(r.errors.some((e) => /nested too deeply/.test(e.message))).toBe(true);
    expect(() => printTemplate(parse(src).ast)).not.toThrow();
  });

  it("never throws on hostile input", () => {
    for (const src of [
      "{.if}",
      "{.if ((}",
      "{.eval",
      "{.var @}",
      "{.ctx @c}",
      "{.macro}",
      "{|}",
      "{@@}",
      "\u0000{",
    ]) {
      expect(() => render(src, {})).not.toThrow();
    }
  });
});

describe("rendering", () => {
  it("renders variables, sections, repeated sections and alternates", () => {
    const t = "{.repeated section items}{@index}:{name}{.alternates with}, {.or}none{.end}";
    expect(render(t, { items: [{ name: "a" }, { name: "b" }] }).output).toBe("1:a, 2:b");
    expect(render(t, { items: [] }).output).toBe("none");
    expect(render("{.section a.b}{c}{.or}no{.end}", { a: { b: { c: 3 } } }).output).toBe("3");
    expect(render("{.section a.b}{c}{.or}no{.end}", { a: {} }).output).toBe("no");
  });

  it("resolves names up the stack, @ as the current node, @index 1-based and @index0", () => {
    const json = { title: "T", list: [{ x: 1 }, { x: 2 }] };
    expect(render("{.repeated section list}{title}{x}{@index0}{@index}|{.end}", json).output).toBe(
      "T101|T212|",
    );
    expect(render("{.section list}{@|json}{.end}", { list: [1] }).output).toBe("[1]");
  });

  it("prints values like the reference", () => {
    const json = parseJson('{"n": 1.0, "m": 1.5, "t": true, "z": null, "a": [1, "b", null], "o": {"k": 1}}');
    expect(render("{n}|{m}|{t}|{z}|{a}|{o}|{missing}", json).output).toBe("1.0|1.5|true||1,b,null||");
  });

  it("records a missing partial and too deep recursion, and goes on", () => {
    const missing = render("a{x|apply nope}b", { x: 1 });
    expect(missing.output).toBe("ab");
    expect(missing.errors.map((e) => e.message)).toEqual(["missing partial 'nope'"]);

    const deep = render("{@|apply p}", { n: 1 }, { partials: { p: "x{@|apply p}" } });
    expect(deep.output).toBe("x".repeat(MAX_PARTIAL_DEPTH));
    expect(deep.errors).toHaveLength(1);
    expect(deep.errors[0].message).toMatch(/^partial recursion too deep/);
  });

  it("runs unknown formatters as no-ops and unknown predicates as false", () => {
    const r = render("{a|nope}{.nope?}y{.or}n{.end}", { a: "A" });
    expect(r.output).toBe("An");
    expect(r.errors.map((e) => e.kind)).toEqual(["syntax", "syntax"]);
  });

  it("binds variables, context variables, injects and includes", () => {
    expect(render("{.var @p person}{@p.name}", { person: { name: "L" } }).output).toBe("L");
    expect(render("{.ctx @c a=x.y}{@c.a}", { x: { y: 5 } }).output).toBe("5");
    expect(render("{.inject @i f.json}{@i.v}", {}, { injects: { "f.json": '{"v": 2}' } }).output).toBe("2");
    expect(render("{.macro m}{.eval @q = 4}Q{.end}{.include m}{@q}|{.include m output}", {}).output).toBe(
      "4|Q",
    );
  });

  it("evaluates expressions and .if conditions", () => {
    expect(render("{.eval 1 + 2 * 3}", {}).output).toBe("7");
    expect(render("{.eval @a = n * 2; @a ** 2}", { n: 3 }).output).toBe("36");
    expect(render("{.if n > 2}big{.or}small{.end}", { n: 3 }).output).toBe("big");
    expect(render("{.if a || b}y{.or}n{.end}", { a: 0, b: "" }).output).toBe("n");
    expect(render("{.if equal? n 3}three{.end}", { n: 3 }).output).toBe("three");
  });

  it("uses the locale and clock given, with defaults", () => {
    const seen: { locale: string; now: number }[] = [];
    const engine = createEngine({
      formatters: {
        probe: (_args, vars, ctx: RenderContext) => {
          seen.push({ locale: ctx.locale, now: ctx.now });
          vars[0].value = "";
        },
      },
    });
    const before = Date.now();
    engine.render("{x|probe}", {});
    engine.render("{x|probe}", {}, { locale: "fr-FR", now: 42 });
    expect(seen[0].locale).toBe("en-US");
    expect(seen[0].now).toBeGreaterThanOrEqual(before);
    expect(seen[1]).toEqual({ locale: "fr-FR", now: 42 });
  });

  it("lets plugins resolve paths, read the root and render partials", () => {
    const engine = createEngine({
      formatters: {
        probe: (args, vars, ctx) => {
          vars[0].value = `${String(ctx.resolve(args[0]))}/${(ctx.root() as { r: string }).r}/${ctx.renderPartial("p", 7)}`;
        },
      },
    });
    expect(
      engine.render(
        "{.section s}{x|probe a.b}{.end}",
        { r: "R", s: { a: { b: "B" } } },
        { partials: { p: "<{@}>" } },
      ).output,
    ).toBe("B/R/<7>");
  });

  it("records formatter exceptions, drops that instruction's output and keeps rendering", () => {
    const engine = createEngine({
      formatters: {
        boom: () => {
          throw new Error("bad");
        },
      },
    });
    const r = engine.render("a{x|boom}b", { x: "X" });
    expect(r.output).toBe("ab");
    expect(r.errors.map(formatError)).toEqual(["1:5 formatter 'boom' failed: bad"]);
  });
});

describe("breaks, labels and compatibility levels", () => {
  it("{.break} ends the innermost loop; {.break label} ends the labelled block", () => {
    const json = {
      rows: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    };
    const inner = "{.repeated section rows}[{.repeated section @}{@}{.if @index0}{.break}{.end}{.end}]{.end}";
    expect(render(inner, json).output).toBe("[12][45]");
    const labelled =
      "{.repeated section rows}{.label row}[{.repeated section @}{@}{.equal? @ 2}{.break row}{.end}{.end}]" +
      "{.alternates with}|{.end}";
    expect(render(labelled, json).output).toBe("[12|[456]");
    expect(render("a{.break}b{.break nowhere}c", {}).output).toBe("abc");
    expect(render("a{.label all}b{.break all}c", {}).output).toBe("ab");
  });

  it("a throwing predicate skips its whole block", () => {
    expect(render("X{.nth? n 0}A{.or}B{.end}Y", { n: 6 }).output).toBe("XY");
    expect(render("X{.nth? n 0}A{.or}B{.end}Y", { n: 6 }, { compatLevel: 1 }).output).toBe("XBY");
  });

  it("keeps legacy behaviours at level 0 and applies fixes at higher levels", () => {
    const data = { s: "a'b", n: 7, t: "abcdef", w: "a\tb c" };
    const src = "{s|htmlattr}|{n|mod 0}|{t|truncate -1}|{w|encode-space}";
    expect(render(src, data).output).toBe("a'b|||a&nbsp;b&nbsp;c");
    expect(render(src, data, { compatLevel: 2 }).output).toBe("a&#39;b|1|...|a\tb&nbsp;c");
  });

  it("honours a custom partial depth", () => {
    const partials = { pA: "{.include pB}", pB: "B", pC: "C" };
    const src = "{out|apply pA}{out|apply pC}";
    // Legacy: the refused include leaves the depth counted, so pC is refused too.
    expect(render(src, { out: {} }, { partials, maxPartialDepth: 1 }).output).toBe("");
    expect(render(src, { out: {} }, { partials, maxPartialDepth: 1, compatLevel: 1 }).output).toBe("C");
  });
});

describe("compiled-template cache", () => {
  it("compiles each source once and keeps the last 100", () => {
    const engine = createEngine();
    const first = engine.compile("{a}");
    expect(engine.compile("{a}")).toBe(first);
    for (let i = 0; i < CACHE_CAPACITY; i++) engine.compile(`{a}${i}`);
    expect(engine.cacheSize).toBe(CACHE_CAPACITY);
    expect(engine.compile("{a}")).not.toBe(first);
  });

  it("keeps recently used templates", () => {
    const engine = createEngine({ cacheCapacity: 2 });
    const a = engine.compile("a");
    engine.compile("b");
    engine.compile("a");
    engine.compile("c");
    expect(engine.compile("a")).toBe(a);
  });

  it("registered formatters take effect", () => {
    const engine = createEngine();
    expect(engine.render("{x|shout}", { x: "hi" }).output).toBe("hi");
    engine.registerFormatters({
      shout: (_a, vars) => {
        vars[0].value = `${vars[0].value}!`;
      },
    });
    expect(engine.render("{x|shout}", { x: "hi" }).output).toBe("hi!");
    engine.registerPredicates({ "yes?": () => true });
    expect(engine.render("{.yes?}y{.end}", {}).output).toBe("y");
  });

  it("exposes the module-level API", () => {
    expect(compile("{a}").render({ a: 1 }).output).toBe("1");
  });
});
