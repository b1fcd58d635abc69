/**
 * The JSON-T parser: template text to a syntax tree, plus every syntax error with its
 * line and column. It never throws: text that does not form a valid instruction is kept
 * as literal text (recording an error when it clearly tried to be an instruction).
 *
 *   parser/cursor.ts  reading an instruction's content    parser/tree.ts  the tree of blocks
 */
import type { FormatterCall, Path, TemplateAst, TemplateError } from "./ast.js";
import { parseExpr, splitPath } from "./expr.js";
import { DEFINITION, FILE_PATH, KEYWORD, PREDICATE, VARIABLE, WORD } from "./parser/cursor.js";
import { TreeBuilder } from "./parser/tree.js";

interface ParseOptions {
  /** Known formatter names; an unknown formatter is reported (the call is skipped at render). */
  formatters?: { readonly [name: string]: unknown };
  /** Known predicate names (with the trailing `?`); an unknown predicate is reported and is false. */
  predicates?: { readonly [name: string]: unknown };
}

interface ParseResult {
  ast: TemplateAst;
  errors: TemplateError[];
}

const VAR_SEPARATOR = / *, */y;
const IF_VARIABLE_LIMIT = 30;

const INSTRUCTIONS = new Set([
  "section",
  "repeated",
  "end",
  "or",
  "alternates",
  "var",
  "ctx",
  "eval",
  "if",
  "include",
  "inject",
  "macro",
  "meta-left",
  "meta-right",
  "newline",
  "space",
  "tab",
  "break",
  "label",
]);

const LITERALS: Record<string, string> = {
  "meta-left": "{",
  "meta-right": "}",
  newline: "\n",
  space: " ",
  tab: "\t",
};

/** Splits raw arguments on their first character. */
function splitArgs(raw: string): { args: string[]; delim: string } {
  if (!raw) return { args: [], delim: "" };
  const delim = raw[0];
  return { args: raw.slice(1).split(delim), delim };
}

/** Parses a template. Never throws. */
export function parseTemplate(source: string, options: ParseOptions = {}): ParseResult {
  return new Parser(String(source), options).run();
}

class Parser extends TreeBuilder {
  private readonly formatters?: { readonly [name: string]: unknown };
  private readonly predicates?: { readonly [name: string]: unknown };

  constructor(src: string, options: ParseOptions) {
    super(src);
    this.formatters = options.formatters;
    this.predicates = options.predicates;
  }

