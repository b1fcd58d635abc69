/**
 * Expressions for `{.eval ...}` and `{.if ...}`: JavaScript-like operators with JavaScript
 * precedence, numbers (decimal, hex, exponent), strings with escapes, booleans, null,
 * constants, variables (`a.b`, `@var`), assignment to `@var`, semicolon-separated
 * statements and a few functions. Parsed once into postfix programs (shunting-yard);
 * evaluated at render time against the context.
 */
import type { Path } from "./path.js";
import { JsonNumber } from "./util/values.js";

/** What expression evaluation needs from the render context. */
export interface ExprHost {
  resolvePath(path: Path): unknown;
  setVar(name: string, value: unknown): void;
  error(message: string): void;
}

type Literal = number | string | boolean | null;

interface OpDef {
  id: Op;
  prec: number;
  right: boolean;
  desc: string;
}

enum Op {
  PLUS,
  MINUS,
  LNOT,
  BNOT,
  POW,
  MUL,
  DIV,
  MOD,
  ADD,
  SUB,
  SHL,
  SHR,
  LT,
  GT,
  LTEQ,
  GTEQ,
  EQ,
  NEQ,
  SEQ,
  SNEQ,
  BAND,
  BXOR,
  BOR,
  LAND,
  LOR,
  ASN,
  SEMI,
  COMMA,
  LPRN,
  RPRN,
}

const op = (id: Op, prec: number, right: boolean, desc: string): OpDef => ({ id, prec, right, desc });

const OPS = {
  PLUS: op(Op.PLUS, 17, true, "unary plus"),
  MINUS: op(Op.MINUS, 17, true, "unary minus"),
  LNOT: op(Op.LNOT, 17, true, "logical not"),
  BNOT: op(Op.BNOT, 17, true, "bitwise not"),
  POW: op(Op.POW, 16, true, "exponent"),
  MUL: op(Op.MUL, 15, false, "multiply"),
  DIV: op(Op.DIV, 15, false, "divide"),
  MOD: op(Op.MOD, 15, false, "modulus"),
  ADD: op(Op.ADD, 14, false, "add"),
  SUB: op(Op.SUB, 14, false, "subtract"),
  SHL: op(Op.SHL, 13, false, "left shift"),
  SHR: op(Op.SHR, 13, false, "right shift"),
  LT: op(Op.LT, 12, false, "less than"),
  GT: op(Op.GT, 12, false, "greater than"),
  LTEQ: op(Op.LTEQ, 12, false, "less than or equal"),
  GTEQ: op(Op.GTEQ, 12, false, "greater than or equal"),
  EQ: op(Op.EQ, 11, false, "equality"),
  NEQ: op(Op.NEQ, 11, false, "inequality"),
  SEQ: op(Op.SEQ, 11, false, "strict equality"),
  SNEQ: op(Op.SNEQ, 11, false, "strict inequality"),
  BAND: op(Op.BAND, 10, false, "bitwise and"),
  BXOR: op(Op.BXOR, 9, false, "bitwise xor"),
  BOR: op(Op.BOR, 8, false, "bitwise or"),
  LAND: op(Op.LAND, 7, false, "logical and"),
  LOR: op(Op.LOR, 6, false, "logical or"),
  ASN: op(Op.ASN, 3, true, "assign"),
  SEMI: op(Op.SEMI, 1, false, "semicolon"),
  COMMA: op(Op.COMMA, 1, true, "comma"),
  LPRN: op(Op.LPRN, 1, false, "left paren"),
  RPRN: op(Op.RPRN, 1, false, "right paren"),
};

type Token =
  | { t: "lit"; v: Literal }
  | { t: "var"; path: Path }
  | { t: "op"; op: OpDef }
  | { t: "call"; name: string }
  | { t: "args" };

/** A parsed expression: one postfix token list per `;`-separated statement. */
export interface ExprProgram {
  statements: Token[][];
  /** Syntax errors; a program with errors evaluates to nothing. */
  errors: string[];
}

const lit = (v: Literal): Token => ({ t: "lit", v });
const ARGS: Token = { t: "args" };

