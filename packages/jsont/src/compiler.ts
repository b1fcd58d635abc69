/**
 * Compiles a syntax tree once into JavaScript: generated source (src/codegen.ts) where the
 * platform allows it, else closures built here (also the code of the instructions the
 * generator leaves to them, and of templates with `{.break}`). Rendering runs that code; no
 * tree is walked at render time.
 */
import {
  type FormatterCall,
  type Loc,
  type OrNode,
  outputSteps,
  type Path,
  type TemplateAst,
  type TemplateNode,
} from "./ast.js";
import { BreakSignal, type Code, Ctx, descend, lookupName, prop } from "./context.js";
import { generateTemplate } from "./codegen.js";
import { evalExpr } from "./expr.js";
import type { Formatter, FormatterTable, Predicate, PredicateTable, Variable } from "./types.js";
import { isTruthy, toDisplayString } from "./util/values.js";

interface CompileTables {
  formatters: FormatterTable;
  predicates: PredicateTable;
  /** Set by compileAst: the template contains `{.break}`, so blocks must catch it. */
  breaks?: boolean;
  /** Generate JavaScript source for the template where possible (default true; see codegen.ts). */
  codegen?: boolean;
}

const NOOP: Code = () => {};

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Compiles a whole template. */
export function compileAst(ast: TemplateAst, tables: CompileTables): Code {
  const breaks = containsBreak(ast.body);
  if (!breaks && tables.codegen !== false) {
    const closureTables = { ...tables, breaks: false };
    const generated = generateTemplate(ast.body, tables, (n) => compileNode(n, closureTables));
    if (generated !== null) return generated;
  }
  const code = compileBlock(ast.body, { ...tables, breaks });
  if (!breaks) return code;
  // A break whose target is the template's own block ends the render.
  return (ctx) => {
    const frame = ctx.frame;
    try {
      code(ctx);
    } catch (e) {
      if (!(e instanceof BreakSignal)) throw e;
      ctx.frame = frame;
    }
  };
}

function containsBreak(nodes: readonly TemplateNode[]): boolean {
  for (const n of nodes) {
    if (n.type === "break") return true;
    if ("body" in n && containsBreak(n.body)) return true;
    if (n.type === "repeated" && n.alternatesWith && containsBreak(n.alternatesWith)) return true;
    if ("alt" in n) {
      for (let a = n.alt; a !== null; a = a.alt) if (containsBreak(a.body)) return true;
    }
  }
  return false;
}

function compileBlock(nodes: readonly TemplateNode[], tables: CompileTables): Code {
  // Adjacent static output is merged into one append.
  const codes = outputSteps(nodes).map((step) =>
    typeof step === "string" ? textCode(step) : compileNode(step, tables),
  );
  switch (codes.length) {
    case 0:
      return NOOP;
    case 1:
      return codes[0];
    case 2: {
      const [a, b] = codes;
      return (ctx) => {
        a(ctx);
        b(ctx);
      };
    }
    case 3: {
      const [a, b, c] = codes;
      return (ctx) => {
        a(ctx);
        b(ctx);
        c(ctx);
      };
    }
    default: {
      const n = codes.length;
      return (ctx) => {
        for (let i = 0; i < n; i++) codes[i](ctx);
      };
    }
  }
}

function textCode(text: string): Code {
  return (ctx) => {
    ctx.buf += text;
  };
}

/** A resolver for a path, specialised by its shape. */
type Resolver = (ctx: Ctx) => unknown;

function resolver(path: Path): Resolver {
  if (path.length === 1) {
    const name = path[0];
    if (name === "@") return (ctx) => ctx.frame.node;
    if (typeof name === "string" && name[0] === "@") return (ctx) => ctx.lookup(name);
    return (ctx) => lookupName(ctx.frame, name);
  }
  const first = resolver([path[0]]);
  if (path.length === 2) {
    const second = path[1];
    return (ctx) => {
      const v = first(ctx);
      return v === undefined || v === null ? undefined : prop(v, second);
    };
  }
  return (ctx) => descend(first(ctx), path, 1);
}

function sectionResolver(path: Path): Resolver {
  const name = path[0];
  if (path.length === 1) {
    if (typeof name === "string" && name[0] === "@") return (ctx) => Ctx.frameGet(ctx.frame, name);
    return (ctx) => prop(ctx.frame.node, name);
  }
  return (ctx) => descend(Ctx.frameGet(ctx.frame, name), path, 1);
}

interface BoundFormatter {
  name: string;
  impl: Formatter | undefined;
  args: string[];
  loc: Loc;
}

function bindFormatters(calls: FormatterCall[], tables: CompileTables): BoundFormatter[] {
  return calls.map((c) => ({
    name: c.name,
    impl: Object.hasOwn(tables.formatters, c.name) ? tables.formatters[c.name] : undefined,
    // Shared by every call: frozen so a plugin cannot change it for the next one.
    args: Object.freeze(c.args.slice()) as string[],
    loc: c.loc,
  }));
}

