/**
 * The render context: the stack of frames a render walks, variable resolution, the output
 * buffer, errors, partials, macros and injects. Implements the plugin-facing
 * {@link RenderContext} of src/types.ts.
 */
import type { Loc, Path, TemplateError } from "./ast.js";
import { splitPath } from "./expr.js";
import type { RenderContext } from "./types.js";
import { legacy } from "./util/compat.js";
import { parseJson } from "./util/json.js";
import { JsonNumber } from "./util/values.js";

/** Compiled template code: appends output to the context. */
export type Code = (ctx: Ctx) => void;

/** The partial nesting limit (SPEC §9). */
export const MAX_PARTIAL_DEPTH = 16;

export class Frame {
  node: unknown;
  readonly parent: Frame | null;
  /** Index of the current element while this frame's array is being repeated, else -1. */
  index = -1;
  /** Stops variable resolution from going above this frame (private partials). */
  stop = false;
  vars: Record<string, unknown> | null = null;
  macros: Map<string, Code> | null = null;
  /** Names given to this frame's block by `{.label}`. */
  labels: Set<string> | null = null;
  constructor(node: unknown, parent: Frame | null) {
    this.node = node;
    this.parent = parent;
  }
}

/** True for a non-empty string of ASCII digits (an array index in a path). */
function isDigits(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Reads `name` (a key or an array index) from a JSON value; undefined when missing. */
export function prop(node: unknown, name: string | number): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  if (Array.isArray(node)) return typeof name === "number" ? node[name] : undefined;
  if (name === "__proto__") {
    return Object.hasOwn(node, name) && !(node instanceof JsonNumber)
      ? (node as Record<string, unknown>)[name]
      : undefined;
  }
  const v = (node as Record<string | number, unknown>)[name];
  // A JsonNumber has no members (tested only on a hit: misses are the common case).
  if (v === undefined || typeof v === "function" || node instanceof JsonNumber) return undefined;
  return v;
}

/**
 * Searches a key from a frame up the stack (stopping at a private frame). A frame whose node
 * is the one just searched (a formatter's frame over its own node, a section over `@`) is
 * not searched again.
 */
export function lookupName(from: Frame, name: string | number): unknown {
  let searched: unknown = NOTHING;
  for (let f: Frame | null = from; f !== null; f = f.parent) {
    const node = f.node;
    if (node !== searched) {
      const v = prop(node, name);
      if (v !== undefined) return v;
      searched = node;
    }
    if (f.stop) break;
  }
  return undefined;
}

/** A value no frame holds. */
const NOTHING: unknown = Object.freeze({});

/** Follows `path` from index `from` downwards from a value. */
export function descend(node: unknown, path: Path, from: number): unknown {
  for (let i = from; i < path.length; i++) {
    if (node === undefined || node === null) return undefined;
    node = prop(node, path[i]);
  }
  return node;
}

/** Where compiled partials come from: the engine (with its compile cache). */
interface PartialCompiler {
  compilePartial(source: string): { code: Code; errors: TemplateError[] };
}

/**
 * Thrown by `{.break}` to unwind to its target: `frame` null ends the innermost loop,
 * otherwise the block of the labelled frame.
 */
export class BreakSignal {
  constructor(
    readonly label: string | null,
    readonly frame: Frame | null,
  ) {}
}

/** The unlabelled break (shared: it carries no state). */
const LOOP_BREAK = new BreakSignal(null, null);

interface CtxOptions {
  locale?: string;
  now?: number;
  compatLevel?: number;
  maxPartialDepth?: number;
  partials?: Record<string, unknown>;
  injects?: Record<string, unknown>;
}

export class Ctx implements RenderContext {
  readonly locale: string;
  readonly now: number;
  readonly compatLevel: number;
  readonly maxPartialDepth: number;
  /** Number of repeated sections being iterated in the current template (for `{.break}`). */
  loopDepth = 0;
  /** The output buffer. */
  buf = "";
  frame: Frame;
  readonly rootFrame: Frame;
  readonly errors: TemplateError[] = [];
  /** Location of the instruction running now, for error positions. */
  loc: Loc | null = null;
  /** Current partial nesting depth. */
  depth = 0;
  private readonly partials: Record<string, unknown>;
  private readonly injects: Record<string, unknown>;
  private readonly compiler: PartialCompiler;
  private partialCache: Map<string, Code> | null = null;
  private injectCache: Map<string, unknown> | null = null;