const CONSTANTS: Record<string, Literal> = {
  null: null,
  true: true,
  false: false,
  PI: Math.PI,
  E: Math.E,
  Infinity: Number.POSITIVE_INFINITY,
  NaN: Number.NaN,
};

const isHex = (c: string): boolean =>
  (c >= "0" && c <= "9") || (c >= "a" && c <= "f") || (c >= "A" && c <= "F");

function scanHex(s: string, i: number, end: number): number {
  while (i < end && isHex(s[i])) i++;
  return i;
}

/** Scans a decimal number from i; returns its end, or a negative error code. */
function scanDecimal(s: string, i: number, len: number): number {
  let dot = false;
  let exp = false;
  let expDigit = false;
  let expSign = false;
  let j = i;
  loop: while (j < len) {
    const c = s[j];
    switch (c) {
      case ".":
        if (dot) return -3;
        if (exp) return -4;
        dot = true;
        break;
      case "e":
      case "E":
        if (exp) break loop;
        exp = true;
        expDigit = true;
        break;
      case "-":
      case "+":
        if (!expDigit || !exp || expSign) break loop;
        expSign = true;
        break;
      default:
        if (c >= "0" && c <= "9") {
          expDigit = false;
          break;
        }
        break loop;
    }
    j++;
  }
  if (expDigit) return -2;
  return j;
}

/** Converts a literal to a number the way the expression engine does. */
export function exprNumber(v: Literal): number {
  switch (typeof v) {
    case "number":
      return v;
    case "boolean":
      return v ? 1 : 0;
    case "string": {
      if (!v) return 0;
      const len = v.length;
      let i = 0;
      if (v[0] === "-" || v[0] === "+") i++;
      if (i === len) return Number.NaN;
      const c = v[i];
      if (c === "0" && (v[i + 1] === "x" || v[i + 1] === "X")) {
        const j = scanHex(v, i + 2, len);
        if (j !== len || j === i + 2) return Number.NaN;
        const n = Number.parseInt(v.slice(i + 2), 16);
        return v[0] === "-" ? -n : n;
      }
      if (c < "0" || c > "9") return Number.NaN;
      const j = scanDecimal(v, i, len);
      return j === len ? Number.parseFloat(v) : Number.NaN;
    }
    default:
      return 0;
  }
}

function exprBool(v: Literal): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "number":
    case "string":
      return !!v;
    default:
      return false;
  }
}

function exprString(v: Literal): string {
  switch (typeof v) {
    case "boolean":
      return v ? "true" : "false";
    case "number":
      return String(v);
    case "string":
      return v;
    default:
      return "null";
  }
}

const VAR_RE = /(?:\d+|(?:[@$])?[a-zA-Z][a-zA-Z0-9_-]*|@)(?:\.(?:\d+|(?:[@$])?[a-zA-Z][a-zA-Z0-9_-]*|@))*/y;

const FUNCTIONS: Record<string, (args: Literal[]) => Literal | undefined> = {
  max: (a) => {
    if (a.length === 0) return undefined;
    let r = exprNumber(a[0]);
    for (let i = 1; i < a.length; i++) {
      const b = exprNumber(a[i]);
      r = Math.max(r, b);
    }
    return r;
  },
  min: (a) => {
    if (a.length === 0) return undefined;
    let r = exprNumber(a[0]);
    for (let i = 1; i < a.length; i++) {
      const b = exprNumber(a[i]);
      r = Math.min(r, b);
    }
    return r;
  },
  abs: (a) => (a.length ? Math.abs(exprNumber(a[0])) : undefined),
  num: (a) => (a.length ? exprNumber(a[0]) : undefined),
  str: (a) => (a.length ? exprString(a[0]) : undefined),
  bool: (a) => (a.length ? exprBool(a[0]) : undefined),
};

const PATH_CACHE = new Map<string, readonly (string | number)[]>();
const PATH_CACHE_LIMIT = 2000;

/**
 * Splits a dotted reference, converting all-digit segments to numbers. Results are cached
 * and shared: treat them as read-only.
 */
