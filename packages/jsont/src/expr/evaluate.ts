/** Postfix expression programs evaluated at render time against the context. */
import { JsonNumber } from "../util/values.js";
import { FUNCTIONS } from "./functions.js";
import { type ExprProgram, type Literal, Op, type Token, lit } from "./ops.js";
import type { ExprHost } from "./host.js";
import { exprBool, exprNumber, exprString } from "./values.js";

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

/** The unary operators, applied to the value on top of the stack. */
const UNARY: Partial<Record<Op, (a: Literal) => Literal>> = {
  [Op.MINUS]: (a) => -1 * exprNumber(a),
  [Op.PLUS]: (a) => exprNumber(a),
  [Op.LNOT]: (a) => !exprBool(a),
  [Op.BNOT]: (a) => ~exprNumber(a),
};

/** The binary operators, JavaScript's meaning after converting the operands as the engine does. */
const BINARY: Partial<Record<Op, (a: Literal, b: Literal) => Literal>> = {
  [Op.MUL]: (a, b) => exprNumber(a) * exprNumber(b),
  [Op.DIV]: (a, b) => exprNumber(a) / exprNumber(b),
  [Op.ADD]: (a, b) =>
    typeof a === "string" || typeof b === "string"
      ? exprString(a) + exprString(b)
      : exprNumber(a) + exprNumber(b),
  [Op.SUB]: (a, b) => exprNumber(a) - exprNumber(b),
  [Op.POW]: (a, b) => exprNumber(a) ** exprNumber(b),
  [Op.MOD]: (a, b) => exprNumber(a) % exprNumber(b),
  [Op.SHL]: (a, b) => exprNumber(a) << exprNumber(b),
  [Op.SHR]: (a, b) => exprNumber(a) >> exprNumber(b),
  [Op.LT]: (a, b) => (a as number) < (b as number),
  [Op.LTEQ]: (a, b) => (a as number) <= (b as number),
  [Op.GT]: (a, b) => (a as number) > (b as number),
  [Op.GTEQ]: (a, b) => (a as number) >= (b as number),
  // biome-ignore lint/suspicious/noDoubleEquals: loose equality is the operator's meaning
  [Op.EQ]: (a, b) => a == b,
  // biome-ignore lint/suspicious/noDoubleEquals: loose inequality is the operator's meaning
  [Op.NEQ]: (a, b) => a != b,
  [Op.SEQ]: (a, b) => a === b,
  [Op.SNEQ]: (a, b) => a !== b,
  [Op.BAND]: (a, b) => exprNumber(a) & exprNumber(b),
  [Op.BXOR]: (a, b) => exprNumber(a) ^ exprNumber(b),
  [Op.BOR]: (a, b) => exprNumber(a) | exprNumber(b),
  [Op.LAND]: (a, b) => exprBool(a) && exprBool(b),
  [Op.LOR]: (a, b) => exprBool(a) || exprBool(b),
};

/**
 * Evaluates a program: runs each statement, returns the value of the last one
 * (`undefined` when it produced none, e.g. an assignment).
 */
export function evalExpr(prog: ExprProgram, host: ExprHost, code: string): Literal | undefined {
  let result: Literal | undefined;
  for (const st of prog.statements) result = evalStatement(st, host, code);
  return result;
}

/** Calls a function with the arguments on the stack down to its ARGS mark; false after an error. */
function call(name: string, stack: Slot[], host: ExprHost, code: string): boolean {
  const args: Literal[] = [];
  for (;;) {
    const top = stack[stack.length - 1];
    if (top === undefined || (top !== NOVALUE && top.t === "args")) break;
    const a = literalOf(host, stack.pop());
    if (a) args.push(a.v);
  }
  stack.pop();
  args.reverse();
  const r = FUNCTIONS[name](args);
  if (r === undefined) {
    host.error(`eval "${code}": Error calling function ${name}`);
    return false;
  }
  stack.push(lit(r));
  return true;
}

/** Assigns the value on top of the stack to the `@var` under it (anything else is ignored). */
function assign(stack: Slot[], host: ExprHost): void {
  const b = literalOf(host, stack.pop());
  const a = stack.pop();
  if (a !== undefined && a !== NOVALUE && a.t === "var" && b !== undefined) {
    const name = a.path[0];
    if (a.path.length === 1 && typeof name === "string" && name[0] === "@") host.setVar(name, b.v);
  }
  stack.length = 0;
  stack.push(NOVALUE);
}

function evalStatement(expr: Token[], host: ExprHost, code: string): Literal | undefined {
  const stack: Slot[] = [];
  for (const t of expr) {
    if (t.t !== "op") {
      if (t.t !== "call") stack.push(t);
      else if (!call(t.name, stack, host, code)) break;
      continue;
    }
    const id = t.op.id;
    const unary = UNARY[id];
    if (unary) {
      const a = literalOf(host, stack[stack.length - 1]);
      if (stack.length) stack[stack.length - 1] = a ? lit(unary(a.v)) : NOVALUE;
      continue;
    }
    if (id === Op.ASN) {
      assign(stack, host);
      break;
    }
    const bs = literalOf(host, stack.pop());
    const as = literalOf(host, stack.pop());
    if (as === undefined || bs === undefined) {
      host.error(`eval "${code}": Invalid arguments to operator ${t.op.desc}`);
      stack.length = 0;
      break;
    }
    const binary = BINARY[id];
    if (!binary) {
      host.error(`eval "${code}": Unexpected operator found during evaluation: ${t.op.desc}`);
      stack.length = 0;
      break;
    }
    stack.push(lit(binary(as.v, bs.v)));
  }
  const top = stack[stack.length - 1];
  if (top === undefined || top === NOVALUE) return undefined;
  const v = literalOf(host, top);
  if (v) return v.v;
  host.error(`eval "${code}": Reduce error: unexpected token on stack`);
  return undefined;
}
