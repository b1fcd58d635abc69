/**
 * Compiles a syntax tree to the source of one JavaScript function per template (built with
 * `new Function` once, when the template is compiled). The generated code does what the
 * closures of src/compiler.ts do, instruction for instruction; what it gains is that every
 * formatter and predicate call, lookup and output append is its own call site in its own
 * function, so the JavaScript engine sees one callee per site and can inline it (shared
 * closures see every formatter at one site).
 *
 * Only the common instructions are generated (text, variables with formatters, sections,
 * repeated sections, predicates and `.or` chains, `.if` variable chains); any other
 * instruction runs its closure from src/compiler.ts, called from the generated code.
 * Templates that contain `{.break}` are left to the closures entirely. Where `new Function`
 * is not allowed (a Content-Security-Policy without 'unsafe-eval'), nothing is generated and
 * the closures are used.
 */
import { type FormatterCall, type OrNode, outputSteps, type Path, type TemplateNode } from "./ast.js";
import { type Code, Ctx, descend, lookupName, prop } from "./context.js";
import type { Formatter, FormatterTable, Predicate, PredicateTable } from "./types.js";
import { isTruthy, JsonNumber, toDisplayString } from "./util/values.js";

interface CodegenTables {
  formatters: FormatterTable;
  predicates: PredicateTable;
}

/** What the generated code calls; passed to the generated factory as `rt`. */
const RUNTIME = {
  lookupName,
  prop,
  descend,
  frameGet: Ctx.frameGet,
  isTruthy,
  toDisplayString,
  errorMessage: (e: unknown): string => (e instanceof Error ? e.message : String(e)),
  JsonNumber,
};

/** A member name read with a generated function: a string other than `__proto__`. */
function plainName(name: string | number): name is string {
  return typeof name === "string" && name !== "__proto__";
}

let available: boolean | undefined;

/** True when functions can be built from source here (not under a CSP that forbids it). */
export function codegenAvailable(): boolean {
  if (available === undefined) {
    try {
      available = new Function("return 1")() === 1;
    } catch {
      available = false;
    }
  }
  return available;
}

/** Generated blocks longer than this become functions of their own (engines optimize small functions). */
const SPLIT_BLOCK_CHARS = 3000;

class Generator {
  /** Values the code refers to as k0, k1, … */
  readonly consts: unknown[] = [];
  /** Split-off block functions and member readers, declared before the template function. */
  readonly functions: string[] = [];
  private readonly getters = new Map<string, string>();
  private readonly finders = new Map<string, string>();
  private ids = 0;

  constructor(
    private readonly tables: CodegenTables,
    private readonly fallback: (n: TemplateNode) => Code,
  ) {}

  /** A constant: its name in the generated code. */
  k(value: unknown): string {
    this.consts.push(value);
    return `k${this.consts.length - 1}`;
  }

  id(): number {
    return this.ids++;
  }

  /**
   * Statements for a block. A long block is cut into pieces that become functions of their
   * own (inner blocks are done first, so every piece stays small).
   */
  block(nodes: readonly TemplateNode[]): string {
    const pieces: string[] = [];
    let code = "";
    const add = (statement: string): void => {
      if (code && code.length + statement.length > SPLIT_BLOCK_CHARS) {
        pieces.push(code);
        code = "";
      }
      code += statement;
    };
    // Adjacent static output is merged into one append.
    for (const step of outputSteps(nodes)) {
      add(typeof step === "string" ? `ctx.buf += ${this.k(step)};\n` : this.node(step));
    }
    if (pieces.length === 0 && code.length <= SPLIT_BLOCK_CHARS) return code;
    pieces.push(code);
    let calls = "";
    for (const piece of pieces) {
      const name = `b${this.id()}`;
      this.functions.push(`function ${name}(ctx) {\n${piece}}`);
      calls += `${name}(ctx);\n`;
    }
    return calls;
  }

  /**
   * The name of the generated function that `cache` holds for a member name: `prefix` and a
   * number, written by `source(fn)` (and added to the module) the first time.
   */
  private generated(
    cache: Map<string, string>,
    prefix: string,
    name: string,
    source: (fn: string) => string,
  ): string {
    let fn = cache.get(name);
    if (fn === undefined) {
      fn = `${prefix}${cache.size}`;
      cache.set(name, fn);
      this.functions.push(source(fn));
    }
    return fn;
  }