export function splitPath(raw: string): readonly (string | number)[] {
  let p = PATH_CACHE.get(raw);
  if (p === undefined) {
    p = Object.freeze(splitPathUncached(raw));
    if (PATH_CACHE.size >= PATH_CACHE_LIMIT) PATH_CACHE.clear();
    PATH_CACHE.set(raw, p);
  }
  return p;
}

function splitPathUncached(raw: string): (string | number)[] {
  const parts: (string | number)[] = raw.split(".");
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (/^\d+$/.test(p)) {
      const n = Number.parseInt(p, 10);
      if (n <= 0x7fffffff) parts[i] = n;
    }
  }
  return parts;
}

/** Parses an expression. Never throws; problems are listed in `errors`. */
export function parseExpr(src: string, maxTokens = 0): ExprProgram {
  const errors: string[] = [];
  const tokens: Token[] = [];

  const push = (tk: Token): void => {
    if (errors.length) return;
    if (tk.t === "op") {
      const id = tk.op.id;
      if (id === Op.SUB || id === Op.ADD) {
        const top = tokens[tokens.length - 1];
        if (!top || (top.t === "op" && top.op.id !== Op.RPRN)) {
          tk = { t: "op", op: id === Op.SUB ? OPS.MINUS : OPS.PLUS };
        }
      } else if (id === Op.LPRN) {
        const top = tokens[tokens.length - 1];
        if (top && top.t === "var" && top.path.length === 1) {
          const name = String(top.path[0]);
          if (FUNCTIONS[name]) {
            tokens[tokens.length - 1] = { t: "call", name };
          } else {
            errors.push(`Invalid function ${name}`);
            return;
          }
        }
      }
    }
    tokens.push(tk);
    if (maxTokens > 0 && tokens.length > maxTokens) {
      errors.push(`Expression exceeds the maximum number of allowed tokens: ${maxTokens}`);
    }
  };
  const pushOp = (o: OpDef): void => push({ t: "op", op: o });

  const len = src.length;
  let i = 0;
  while (i < len && !errors.length) {
    const c0 = src[i];
    const c1 = i + 1 < len ? src[i + 1] : "";
    if (c0 >= "0" && c0 <= "9") {
      if (c0 === "0" && (c1 === "x" || c1 === "X")) {
        const j = scanHex(src, i + 2, len);
        if (j === i + 2) {
          errors.push("Expected digits after start of hex number");
          break;
        }
        push(lit(Number.parseInt(src.slice(i + 2, j), 16)));
        i = j;
      } else {
        const j = scanDecimal(src, i, len);
        if (j < 0) {
          errors.push(
            j === -2
              ? "Expected a digit after exponent in decimal number"
              : j === -3
                ? "Duplicate decimal point in number"
                : "Unexpected decimal point in exponent",
          );
          break;
        }
        push(lit(Number.parseFloat(src.slice(i, j))));
        i = j;
      }
      continue;
    }
    switch (c0) {
      case '"':
      case "'": {
        const j = scanString(src, i + 1, len, c0, push, errors);
        if (j < 0) {
          i = len;
          continue;
        }
        i = j;
        continue;
      }
      case "*":
        if (c1 === "*") {
          i++;
          pushOp(OPS.POW);
        } else pushOp(OPS.MUL);
        break;
      case "/":
        pushOp(OPS.DIV);
        break;
      case "%":
        pushOp(OPS.MOD);
        break;
      case "+":
        pushOp(OPS.ADD);
        break;
      case "-":
        pushOp(OPS.SUB);
        break;
      case "=":
        if (c1 === "=") {
          i++;
          if (src[i + 1] === "=") {
            i++;
            pushOp(OPS.SEQ);
          } else pushOp(OPS.EQ);
        } else pushOp(OPS.ASN);
        break;
      case "!":
        if (c1 === "=") {
          i++;
          if (src[i + 1] === "=") {
            i++;
            pushOp(OPS.SNEQ);
          } else pushOp(OPS.NEQ);
        } else pushOp(OPS.LNOT);
        break;
      case "<":
        if (c1 === "<") {
          i++;
          pushOp(OPS.SHL);
        } else if (c1 === "=") {
          i++;
          pushOp(OPS.LTEQ);
        } else pushOp(OPS.LT);
        break;
      case ">":
        if (c1 === ">") {
          i++;
          pushOp(OPS.SHR);
        } else if (c1 === "=") {
          i++;
          pushOp(OPS.GTEQ);
        } else pushOp(OPS.GT);
        break;
      case "~":
        pushOp(OPS.BNOT);
        break;
      case "&":
        if (c1 === "&") {
          i++;
          pushOp(OPS.LAND);
        } else pushOp(OPS.BAND);
        break;
      case "|":
        if (c1 === "|") {
          i++;
          pushOp(OPS.LOR);
        } else pushOp(OPS.BOR);
        break;
      case "^":
        pushOp(OPS.BXOR);
        break;
      case " ":
      case "\n":
      case "\t":
      case "\r":
      case "\u00a0":
        break;
      case ",":
        pushOp(OPS.COMMA);
        break;
      case ";":
        pushOp(OPS.SEMI);
        break;
      case "(":
        pushOp(OPS.LPRN);
        break;
      case ")":
        pushOp(OPS.RPRN);
        break;
      default: {
        VAR_RE.lastIndex = i;
        const m = VAR_RE.exec(src);
        if (m) {
          i += m[0].length;
          const path = splitPath(m[0]);
          if (path.length === 1 && typeof path[0] === "string" && Object.hasOwn(CONSTANTS, path[0])) {
            push(lit(CONSTANTS[path[0]]));
          } else {
            push({ t: "var", path });
          }
          continue;
        }
        errors.push(`Unexpected ${charName(c0)} at ${i}: ${JSON.stringify(c0)}`);
        i = len;
        continue;
      }
    }
    i++;
  }

  const statements: Token[][] = [];
  if (!errors.length) build(tokens, statements, errors);
  return { statements: errors.length ? [] : statements, errors };
}