  constructor(json: unknown, options: CtxOptions, compiler: PartialCompiler) {
    this.locale = options.locale || "en-US";
    this.now = typeof options.now === "number" && Number.isFinite(options.now) ? options.now : Date.now();
    this.compatLevel = typeof options.compatLevel === "number" ? options.compatLevel : 0;
    this.maxPartialDepth =
      typeof options.maxPartialDepth === "number" && options.maxPartialDepth >= 0
        ? options.maxPartialDepth
        : MAX_PARTIAL_DEPTH;
    this.partials = options.partials ?? {};
    this.injects = options.injects ?? {};
    this.compiler = compiler;
    this.frame = new Frame(json, null);
    this.rootFrame = this.frame;
  }

  // ---- RenderContext ----

  node(): unknown {
    return this.frame.node;
  }

  root(): unknown {
    return this.rootFrame.node;
  }

  resolve(path: string | readonly string[]): unknown {
    if (typeof path === "string") return this.resolvePath(splitPath(path));
    for (let i = 0; i < path.length; i++) {
      if (isDigits(path[i])) return this.resolvePath(path.map((s) => (isDigits(s) ? Number(s) : s)));
    }
    return this.resolvePath(path);
  }

  error(message: string): void {
    const loc = this.loc;
    this.errors.push({ kind: "render", message, line: loc ? loc.line : 0, column: loc ? loc.column : 0 });
  }

  renderPartial(name: string, node: unknown): string | undefined {
    return this.applyPartial(name, node, false, undefined);
  }

  // ---- frames ----

  push(node: unknown): Frame {
    const f = new Frame(node, this.frame);
    this.frame = f;
    return f;
  }

  pop(): void {
    const p = this.frame.parent;
    if (p !== null) this.frame = p;
  }

  /** Looks `name` up in one frame: `@`, `@index`, `@index0`, `@var` or a key of the frame's node. */
  static frameGet(f: Frame, name: string | number): unknown {
    if (typeof name === "string" && name.charCodeAt(0) === 64 /* @ */) {
      if (name === "@") return f.node;
      if (name === "@index") return f.index !== -1 ? f.index + 1 : undefined;
      if (name === "@index0") return f.index !== -1 ? f.index : undefined;
      return f.vars === null ? undefined : f.vars[name];
    }
    return prop(f.node, name);
  }

  /** Searches `name` from the current frame up the stack (stopping at a private frame). */
  lookup(name: string | number): unknown {
    if (typeof name === "string" && name.charCodeAt(0) === 64 /* @ */) {
      // `@` is always the current node, never searched up the stack.
      if (name === "@") return this.frame.node;
      for (let f: Frame | null = this.frame; f !== null; f = f.parent) {
        const v = Ctx.frameGet(f, name);
        if (v !== undefined) return v;
        if (f.stop) break;
      }
      return undefined;
    }
    return lookupName(this.frame, name);
  }

  /** Resolves a split path: the first name up the stack, the rest downwards. */
  resolvePath(path: Path): unknown {
    if (path.length === 0) return undefined;
    const v = this.lookup(path[0]);
    return path.length === 1 ? v : descend(v, path, 1);
  }

  /** Resolves a path starting at a given frame (used by formatters that skip their own frame). */
  resolveFrom(path: Path, from: Frame): unknown {
    if (path.length === 0) return undefined;
    let v: unknown;
    if (path[0] === "@") v = from.node;
    else
      for (let f: Frame | null = from; f !== null; f = f.parent) {
        v = Ctx.frameGet(f, path[0]);
        if (v !== undefined) break;
        if (f.stop) break;
      }
    return path.length === 1 ? v : descend(v, path, 1);
  }

  /** Section scope: the first name is resolved against the current frame only. */
  resolveSection(path: Path): unknown {
    const v = Ctx.frameGet(this.frame, path[0]);
    return path.length === 1 ? v : descend(v, path, 1);
  }

  setVar(name: string, value: unknown): void {
    const f = this.frame;
    if (f.vars === null) f.vars = Object.create(null) as Record<string, unknown>;
    f.vars[name] = value;
  }

  setMacro(name: string, code: Code): void {
    const f = this.frame;
    if (f.macros === null) f.macros = new Map();
    f.macros.set(name, code);
  }

  // ---- partials, macros, injects ----

