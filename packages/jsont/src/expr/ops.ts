/** The expression language's operators and the tokens programs are made of. */
import type { Path } from "../path.js";

export type Literal = number | string | boolean | null;

export interface OpDef {
  id: Op;
  prec: number;
  right: boolean;
  desc: string;
}

export enum Op {
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

export const OPS = {
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

export type Token =
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

export const lit = (v: Literal): Token => ({ t: "lit", v });
export const ARGS: Token = { t: "args" };

export function isOp(t: Token | undefined, id: Op): boolean {
  return t !== undefined && t.t === "op" && t.op.id === id;
}