  /**
   * The name of a generated function reading one member (as `prop` in context.ts does). Each
   * member name gets its own function, so its property load sees one name and the few
   * shapes of the objects that have it (a shared `prop` sees every name and shape).
   */
  getter(name: string): string {
    const key = JSON.stringify(name);
    return this.generated(
      this.getters,
      "G",
      name,
      (fn) =>
        `function ${fn}(n) {\n` +
        `if (typeof n !== "object" || n === null || Array.isArray(n)) return undefined;\n` +
        `const v = n[${key}];\n` +
        `return v === undefined || typeof v === "function" || n instanceof rt_JsonNumber ? undefined : v;\n}`,
    );
  }

  /** The name of a generated function searching a member from a frame up (as `lookupName`). */
  finder(name: string): string {
    return this.generated(this.finders, "L", name, (fn) => {
      const get = this.getter(name);
      return (
        `function ${fn}(f) {\nlet searched = NOTHING;\n` +
        `for (; f !== null; f = f.parent) {\nconst n = f.node;\n` +
        `if (n !== searched) {\nconst v = ${get}(n);\nif (v !== undefined) return v;\nsearched = n;\n}\n` +
        `if (f.stop) break;\n}\nreturn undefined;\n}`
      );
    });
  }

  /** Reads the rest of a path (from index `from`) below an expression's value (as `descend`). */
  below(expr: string, path: Path, from: number): string {
    let out = expr;
    for (let i = from; i < path.length; i++) {
      const name = path[i];
      out = plainName(name) ? `${this.getter(name)}(${out})` : `rt_prop(${out}, ${this.k(name)})`;
    }
    return out;
  }

  /** An expression resolving a variable path by the lookup rules (as `resolver` in compiler.ts). */
  resolve(path: Path): string {
    const name = path[0];
    let first: string;
    if (name === "@") first = "ctx.frame.node";
    else if (typeof name === "string" && name[0] === "@") first = `ctx.lookup(${this.k(name)})`;
    else if (plainName(name)) first = `${this.finder(name)}(ctx.frame)`;
    else first = `rt_lookupName(ctx.frame, ${this.k(name)})`;
    return this.below(first, path, 1);
  }

  /** An expression resolving a section path in the current frame only (as `sectionResolver`). */
  sectionResolve(path: Path): string {
    const name = path[0];
    let first: string;
    if (typeof name === "string" && name[0] === "@") first = `rt_frameGet(ctx.frame, ${this.k(name)})`;
    else if (plainName(name)) first = `${this.getter(name)}(ctx.frame.node)`;
    else first = `rt_prop(ctx.frame.node, ${this.k(name)})`;
    return this.below(first, path, 1);
  }

  /** Appends a value (a variable name) to the output. */
  emit(v: string): string {
    return `ctx.buf += typeof ${v} === "string" ? ${v} : rt_toDisplayString(${v});\n`;
  }

  /**
   * Tests a predicate into `r` (1 true, 0 false, 2 failed: neither branch runs), as
   * `testPredicate` in compiler.ts.
   */
  predicate(name: string, args: readonly string[], loc: unknown, r: string): string {
    if (!Object.hasOwn(this.tables.predicates, name)) return `const ${r} = 0;\n`;
    const impl = this.k(this.tables.predicates[name] as Predicate);
    const a = this.k(Object.freeze(args.slice()));
    const e = this.id();
    return (
      `let ${r};\nctx.loc = ${this.k(loc)};\n` +
      `try { ${r} = ${impl}(${a}, ctx) === true ? 1 : 0; }\n` +
      `catch (e${e}) { ctx.error(${this.k(`predicate '${name}' failed: `)} + rt_errorMessage(e${e})); ${r} = 2; }\n`
    );
  }

  alt(alt: OrNode | null): string {
    if (alt === null) return "";
    const body = this.block(alt.body);
    if (alt.predicate === null) return body;
    const r = `r${this.id()}`;
    const next = this.alt(alt.alt);
    return (
      `${this.predicate(alt.predicate, alt.args, alt.loc, r)}` +
      `if (${r} === 1) {\n${body}}${next ? ` else if (${r} === 0) {\n${next}}` : ""}\n`
    );
  }

  formatters(calls: readonly FormatterCall[], vars: string): string {
    let out = "";
    for (const c of calls) {
      if (!Object.hasOwn(this.tables.formatters, c.name)) continue;
      const impl = this.k(this.tables.formatters[c.name] as Formatter);
      // Shared by every call: frozen so a plugin cannot change it for the next one.
      const args = this.k(Object.freeze(c.args.slice()));
      const e = this.id();
      out +=
        `if (ok) {\nctx.loc = ${this.k(c.loc)};\n` +
        `try { ${impl}(${args}, ${vars}, ctx); }\n` +
        `catch (e${e}) { ctx.error(${this.k(`formatter '${c.name}' failed: `)} + rt_errorMessage(e${e})); ok = false; }\n}\n`;
    }
    return out;
  }