  /** A macro visible from the current frame, else the named partial compiled; undefined if neither exists. */
  getPartial(name: string): Code | undefined {
    for (let f: Frame | null = this.frame; f !== null; f = f.parent) {
      if (f.macros !== null) {
        const m = f.macros.get(name);
        if (m !== undefined) return m;
      }
    }
    if (this.partialCache !== null) {
      const c = this.partialCache.get(name);
      if (c !== undefined) return c;
    }
    if (!Object.hasOwn(this.partials, name)) return undefined;
    const raw = this.partials[name];
    if (typeof raw !== "string") return undefined;
    const compiled = this.compiler.compilePartial(raw);
    for (const e of compiled.errors) {
      this.error(`syntax error in partial '${name}' at ${e.line}:${e.column}: ${e.message}`);
    }
    if (this.partialCache === null) this.partialCache = new Map();
    this.partialCache.set(name, compiled.code);
    return compiled.code;
  }

  /**
   * Enters a partial; false (with an error recorded) when nesting is too deep. Legacy
   * (PARTIAL_DEPTH_LEAK): the depth is counted before the check, so the caller must
   * always exit; fixed: a refused entry does not count.
   */
  enterPartial(name: string): boolean {
    const max = this.maxPartialDepth;
    if (legacy(this, "PARTIAL_DEPTH_LEAK")) {
      this.depth++;
      if (this.depth > max) {
        this.error(`partial recursion too deep: '${name}' exceeds the nesting limit of ${max}`);
        return false;
      }
      return true;
    }
    if (this.depth >= max) {
      this.error(`partial recursion too deep: '${name}' exceeds the nesting limit of ${max}`);
      return false;
    }
    this.depth++;
    return true;
  }

  exitPartial(): void {
    this.depth--;
  }

  /** Runs partial code in a fresh buffer; breaks cannot leave a partial. */
  runIsolated(code: Code): string {
    const saved = this.buf;
    const savedLoc = this.loc;
    const savedLoops = this.loopDepth;
    const frame = this.frame;
    this.buf = "";
    this.loopDepth = 0;
    try {
      code(this);
    } catch (e) {
      if (!(e instanceof BreakSignal)) throw e;
    } finally {
      this.frame = frame;
      this.loopDepth = savedLoops;
      this.loc = savedLoc;
    }
    const out = this.buf;
    this.buf = saved;
    return out;
  }

  /**
   * Renders a partial or macro with `node` as its current node in a new frame and returns
   * its output; undefined (error recorded) when it is missing or nested too deep.
   */
  applyPartial(
    name: string,
    node: unknown,
    isPrivate: boolean,
    args: Record<string, string> | undefined,
  ): string | undefined {
    const code = this.getPartial(name);
    if (code === undefined) {
      this.error(`missing partial '${name}'`);
      return undefined;
    }
    const leaky = legacy(this, "PARTIAL_DEPTH_LEAK");
    if (!this.enterPartial(name)) {
      if (leaky) this.exitPartial();
      return undefined;
    }
    const parent = this.frame;
    const saved = this.buf;
    try {
      const f = this.push(node);
      f.stop = isPrivate;
      if (args !== undefined) this.setVar("@args", args);
      return this.runIsolated(code);
    } finally {
      this.frame = parent;
      this.buf = saved;
      this.exitPartial();
    }
  }

  /** `{.break [label]}`: throws the signal for its target, or does nothing when there is none. */
  breakTo(label: string | null): void {
    if (label === null) {
      if (this.loopDepth > 0) throw LOOP_BREAK;
      return;
    }
    for (let f: Frame | null = this.frame; f !== null; f = f.parent) {
      if (f.labels?.has(label)) throw new BreakSignal(label, f);
    }
  }

  addLabel(name: string): void {
    const f = this.frame;
    if (f.labels === null) f.labels = new Set();
    f.labels.add(name);
  }

  /** Parsed injectable (`:INJECT` values are JSON text); undefined when missing. */
  getInjectable(path: string): unknown {
    if (this.injectCache?.has(path)) return this.injectCache.get(path);
    let value: unknown;
    if (Object.hasOwn(this.injects, path)) {
      const raw = this.injects[path];
      if (typeof raw === "string") {
        try {
          value = parseJson(raw);
        } catch {
          value = raw;
        }
      } else {
        value = raw;
      }
    }
    if (this.injectCache === null) this.injectCache = new Map();
    this.injectCache.set(path, value);
    return value;
  }
}
