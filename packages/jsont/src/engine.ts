/**
 * The engine: formatter and predicate tables, the compiled-template cache (LRU, 100
 * templates keyed by source, SPEC §9) and the compile/render entry points.
 */
import type { TemplateAst, TemplateError } from "./ast.js";
import { compileAst } from "./compiler.js";
import { type Code, Ctx } from "./context.js";
import { builtinFormatters } from "./formatters/index.js";
import { parseTemplate } from "./parser.js";
import { builtinPredicates } from "./predicates/index.js";
import type { FormatterTable, PredicateTable } from "./types.js";

/** Template cache capacity (SPEC §9). */
export const CACHE_CAPACITY = 100;

export interface RenderOptions {
  /** BCP 47 locale, default "en-US". */
  locale?: string;
  /** The clock in epoch milliseconds, default `Date.now()`. */
  now?: number;
  /** Partial templates by name (source text), applied with `{x|apply name}` or `{.include name}`. */
  partials?: Record<string, unknown>;
  /** Injectable JSON documents by path (JSON text or values), bound by `{.inject @var path}`. */
  injects?: Record<string, unknown>;
  /** Compatibility level (default 0: legacy behaviours); see src/util/compat.ts. */
  compatLevel?: number;
  /** Partial nesting limit (default 16, SPEC §9). */
  maxPartialDepth?: number;
}

export interface RenderResult {
  output: string;
  /** Syntax errors of the template followed by the errors recorded while rendering. */
  errors: TemplateError[];
}

export interface CompiledTemplate {
  readonly source: string;
  readonly ast: TemplateAst;
  /** Syntax errors (the template still renders). */
  readonly errors: readonly TemplateError[];
  render(json: unknown, options?: RenderOptions): RenderResult;
}

/** A small LRU map. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    if (this.map.has(key)) this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K;
      this.map.delete(oldest);
    }
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

class Template implements CompiledTemplate {
  constructor(
    readonly source: string,
    readonly ast: TemplateAst,
    readonly errors: readonly TemplateError[],
    readonly code: Code,
    private readonly engine: Engine,
  ) {}

  render(json: unknown, options: RenderOptions = {}): RenderResult {
    const ctx = new Ctx(json, options, this.engine);
    try {
      this.code(ctx);
    } catch (e) {
      ctx.error(`unexpected error: ${e instanceof Error ? e.message : String(e)}`);
    }
    return { output: ctx.buf, errors: this.errors.length ? [...this.errors, ...ctx.errors] : ctx.errors };
  }
}

export interface EngineOptions {
  /** Formatters added to (or replacing) the built-in ones. */
  formatters?: FormatterTable;
  /** Predicates added to (or replacing) the built-in ones, keyed with the trailing `?`. */
  predicates?: PredicateTable;
  /** Compiled-template cache capacity (default 100). */
  cacheCapacity?: number;
  /**
   * Compile templates to generated JavaScript functions where the platform allows it
   * (default true; see src/codegen.ts); false compiles to closures only.
   */
  codegen?: boolean;
}

export class Engine {
  readonly formatters: FormatterTable;
  readonly predicates: PredicateTable;
  private readonly cache: Lru<string, Template>;
  private readonly codegen: boolean;

  constructor(options: EngineOptions = {}) {
    this.formatters = { ...builtinFormatters, ...options.formatters };
    this.predicates = { ...builtinPredicates, ...options.predicates };
    this.cache = new Lru(options.cacheCapacity ?? CACHE_CAPACITY);
    this.codegen = options.codegen !== false;
  }

  /** Adds formatters (e.g. the server's own); clears the compiled-template cache. */
  registerFormatters(table: FormatterTable): void {
    Object.assign(this.formatters, table);
    this.cache.clear();
  }

  /** Adds predicates (keyed with the trailing `?`); clears the compiled-template cache. */
  registerPredicates(table: PredicateTable): void {
    Object.assign(this.predicates, table);
    this.cache.clear();
  }

  /** Parses a template without compiling it. */
  parse(source: string): { ast: TemplateAst; errors: TemplateError[] } {
    return parseTemplate(source, { formatters: this.formatters, predicates: this.predicates });
  }

  /** Compiles a template (once: compiled templates are cached by source). */
  compile(source: string): CompiledTemplate {
    return this.compileTemplate(String(source));
  }

  private compileTemplate(source: string): Template {
    const cached = this.cache.get(source);
    if (cached !== undefined) return cached;
    const { ast, errors } = this.parse(source);
    const code = compileAst(ast, {
      formatters: this.formatters,
      predicates: this.predicates,
      codegen: this.codegen,
    });
    const t = new Template(source, ast, errors, code, this);
    this.cache.set(source, t);
    return t;
  }

  /** Used by the render context to compile partials (through the same cache). */
  compilePartial(source: string): { code: Code; errors: TemplateError[] } {
    const t = this.compileTemplate(source);
    return { code: t.code, errors: t.errors as TemplateError[] };
  }

  /** Compiles (cached) and renders. */
  render(source: string, json: unknown, options?: RenderOptions): RenderResult {
    return this.compile(source).render(json, options);
  }

  /** Number of templates in the compiled-template cache. */
  get cacheSize(): number {
    return this.cache.size;
  }
}