/** Applies the chain; false (error recorded) when a formatter failed, which aborts the instruction. */
function applyFormatters(fmts: BoundFormatter[], vars: Variable[], ctx: Ctx): boolean {
  for (let i = 0; i < fmts.length; i++) {
    const f = fmts[i];
    if (f.impl === undefined) continue;
    ctx.loc = f.loc;
    try {
      f.impl(f.args, vars, ctx);
    } catch (e) {
      ctx.error(`formatter '${f.name}' failed: ${errorMessage(e)}`);
      return false;
    }
  }
  return true;
}

function emit(ctx: Ctx, v: unknown): void {
  if (typeof v === "string") ctx.buf += v;
  else ctx.buf += toDisplayString(v);
}

function bindPredicate(name: string, tables: CompileTables): Predicate | undefined {
  return Object.hasOwn(tables.predicates, name) ? tables.predicates[name] : undefined;
}

const FALSE = 0;
const TRUE = 1;
/** The predicate threw: the whole block is skipped (neither branch runs). */
const FAILED = 2;

function testPredicate(
  impl: Predicate | undefined,
  name: string,
  args: string[],
  loc: Loc,
  ctx: Ctx,
): number {
  if (impl === undefined) return FALSE;
  ctx.loc = loc;
  try {
    return impl(args, ctx) === true ? TRUE : FALSE;
  } catch (e) {
    ctx.error(`predicate '${name}' failed: ${errorMessage(e)}`);
    return FAILED;
  }
}

/**
 * A predicate section (`{.name? args}`, or an `{.or name? args}` branch): `body` when the predicate
 * holds, else `alt`; neither when it throws.
 */
function predicateCode(
  name: string,
  rawArgs: readonly string[],
  loc: Loc,
  body: Code,
  alt: Code | null,
  tables: CompileTables,
): Code {
  const impl = bindPredicate(name, tables);
  const args = Object.freeze(rawArgs.slice()) as string[];
  return (ctx) => {
    const r = testPredicate(impl, name, args, loc, ctx);
    if (r === TRUE) body(ctx);
    else if (r === FALSE && alt !== null) alt(ctx);
  };
}

function compileAlt(alt: OrNode | null, tables: CompileTables): Code | null {
  if (alt === null) return null;
  const body = compileBlock(alt.body, tables);
  if (alt.predicate === null) return body;
  return predicateCode(alt.predicate, alt.args, alt.loc, body, compileAlt(alt.alt, tables), tables);
}