  node(n: TemplateNode): string {
    const id = this.id();
    switch (n.type) {
      case "variable": {
        const v = `v${id}`;
        if (n.formatters.every((c) => !Object.hasOwn(this.tables.formatters, c.name))) {
          return `{\nconst ${v} = ${this.resolve(n.vars[0])};\n${this.emit(v)}}\n`;
        }
        const vars = `vs${id}`;
        const f = `f${id}`;
        const list = n.vars.map((p) => `{ value: ${this.resolve(p)} }`).join(", ");
        return (
          `{\nconst ${vars} = [${list}];\nconst ${f} = ctx.push(${vars}[0].value);\nlet ok = true;\n` +
          this.formatters(n.formatters, vars) +
          `ctx.frame = ${f}.parent;\nif (ok) {\nconst ${v} = ${vars}[0].value;\n${this.emit(v)}}\n}\n`
        );
      }

      case "section": {
        const node = `n${id}`;
        const f = `f${id}`;
        const alt = this.alt(n.alt);
        return (
          `{\nconst ${node} = ${this.sectionResolve(n.path)};\nconst ${f} = ctx.push(${node});\n` +
          `if (rt_isTruthy(${node})) {\n${this.block(n.body)}}${alt ? ` else {\n${alt}}` : ""}\n` +
          `ctx.frame = ${f}.parent;\n}\n`
        );
      }

      case "repeated": {
        const node = `n${id}`;
        const f = `f${id}`;
        const i = `i${id}`;
        const alt = this.alt(n.alt);
        const between = n.alternatesWith?.length ? this.block(n.alternatesWith) : "";
        return (
          `{\nconst ${node} = ${this.sectionResolve(n.path)};\n` +
          `if (!Array.isArray(${node}) || ${node}.length === 0) {\n${alt}} else {\n` +
          `const p${id} = ctx.frame;\nconst ${f} = ctx.push(${node});\nconst len${id} = ${node}.length;\n` +
          `for (let ${i} = 0; ${i} < len${id}; ${i}++) {\n${f}.index = ${i};\nconst el${id} = ${node}[${i}];\n` +
          `ctx.push(el${id} === null ? undefined : el${id});\n${this.block(n.body)}` +
          (between ? `if (${i} < len${id} - 1) {\n${between}}\n` : "") +
          `ctx.frame = ${f};\n}\n${f}.index = -1;\nctx.frame = p${id};\n}\n}\n`
        );
      }

      case "predicate":
      case "if-predicate": {
        const r = `r${id}`;
        const alt = this.alt(n.alt);
        return (
          `{\n${this.predicate(n.predicate, n.args, n.loc, r)}` +
          `if (${r} === 1) {\n${this.block(n.body)}}${alt ? ` else if (${r} === 0) {\n${alt}}` : ""}\n}\n`
        );
      }

      case "if": {
        // Left to right, stopping as soon as an `&&` gives false or an `||` gives true.
        const res = `t${id}`;
        let code = `let ${res} = rt_isTruthy(${this.resolve(n.vars[0])});\n`;
        let close = "";
        for (let j = 1; j < n.vars.length; j++) {
          const op = n.ops[j - 1];
          code += `${res} = ${res} ${op} rt_isTruthy(${this.resolve(n.vars[j])});\n`;
          if (j < n.vars.length - 1) {
            code += `if (${op === "&&" ? res : `!${res}`}) {\n`;
            close += "}\n";
          }
        }
        const alt = this.alt(n.alt);
        return (
          `{\n${code}${close}` + `if (${res}) {\n${this.block(n.body)}}${alt ? ` else {\n${alt}}` : ""}\n}\n`
        );
      }

      default:
        return `${this.k(this.fallback(n))}(ctx);\n`;
    }
  }
}

/**
 * Generates the render function of a template body (without `{.break}`), or null when code
 * cannot be generated here. `fallback` compiles an instruction to a closure.
 */
export function generateTemplate(
  nodes: readonly TemplateNode[],
  tables: CodegenTables,
  fallback: (n: TemplateNode) => Code,
): Code | null {
  if (!codegenAvailable()) return null;
  const g = new Generator(tables, fallback);
  const body = g.block(nodes);
  const consts = g.consts.map((_, i) => `k${i} = K[${i}]`);
  const runtime = Object.keys(RUNTIME).map((name) => `rt_${name} = rt.${name}`);
  const source =
    `"use strict";\nconst NOTHING = {};\nconst ${[...runtime, ...consts].join(",\n  ")};\n` +
    `${g.functions.join("\n")}\nreturn function render(ctx) {\n${body}};\n`;
  try {
    return new Function("K", "rt", source)(g.consts, RUNTIME) as Code;
  } catch {
    return null;
  }
}