function charName(c: string): string {
  switch (c) {
    case "\b":
      return "backspace";
    case "\f":
      return "form feed";
    case "\n":
      return "line feed";
    case "\r":
      return "carriage return";
    case "\t":
      return "tab";
    default:
      return c <= "\u001f" ? "control character" : "character";
  }
}

function scanString(
  s: string,
  i: number,
  len: number,
  quote: string,
  push: (t: Token) => void,
  errors: string[],
): number {
  let out = "";
  while (i < len) {
    const c = s[i];
    if (c === "\\" && i + 1 < len) {
      const e = s[i + 1];
      switch (e) {
        case "n":
          out += "\n";
          break;
        case "t":
          out += "\t";
          break;
        case "f":
          out += "\f";
          break;
        case "r":
          out += "\r";
          break;
        case "x": {
          const start = i + 2;
          const lim = start + 2;
          if (lim >= len || scanHex(s, start, lim) !== lim) {
            errors.push("Invalid 2-char hex escape found");
            return -1;
          }
          const code = Number.parseInt(s.slice(start, lim), 16);
          out += code <= 0x08 || (code >= 0x0e && code < 0x20) ? " " : String.fromCharCode(code);
          i = lim;
          continue;
        }
        case "u":
        case "U": {
          const start = i + 2;
          const lim = start + (e === "u" ? 4 : 8);
          const k = scanHex(s, start, Math.min(lim, len));
          if (k !== lim) {
            errors.push("Invalid unicode escape found");
            return -1;
          }
          const code = Number.parseInt(s.slice(start, k), 16);
          if (code <= 0x08 || (code >= 0x0e && code < 0x20) || code > 0x10ffff) out += " ";
          else out += String.fromCodePoint(code);
          i = k;
          continue;
        }
        default:
          out += e;
          break;
      }
      i += 2;
      continue;
    }
    if (c === quote) {
      push(lit(out));
      return i + 1;
    }
    if (c === "\n" || c === "\r") {
      errors.push(`Illegal bare ${charName(c)} character in string literal`);
      return -1;
    }
    out += c;
    i++;
  }
  errors.push("Unterminated string");
  return -1;
}

