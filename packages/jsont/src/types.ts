/**
 * The contract between the JSON-T core (parser, compiler, render context) and the
 * formatter and predicate plugins. Plugins never see the template tree: they get their
 * arguments, the variables they format, and the render context.
 */

/**
 * A value a formatter reads and replaces. `undefined` means "missing" (no such node).
 * Values are JSON values; a number may also be a `JsonNumber` (src/util/values.ts): an
 * integral number written with a fraction in the JSON text (`1.0`), which prints as written.
 * Read numbers with `isNumber`/`numberValue`/`asNumber` from src/util/values.ts.
 */
export interface Variable {
  value: unknown;
}

export interface RenderContext {
  /** BCP 47 locale of this render, from `:PARAMS` `locale` or the caller; default "en-US". */
  readonly locale: string;
  /** The clock for this render in epoch milliseconds (`:PARAMS` `now`, or the caller's clock). */
  readonly now: number;
  /**
   * Compatibility level of this render (optional, default 0): patches whose threshold is
   * above it keep their legacy behaviour. See src/util/compat.ts (`legacy(ctx, "MOD_ZERO")`).
   */
  readonly compatLevel?: number;
  /** The current node (`@`). */
  node(): unknown;
  /**
   * Resolves a dotted path (or already-split names) by the template lookup rules:
   * `@` is the current node, `@name` a variable, `@index`/`@index0` the repeat index,
   * and a plain first name is searched from the current frame up to the root.
   * Missing values resolve to `undefined`.
   */
  resolve(path: string | readonly string[]): unknown;
  /** The root of the JSON context. */
  root(): unknown;
  /** Records a render error (rendering goes on). */
  error(message: string): void;
  /**
   * Renders the named partial or macro with `node` as its current node; `undefined` when
   * no such partial exists (an error is recorded by the core).
   */
  renderPartial(name: string, node: unknown): string | undefined;
}

/**
 * A formatter: `{value|name arg1 arg2}`. `args` are the formatter's arguments split on the
 * delimiter the template used. `vars[0]` is the value being formatted; a formatter replaces
 * it by assigning `vars[0].value`. Templates can bind several variables (`{a,b|name}`).
 */
export type Formatter = (args: string[], vars: Variable[], ctx: RenderContext) => void;

/** A predicate: `{.name? arg1 arg2}` tests the current node (`ctx.node()`) or its arguments. */
export type Predicate = (args: string[], ctx: RenderContext) => boolean;

export type FormatterTable = Record<string, Formatter>;
export type PredicateTable = Record<string, Predicate>;
