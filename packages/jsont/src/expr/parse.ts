/** Expressions parsed into postfix programs (shunting-yard), one per `;`-separated statement. */
import { tokenize } from "./lexer.js";
import { ARGS, type ExprProgram, Op, type OpDef, type Token, isOp } from "./ops.js";

/** Parses an expression. Never throws; problems are listed in `errors`. */
export function parseExpr(src: string, maxTokens = 0): ExprProgram {
  const errors: string[] = [];
  const tokens = tokenize(src, maxTokens, errors);
  const statements: Token[][] = [];
  if (!errors.length) build(tokens, statements, errors);
  return { statements: errors.length ? [] : statements, errors };
}

/** Moves operators from the stack to the output while the one on top binds at least as tightly as `t`. */
function popTighter(t: { op: OpDef }, ops: Token[], out: Token[]): void {
  for (;;) {
    const top = ops[ops.length - 1];
    if (!top) return;
    if (top.t === "op") {
      if (top.op.id === Op.LPRN) return;
      if (top.op.prec > t.op.prec || (top.op.prec === t.op.prec && !top.op.right)) {
        out.push(ops.pop()!);
        continue;
      }
      return;
    }
    out.push(ops.pop()!);
  }
}

/** Moves operators from the stack to the output down to the nearest left parenthesis. */
function popToParen(ops: Token[], out: Token[]): void {
  while (ops.length && !isOp(ops[ops.length - 1], Op.LPRN)) out.push(ops.pop()!);
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
        case Op.COMMA:
          popToParen(ops, out);
          break;
        case Op.RPRN: {
          popToParen(ops, out);
          if (!ops.length) {
            errors.push(`Mismatched operator found: ${t.op.desc}`);
            return;
          }
          ops.pop();
          const top = ops[ops.length - 1];
          if (top && top.t === "call") out.push(ops.pop()!);
          break;
        }
        default:
          popTighter(t, ops, out);
          ops.push(t);
          break;
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