function isOp(t: Token | undefined, id: Op): boolean {
  return t !== undefined && t.t === "op" && t.op.id === id;
}

function build(tokens: Token[], statements: Token[][], errors: string[]): void {
  let out: Token[] = [];
  const ops: Token[] = [];

  const flush = (): boolean => {
    while (ops.length) {
      const t = ops.pop()!;
      if (isOp(t, Op.LPRN) || isOp(t, Op.RPRN)) {
        errors.push(`Mismatched operator found: ${(t as { op: OpDef }).op.desc}`);
        return false;
      }
      out.push(t);
    }
    if (out.length) statements.push(out);
    return true;
  };

  for (const t of tokens) {
    if (t.t === "op") {
      switch (t.op.id) {
        case Op.SEMI:
          if (!flush()) return;
          out = [];
          break;
        case Op.LPRN:
          ops.push(t);
          break;
        case Op.COMMA: {
          while (ops.length && !isOp(ops[ops.length - 1], Op.LPRN)) out.push(ops.pop()!);
          break;
        }
        case Op.RPRN: {
          while (ops.length && !isOp(ops[ops.length - 1], Op.LPRN)) out.push(ops.pop()!);
          if (!ops.length) {
            errors.push(`Mismatched operator found: ${t.op.desc}`);
            return;
          }
          ops.pop();
          const top = ops[ops.length - 1];
          if (top && top.t === "call") out.push(ops.pop()!);
          break;
        }
        default: {
          for (;;) {
            const top = ops[ops.length - 1];
            if (!top) break;
            if (top.t === "op") {
              if (top.op.id === Op.LPRN) break;
              if (top.op.prec > t.op.prec || (top.op.prec === t.op.prec && !top.op.right)) {
                out.push(ops.pop()!);
                continue;
              }
              break;
            }
            out.push(ops.pop()!);
          }
          ops.push(t);
          break;
        }
      }
    } else if (t.t === "call") {
      out.push(ARGS);
      ops.push(t);
    } else {
      out.push(t);
    }
  }
  flush();
}

const NOVALUE = Symbol("novalue");
type Slot = Token | typeof NOVALUE;

/** Reads a stack slot as a literal, resolving variables; undefined when it has no literal value. */
function literalOf(host: ExprHost, s: Slot | undefined): { v: Literal } | undefined {
  if (s === undefined || s === NOVALUE) return undefined;
  switch (s.t) {
    case "lit":
      return { v: s.v };
    case "var": {
      const r = host.resolvePath(s.path);
      switch (typeof r) {
        case "boolean":
        case "number":
        case "string":
          return { v: r };
        case "undefined":
          return { v: null };
        case "object":
          if (r === null) return { v: null };
          if (r instanceof JsonNumber) return { v: r.value };
          return undefined;
        default:
          return undefined;
      }
    }
    default:
      return undefined;
  }
}

/**
 * Evaluates a program: runs each statement, returns the value of the last one
 * (`undefined` when it produced none, e.g. an assignment).
 */
export function evalExpr(prog: ExprProgram, host: ExprHost, code: string): Literal | undefined {
  let result: Literal | undefined;
  for (const st of prog.statements) result = evalStatement(st, host, code);
  return result;
}