function compileNode(n: TemplateNode, tables: CompileTables): Code {
  switch (n.type) {
    case "text": {
      const text = n.text;
      return textCode(text);
    }
    case "literal":
      return textCode(n.value);
    case "comment":
      return NOOP;

    case "variable": {
      const resolvers = n.vars.map(resolver);
      const fmts = bindFormatters(n.formatters, tables);
      if (fmts.length === 0) {
        const r = resolvers[0];
        return (ctx) => emit(ctx, r(ctx));
      }
      const count = resolvers.length;
      if (count === 1 && fmts.length === 1) {
        // The common `{name|formatter args}`.
        const r = resolvers[0];
        const { impl, args, loc, name } = fmts[0];
        if (impl === undefined) return (ctx) => emit(ctx, r(ctx));
        return (ctx) => {
          const value = r(ctx);
          const v: Variable = { value };
          const f = ctx.push(value);
          ctx.loc = loc;
          try {
            impl(args, [v], ctx);
          } catch (e) {
            ctx.error(`formatter '${name}' failed: ${errorMessage(e)}`);
            ctx.frame = f.parent!;
            return;
          }
          ctx.frame = f.parent!;
          emit(ctx, v.value);
        };
      }
      return (ctx) => {
        const vars: Variable[] = new Array(count);
        for (let i = 0; i < count; i++) vars[i] = { value: resolvers[i](ctx) };
        const f = ctx.push(vars[0].value);
        const ok = applyFormatters(fmts, vars, ctx);
        ctx.frame = f.parent!;
        if (ok) emit(ctx, vars[0].value);
      };
    }

    case "section": {
      const resolve = sectionResolver(n.path);
      const body = compileBlock(n.body, tables);
      const alt = compileAlt(n.alt, tables);
      if (!tables.breaks) {
        return (ctx) => {
          const node = resolve(ctx);
          const f = ctx.push(node);
          if (isTruthy(node)) body(ctx);
          else if (alt !== null) alt(ctx);
          ctx.frame = f.parent!;
        };
      }
      return (ctx) => {
        const node = resolve(ctx);
        const f = ctx.push(node);
        try {
          if (isTruthy(node)) body(ctx);
          else if (alt !== null) alt(ctx);
        } catch (e) {
          // A labelled break aimed at this section's frame ends the section.
          if (!(e instanceof BreakSignal) || e.frame !== f) {
            ctx.frame = f.parent!;
            throw e;
          }
        }
        ctx.frame = f.parent!;
      };
    }

    case "repeated": {
      const resolve = sectionResolver(n.path);
      const body = compileBlock(n.body, tables);
      const between = n.alternatesWith?.length ? compileBlock(n.alternatesWith, tables) : null;
      const alt = compileAlt(n.alt, tables);
      const breaks = tables.breaks === true;
      return (ctx) => {
        const node = resolve(ctx);
        if (!Array.isArray(node) || node.length === 0) {
          if (alt !== null) alt(ctx);
          return;
        }
        const parent = ctx.frame;
        const f = ctx.push(node);
        const len = node.length;
        const last = len - 1;
        if (!breaks) {
          for (let i = 0; i < len; i++) {
            f.index = i;
            const el = node[i];
            ctx.push(el === null ? undefined : el);
            body(ctx);
            if (between !== null && i < last) between(ctx);
            ctx.frame = f;
          }
          f.index = -1;
          ctx.frame = parent;
          return;
        }
        ctx.loopDepth++;
        try {
          for (let i = 0; i < len; i++) {
            f.index = i;
            const el = node[i];
            const elFrame = ctx.push(el === null ? undefined : el);
            try {
              body(ctx);
              if (between !== null && i < last) between(ctx);
            } catch (e) {
              if (!(e instanceof BreakSignal)) throw e;
              if (e.frame === null) break; // {.break}: the loop ends
              if (e.frame !== elFrame) throw e;
              // {.break label} aimed at this iteration: it ends, the loop goes on.
              ctx.frame = elFrame;
              if (between !== null && i < last) between(ctx);
            }
            ctx.frame = f;
          }
        } finally {
          ctx.loopDepth--;
          f.index = -1;
          ctx.frame = parent;
        }
      };
    }

    case "predicate":
    case "if-predicate":
      return predicateCode(
        n.predicate,
        n.args,
        n.loc,
        compileBlock(n.body, tables),
        compileAlt(n.alt, tables),
        tables,
      );

    case "if": {
      const resolvers = n.vars.map(resolver);
      const ops = n.ops;
      const body = compileBlock(n.body, tables);
      const alt = compileAlt(n.alt, tables);
      return (ctx) => {
        let result = isTruthy(resolvers[0](ctx));
        for (let i = 1; i < resolvers.length; i++) {
          const op = ops[i - 1];
          const value = isTruthy(resolvers[i](ctx));
          if (op === "&&") {
            result = result && value;
            if (!result) break;
          } else {
            result = result || value;
            if (result) break;
          }
        }
        if (result) body(ctx);
        else if (alt !== null) alt(ctx);
      };
    }

    case "if-expr": {
      const expr = n.expr;
      const code = n.code;
      const loc = n.loc;
      const body = compileBlock(n.body, tables);
      const alt = compileAlt(n.alt, tables);
      return (ctx) => {
        ctx.loc = loc;
        const v = evalExpr(expr, ctx, code);
        if (v !== undefined && isTruthy(v)) body(ctx);
        else if (alt !== null) alt(ctx);
      };
    }

    case "bindvar": {
      const resolvers = n.vars.map(resolver);
      const fmts = bindFormatters(n.formatters, tables);
      const name = n.name;
      const count = resolvers.length;
      return (ctx) => {
        const vars: Variable[] = new Array(count);
        for (let i = 0; i < count; i++) vars[i] = { value: resolvers[i](ctx) };
        if (fmts.length && !applyFormatters(fmts, vars, ctx)) return;
        ctx.setVar(name, vars[0].value);
      };
    }

    case "ctxvar": {
      const name = n.name;
      const bindings = n.bindings.map((b) => ({ key: b.key, resolve: resolver(b.path) }));
      return (ctx) => {
        const obj: Record<string, unknown> = {};
        for (const b of bindings) {
          const v = b.resolve(ctx);
          obj[b.key] = v === undefined ? null : v;
        }
        ctx.setVar(name, obj);
      };
    }

    case "macro": {
      const name = n.name;
      const body = compileBlock(n.body, tables);
      return (ctx) => ctx.setMacro(name, body);
    }

    case "eval": {
      const expr = n.expr;
      const code = n.code;
      const loc = n.loc;
      if (expr.statements.length === 0) return NOOP;
      return (ctx) => {
        ctx.loc = loc;
        const v = evalExpr(expr, ctx, code);
        if (v !== undefined) emit(ctx, v);
      };
    }

    case "include": {
      const name = n.name;
      const output = n.args.includes("output");
      const loc = n.loc;
      return (ctx) => {
        ctx.loc = loc;
        const code = ctx.getPartial(name);
        if (code === undefined) {
          ctx.error(`missing partial '${name}'`);
          return;
        }
        // Legacy (PARTIAL_DEPTH_LEAK): a refused include leaves the depth counted.
        if (!ctx.enterPartial(name)) return;
        try {
          // Runs in the current frame: variables it sets stay visible afterwards.
          const out = ctx.runIsolated(code);
          if (output) ctx.buf += out;
        } finally {
          ctx.exitPartial();
        }
      };
    }

    case "label": {
      const name = n.name;
      return (ctx) => ctx.addLabel(name);
    }

    case "break": {
      const label = n.label;
      return (ctx) => ctx.breakTo(label);
    }

    case "inject": {
      const name = n.name;
      const path = n.path;
      return (ctx) => ctx.setVar(name, ctx.getInjectable(path));
    }
  }
}
