/**
 * Expressions for `{.eval ...}` and `{.if ...}`: JavaScript-like operators with JavaScript
 * precedence, numbers (decimal, hex, exponent), strings with escapes, booleans, null,
 * constants, variables (`a.b`, `@var`), assignment to `@var`, semicolon-separated
 * statements and a few functions. Parsed once into postfix programs (shunting-yard);
 * evaluated at render time against the context.
 *
 *   expr/lexer.ts     tokens           expr/parse.ts      postfix programs
 *   expr/evaluate.ts  evaluation       expr/values.ts     number/boolean/string conversions
 */
export type { ExprProgram } from "./expr/ops.js";
export { evalExpr } from "./expr/evaluate.js";
export { parseExpr } from "./expr/parse.js";
export { splitPath } from "./expr/split-path.js";
