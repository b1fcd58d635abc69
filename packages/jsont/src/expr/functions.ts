/** The functions expressions may call (`max(a, b)`, `num(x)`…); undefined answers an error. */
import type { Literal } from "./ops.js";
import { exprBool, exprNumber, exprString } from "./values.js";

/** Folds the arguments' numbers with `pick` (Math.max, Math.min); nothing without arguments. */
function reduceNumbers(a: Literal[], pick: (x: number, y: number) => number): number | undefined {
  if (a.length === 0) return undefined;
  let r = exprNumber(a[0]);
  for (let i = 1; i < a.length; i++) r = pick(r, exprNumber(a[i]));
  return r;
}

export const FUNCTIONS: Record<string, (args: Literal[]) => Literal | undefined> = {
  max: (a) => reduceNumbers(a, Math.max),
  min: (a) => reduceNumbers(a, Math.min),
  abs: (a) => (a.length ? Math.abs(exprNumber(a[0])) : undefined),
  num: (a) => (a.length ? exprNumber(a[0]) : undefined),
  str: (a) => (a.length ? exprString(a[0]) : undefined),
  bool: (a) => (a.length ? exprBool(a[0]) : undefined),
};