function evalStatement(expr: Token[], host: ExprHost, code: string): Literal | undefined {
  const stack: Slot[] = [];
  const setTop = (v: Slot): void => {
    if (stack.length) stack[stack.length - 1] = v;
  };
  loop: for (const t of expr) {
    switch (t.t) {
      case "lit":
      case "var":
      case "args":
        stack.push(t);
        continue;
      case "call": {
        const args: Literal[] = [];
        for (;;) {
          const top = stack[stack.length - 1];
          if (top === undefined || (top !== NOVALUE && top.t === "args")) break;
          const a = literalOf(host, stack.pop());
          if (a) args.push(a.v);
        }
        stack.pop();
        args.reverse();
        const r = FUNCTIONS[t.name](args);
        if (r === undefined) {
          host.error(`eval "${code}": Error calling function ${t.name}`);
          break loop;
        }
        stack.push(lit(r));
        continue;
      }
      case "op":
        break;
    }
    const id = t.op.id;
    switch (id) {
      case Op.MINUS: {
        const a = literalOf(host, stack[stack.length - 1]);
        setTop(a ? lit(-1 * exprNumber(a.v)) : NOVALUE);
        continue;
      }
      case Op.PLUS: {
        const a = literalOf(host, stack[stack.length - 1]);
        setTop(a ? lit(exprNumber(a.v)) : NOVALUE);
        continue;
      }
      case Op.LNOT: {
        const a = literalOf(host, stack[stack.length - 1]);
        setTop(a ? lit(!exprBool(a.v)) : NOVALUE);
        continue;
      }
      case Op.BNOT: {
        const a = literalOf(host, stack[stack.length - 1]);
        setTop(a ? lit(~exprNumber(a.v)) : NOVALUE);
        continue;
      }
      case Op.ASN: {
        const b = literalOf(host, stack.pop());
        const a = stack.pop();
        if (a !== undefined && a !== NOVALUE && a.t === "var" && b !== undefined) {
          const name = a.path[0];
          if (a.path.length === 1 && typeof name === "string" && name[0] === "@") host.setVar(name, b.v);
        }
        stack.length = 0;
        stack.push(NOVALUE);
        break loop;
      }
      default:
        break;
    }
    const bs = literalOf(host, stack.pop());
    const as = literalOf(host, stack.pop());
    if (as === undefined || bs === undefined) {
      host.error(`eval "${code}": Invalid arguments to operator ${t.op.desc}`);
      stack.length = 0;
      break;
    }
    const a = as.v;
    const b = bs.v;
    let r: Literal;
    switch (id) {
      case Op.MUL:
        r = exprNumber(a) * exprNumber(b);
        break;
      case Op.DIV:
        r = exprNumber(a) / exprNumber(b);
        break;
      case Op.ADD:
        r =
          typeof a === "string" || typeof b === "string"
            ? exprString(a) + exprString(b)
            : exprNumber(a) + exprNumber(b);
        break;
      case Op.SUB:
        r = exprNumber(a) - exprNumber(b);
        break;
      case Op.POW:
        r = exprNumber(a) ** exprNumber(b);
        break;
      case Op.MOD:
        r = exprNumber(a) % exprNumber(b);
        break;
      case Op.SHL:
        r = exprNumber(a) << exprNumber(b);
        break;
      case Op.SHR:
        r = exprNumber(a) >> exprNumber(b);
        break;
      case Op.LT:
        r = (a as number) < (b as number);
        break;
      case Op.LTEQ:
        r = (a as number) <= (b as number);
        break;
      case Op.GT:
        r = (a as number) > (b as number);
        break;
      case Op.GTEQ:
        r = (a as number) >= (b as number);
        break;
      case Op.EQ:
        // biome-ignore lint/suspicious/noDoubleEquals: loose equality is the operator's meaning
        r = a == b;
        break;
      case Op.NEQ:
        // biome-ignore lint/suspicious/noDoubleEquals: loose inequality is the operator's meaning
        r = a != b;
        break;
      case Op.SEQ:
        r = a === b;
        break;
      case Op.SNEQ:
        r = a !== b;
        break;
      case Op.BAND:
        r = exprNumber(a) & exprNumber(b);
        break;
      case Op.BXOR:
        r = exprNumber(a) ^ exprNumber(b);
        break;
      case Op.BOR:
        r = exprNumber(a) | exprNumber(b);
        break;
      case Op.LAND:
        r = exprBool(a) && exprBool(b);
        break;
      case Op.LOR:
        r = exprBool(a) || exprBool(b);
        break;
      default:
        host.error(`eval "${code}": Unexpected operator found during evaluation: ${t.op.desc}`);
        stack.length = 0;
        break loop;
    }
    stack.push(lit(r));
  }
  const top = stack[stack.length - 1];
  if (top === undefined || top === NOVALUE) return undefined;
  const v = literalOf(host, top);
  if (v) return v.v;
  host.error(`eval "${code}": Reduce error: unexpected token on stack`);
  return undefined;
}