  run(): ParseResult {
    const src = this.src;
    const len = src.length;
    let save = 0;
    let metaLeft = -1;
    let i = 0;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c === 123 /* { */) {
        if (src.charCodeAt(i + 1) === 35 && src.charCodeAt(i + 2) === 35) {
          // {## multi-line comment ##}
          if (save < i) this.text(save, i);
          const close = src.indexOf("##}", i + 3);
          const loc = this.loc(i);
          if (close === -1) {
            this.add({ type: "comment", text: src.slice(i + 3), multiline: true, loc });
            this.error("unterminated multi-line comment: missing '##}'", loc);
            save = len;
            i = len;
            metaLeft = -1;
            break;
          }
          this.add({ type: "comment", text: src.slice(i + 3, close), multiline: true, loc });
          i = close + 3;
          save = i;
          metaLeft = -1;
          continue;
        }
        metaLeft = i;
      } else if (c === 125 /* } */) {
        if (metaLeft !== -1) {
          if (save < metaLeft) this.text(save, metaLeft);
          if (!this.tag(metaLeft, i)) this.text(metaLeft, i + 1);
          metaLeft = -1;
        } else {
          this.text(save, i + 1);
        }
        save = i + 1;
      }
      i++;
    }
    if (save < len) this.text(save, len);
    this.closeAll();
    this.errors.sort((a, b) => a.line - b.line || a.column - b.column);
    return { ast: this.root, errors: this.errors };
  }

  // ---- instructions ----

  /** Parses the tag `{...}` with '{' at `open` and '}' at `close`; false means "emit as text". */
  private tag(open: number, close: number): boolean {
    this.pos = open + 1;
    this.end = close;
    this.tagLoc = this.loc(open);
    const src = this.src;
    if (src[this.pos] === "#") {
      this.add({ type: "comment", text: src.slice(this.pos + 1, close), multiline: false, loc: this.tagLoc });
      return true;
    }
    if (src[this.pos] === ".") {
      KEYWORD.lastIndex = this.pos;
      const m = KEYWORD.exec(src);
      if (m !== null && KEYWORD.lastIndex <= close) {
        this.pos = KEYWORD.lastIndex;
        if (m[2] === "?") return this.predicateInstruction(`${m[1]}?`);
        if (!INSTRUCTIONS.has(m[1])) {
          this.error(`invalid instruction '.${m[1]}'`);
          return false;
        }
        return this.instruction(m[1]);
      }
      return false;
    }
    return this.variableInstruction();
  }

  private checkPredicate(name: string): void {
    if (this.predicates && !Object.hasOwn(this.predicates, name)) this.error(`unknown predicate '${name}'`);
  }

  private predicateInstruction(name: string): boolean {
    this.checkPredicate(name);
    const { args, delim } = splitArgs(this.rawArgs());
    return this.open({
      type: "predicate",
      predicate: name,
      args,
      delim,
      body: [],
      alt: null,
      loc: this.tagLoc,
    });
  }

  private instruction(kw: string): boolean {
    const loc = this.tagLoc;
    switch (kw) {
      case "end":
      case "meta-left":
      case "meta-right":
      case "newline":
      case "space":
      case "tab":
        if (!this.endOfTag(`{.${kw}}`)) return false;
        if (kw === "end") this.closeBlock();
        else this.add({ type: "literal", name: kw as "space", value: LITERALS[kw], loc });
        return true;

      case "alternates":
        if (!this.space()) {
          this.error(`whitespace expected after .alternates, found '${this.remainder()}'`);
          return false;
        }
        if (this.match(/with/y) === null) {
          this.error(`missing 'with' keyword in {.alternates with}: '${this.remainder()}'`);
          return false;
        }
        if (!this.endOfTag("{.alternates with}")) return false;
        this.alternatesWith();
        return true;

      case "or": {
        if (this.finished()) {
          this.orBranch({ type: "or", predicate: null, args: [], delim: "", body: [], alt: null, loc });
          return true;
        }
        if (!this.space()) {
          this.error(`extra characters after {.or}: '${this.remainder()}'`);
          return false;
        }
        const name = this.match(PREDICATE);
        if (name === null) {
          this.error(`{.or} expects a predicate, found '${this.remainder()}'`);
          return false;
        }
        this.checkPredicate(name);
        const { args, delim } = splitArgs(this.rawArgs());
        this.orBranch({ type: "or", predicate: name, args, delim, body: [], alt: null, loc });
        return true;
      }

      case "section":
      case "repeated": {
        if (!this.requireWhitespace(`.${kw}`)) return false;
        if (kw === "repeated") {
          if (this.match(/section/y) === null) {
            this.error(`missing 'section' keyword in {.repeated section}: '${this.remainder()}'`);
            return false;
          }
          if (!this.requireWhitespace(".repeated section")) return false;
        }
        const v = this.match(VARIABLE);
        if (v === null) {
          this.error(
            `variable expected in {.${kw === "repeated" ? "repeated section" : kw}}: '${this.remainder()}'`,
          );
          return false;
        }
        if (!this.endOfTag(`{.${kw} ${v}}`)) return false;
        const path = splitPath(v);
        if (kw === "section") return this.open({ type: "section", path, body: [], alt: null, loc });
        return this.open({ type: "repeated", path, body: [], alternatesWith: null, alt: null, loc });
      }

      case "var": {
        const name = this.argument(".var", DEFINITION, "{.var} expects a variable name like @name");
        if (name === null) return false;
        if (!this.requireWhitespace(`.var ${name}`)) return false;
        const vars = this.variables();
        if (vars === null) {
          this.error(`{.var ${name}} expects a variable reference, found '${this.remainder()}'`);
          return false;
        }
        const formatters = this.formatterChain();
        if (formatters === null) return false;
        this.add({ type: "bindvar", name, vars, formatters, loc });
        return true;
      }

      case "ctx": {
        const name = this.argument(".ctx", DEFINITION, "{.ctx} expects a variable name like @name");
        if (name === null) return false;
        if (!this.requireWhitespace(`.ctx ${name}`)) return false;
        const bindings: { key: string; path: Path }[] = [];
        while (!this.finished()) {
          const key = this.match(WORD);
          if (key === null || this.src[this.pos] !== "=") break;
          this.pos++;
          const ref = this.match(VARIABLE);
          if (ref === null) break;
          bindings.push({ key, path: splitPath(ref) });
          this.whitespace();
        }
        if (!this.finished() || bindings.length === 0) {
          this.error(`{.ctx ${name}} expects bindings like key=path, found '${this.remainder()}'`);
          return false;
        }
        this.add({ type: "ctxvar", name, bindings, loc });
        return true;
      }

      case "eval": {
        if (!this.requireWhitespace(".eval")) return false;
        const code = this.rawArgs();
        const expr = parseExpr(code);
        for (const e of expr.errors) this.error(`error in expression '${code}': ${e}`);
        this.add({ type: "eval", code, expr, loc });
        return true;
      }

      case "if":
        return this.ifInstruction();

      case "break": {
        if (this.finished()) {
          this.add({ type: "break", label: null, loc });
          return true;
        }
        if (!this.requireWhitespace(".break")) return false;
        const label = this.match(WORD);
        if (label === null || !this.finished()) {
          this.error(`{.break} expects an optional label name, found '${this.remainder()}'`);
          return false;
        }
        this.add({ type: "break", label, loc });
        return true;
      }

      case "label": {
        if (!this.requireWhitespace(".label")) return false;
        const name = this.match(WORD);
        if (name === null || !this.finished()) {
          this.error(`{.label} expects a name, found '${this.remainder()}'`);
          return false;
        }
        this.add({ type: "label", name, loc });
        return true;
      }

      case "include": {
        const name = this.argument(".include", FILE_PATH, "{.include} expects a name");
        if (name === null) return false;
        const { args, delim } = splitArgs(this.rawArgs());
        this.add({ type: "include", name, args, delim, loc });
        return true;
      }

      case "inject": {
        const name = this.argument(".inject", DEFINITION, "{.inject} expects a variable name like @name");
        if (name === null) return false;
        const path = this.argument(`.inject ${name}`, FILE_PATH, `{.inject ${name}} expects a path`);
        if (path === null) return false;
        const { args, delim } = splitArgs(this.rawArgs());
        this.add({ type: "inject", name, path, args, delim, loc });
        return true;
      }

      case "macro": {
        const name = this.argument(".macro", FILE_PATH, "{.macro} expects a name");
        if (name === null || !this.endOfTag(`{.macro ${name}}`)) return false;
        return this.open({ type: "macro", name, body: [], loc });
      }
    }
    return false;
  }

  private ifInstruction(): boolean {
    const loc = this.tagLoc;
    if (!this.requireWhitespace(".if")) return false;
    const start = this.pos;
    const pred = this.match(PREDICATE);
    if (pred !== null) {
      this.checkPredicate(pred);
      const { args, delim } = splitArgs(this.rawArgs());
      return this.open({ type: "if-predicate", predicate: pred, args, delim, body: [], alt: null, loc });
    }
    // A chain of variables joined by && and ||.
    const vars: Path[] = [];
    const ops: ("&&" | "||")[] = [];
    for (;;) {
      const v = this.match(VARIABLE);
      if (v === null) break;
      vars.push(splitPath(v));
      this.whitespace();
      const op = this.match(/&&|\|\|/y);
      if (op === null) break;
      ops.push(op as "&&");
      this.whitespace();
    }
    if (this.finished() && vars.length > 0 && vars.length === ops.length + 1) {
      if (vars.length > IF_VARIABLE_LIMIT) {
        this.error(`{.if} has too many variables (limit ${IF_VARIABLE_LIMIT})`);
        return false;
      }
      return this.open({ type: "if", vars, ops, body: [], alt: null, loc });
    }
    // Otherwise a general expression.
    this.pos = start;
    const code = this.rawArgs();
    if (code.trim() === "") {
      this.error("{.if} expects a condition");
      return false;
    }
    const expr = parseExpr(code);
    if (expr.errors.length > 0 || expr.statements.length === 0) {
      for (const e of expr.errors) this.error(`error in {.if} expression '${code}': ${e}`);
      if (expr.errors.length === 0) this.error(`{.if} expects a condition, found '${code}'`);
      return false;
    }
    return this.open({ type: "if-expr", code, expr, body: [], alt: null, loc });
  }

  /** One or more variable references separated by commas; null when none. */
  private variables(): Path[] | null {
    const first = this.match(VARIABLE);
    if (first === null) return null;
    const vars: Path[] = [splitPath(first)];
    for (;;) {
      const save = this.pos;
      if (this.match(VAR_SEPARATOR) === null) break;
      const v = this.match(VARIABLE);
      if (v === null) {
        this.pos = save;
        return null;
      }
      vars.push(splitPath(v));
    }
    return vars;
  }

  /**
   * `|name args|name2 ...` up to the end of the tag. Returns [] when there is none, null when
   * the rest of the tag is not a formatter chain (the tag is then plain text).
   */
  private formatterChain(): FormatterCall[] | null {
    const calls: FormatterCall[] = [];
    if (this.finished()) return calls;
    if (this.src[this.pos] !== "|" || this.src[this.pos + 1] === "|") return null;
    while (this.pos < this.end && this.src[this.pos] === "|") {
      this.pos++;
      const at = this.pos;
      const name = this.match(WORD);
      if (name === null) return null;
      let raw = "";
      const stop = this.src.indexOf("|", this.pos);
      const argEnd = stop === -1 || stop > this.end ? this.end : stop;
      if (argEnd > this.pos) {
        raw = this.src.slice(this.pos, argEnd);
        this.pos = argEnd;
      }
      const { args, delim } = splitArgs(raw);
      calls.push({ name, args, delim, loc: this.loc(at) });
    }
    if (!this.finished()) return null;
    for (const c of calls) {
      if (this.formatters && !Object.hasOwn(this.formatters, c.name)) {
        this.error(`unknown formatter '${c.name}'`, c.loc);
      }
    }
    return calls;
  }

  private variableInstruction(): boolean {
    const vars = this.variables();
    if (vars === null) return false;
    const formatters = this.formatterChain();
    if (formatters === null) return false;
    this.add({ type: "variable", vars, formatters, loc: this.tagLoc });
    return true;
  }
}
