/**
 * Core predicates: comparisons, parity, nth, singular/plural, debug and index.
 */
import { Ctx } from "../context.js";
import { splitPath } from "../expr.js";
import type { PredicateTable, RenderContext } from "../types.js";
import { legacy } from "../util/compat.js";
import { parseJson } from "../util/json.js";
import {
  asString,
  deepEquals,
  isNumber,
  isObject,
  isTruthy,
  JsonNumber,
  kindOf,
  numberValue,
} from "../util/values.js";

const JSON_START = /^["\d[{]|^-\d|^(true|false|null)$/;
/** Fixed JSON_START_KEYWORD: leading JSON whitespace is skipped, keywords end at whitespace or the end. */
const JSON_START_FIXED = /^[ \t\n\r]*(?:["\d[{-]|(?:true|false|null)(?:[ \t\n\r]|$))/;

type ParsedArg = { json: true; value: unknown } | { json: false; path: readonly (string | number)[] };

const ARG_CACHE = [new Map<string, ParsedArg>(), new Map<string, ParsedArg>()];

function parseArg(arg: string, fixed: boolean): ParsedArg {
  const cache = ARG_CACHE[fixed ? 1 : 0];
  let p = cache.get(arg);
  if (p !== undefined) return p;
  p = { json: false, path: splitPath(arg) };
  if ((fixed ? JSON_START_FIXED : JSON_START).test(arg)) {
    try {
      p = { json: true, value: parseJson(fixed ? arg.trim() : arg) };
    } catch {
      // not JSON: a variable reference
    }
  }
  if (cache.size >= 2000) cache.clear();
  cache.set(arg, p);
  return p;
}

/** An argument is a bare JSON value (`3`, `"a b"`, `true`, `[1]`) or else a variable reference. */
function resolveArg(arg: string, ctx: RenderContext): unknown {
  const p = parseArg(arg, !legacy(ctx, "JSON_START_KEYWORD"));
  if (p.json) return p.value;
  return ctx instanceof Ctx ? ctx.resolvePath(p.path) : ctx.resolve(arg);
}

/** Missing compares like null. */
const norm = (v: unknown): unknown => (v === undefined ? null : v);

/** Integral number, in the Java sense: a plain integer (not a double such as `1.0`). */
function isIntegral(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v);
}

/** Jackson-style `asLong`. */
function asLong(v: unknown): number {
  switch (kindOf(v)) {
    case "number": {
      const n = numberValue(v);
      return Number.isNaN(n) ? 0 : Math.trunc(n);
    }
    case "string": {
      const s = (v as string).trim();
      if (/^[-+]?\d+$/.test(s)) return Number.parseInt(s, 10);
      const f = Number(s);
      return s !== "" && Number.isFinite(f) ? Math.trunc(f) : 0;
    }
    case "boolean":
      return v ? 1 : 0;
    default:
      return 0;
  }
}

function asDouble(v: unknown): number {
  switch (kindOf(v)) {
    case "number":
      return numberValue(v);
    case "string": {
      const s = (v as string).trim();
      const f = Number(s);
      return s !== "" && Number.isFinite(f) ? f : 0;
    }
    case "boolean":
      return v ? 1 : 0;
    default:
      return 0;
  }
}

function asText(v: unknown): string {
  if (v === null) return "null";
  return asString(v);
}

function jacksonBoolean(v: unknown): boolean {
  switch (kindOf(v)) {
    case "boolean":
      return v as boolean;
    case "number":
      return numberValue(v) !== 0;
    case "string":
      return (v as string).toLowerCase() === "true";
    default:
      return false;
  }
}

const cmp = (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Compares two JSON values keyed by the left one's type, coercing the right one to it:
 * numbers numerically, strings by UTF-16 code units, booleans false < true; anything else
 * is 0 when deeply equal, else -1.
 */
function compareValues(left: unknown, right: unknown): number {
  left = norm(left);
  right = norm(right);
  switch (kindOf(left)) {
    case "number": {
      const l = numberValue(left);
      if (Number.isInteger(l) && !(left instanceof JsonNumber)) return cmp(l, asLong(right));
      const r = asDouble(right);
      if (Number.isNaN(l) || Number.isNaN(r))
        return Number.isNaN(l) === Number.isNaN(r) ? 0 : Number.isNaN(l) ? 1 : -1;
      return cmp(l, r);
    }
    case "string": {
      const l = left as string;
      const r = asText(right);
      return l < r ? -1 : l > r ? 1 : 0;
    }
    case "boolean": {
      const l = left as boolean;
      const r = jacksonBoolean(right);
      return l === r ? 0 : l ? 1 : -1;
    }
    default:
      return deepEquals(left, right) ? 0 : -1;
  }
}

function typeRank(v: unknown): number {
  switch (kindOf(v)) {
    case "missing":
    case "null":
      return 0;
    case "string":
      return 1;
    case "number":
      return 2;
    case "boolean":
      return 3;
    default:
      return 4;
  }
}

/**
 * The total order of fixed COMPARE_TOTAL_ORDER: numbers by value (NaN first), strings and
 * booleans within their type, mixed types by rank (missing/null < string < number <
 * boolean < composite); composites are 0 when deeply equal, else -1.
 */
function compareTotal(left: unknown, right: unknown): number {
  const lk = kindOf(left);
  const rk = kindOf(right);
  if (lk === "number" && rk === "number") {
    const l = numberValue(left);
    const r = numberValue(right);
    if (Number.isNaN(l) || Number.isNaN(r))
      return Number.isNaN(l) === Number.isNaN(r) ? 0 : Number.isNaN(l) ? -1 : 1;
    return cmp(l, r);
  }
  if (lk === "string" && rk === "string") {
    const l = left as string;
    const r = right as string;
    return l < r ? -1 : l > r ? 1 : 0;
  }
  if (lk === "boolean" && rk === "boolean") return left === right ? 0 : left ? 1 : -1;
  const lr = typeRank(left);
  const rr = typeRank(right);
  if (lr !== rr) return lr < rr ? -1 : 1;
  if (lr === 0) return 0;
  return deepEquals(left, right) ? 0 : -1;
}

function compareFor(ctx: RenderContext): (a: unknown, b: unknown) => number {
  return legacy(ctx, "COMPARE_TOTAL_ORDER") ? compareValues : compareTotal;
}

/** One argument compares the current node with it; two compare the arguments. */
function compareArgs(args: string[], ctx: RenderContext, test: (a: unknown, b: unknown) => boolean): boolean {
  if (args.length === 0) return false;
  if (args.length === 1) return test(ctx.node(), resolveArg(args[0], ctx));
  return test(resolveArg(args[0], ctx), resolveArg(args[1], ctx));
}

const equal = (a: unknown, b: unknown): boolean => deepEquals(norm(a), norm(b));

function parity(args: string[], ctx: RenderContext, even: boolean): boolean {
  const v = args.length >= 1 ? resolveArg(args[0], ctx) : ctx.node();
  if (!isIntegral(v)) return false;
  return even ? v % 2 === 0 : v % 2 !== 0;
}

export const corePredicates: PredicateTable = {
  "debug?": (_args, ctx) => isTruthy(ctx.resolve("debug")),

  "equal?": (args, ctx) => compareArgs(args, ctx, equal),

  "notEqual?": (args, ctx) => compareArgs(args, ctx, (a, b) => !equal(a, b)),

  "greaterThan?": (args, ctx) => {
    const compare = compareFor(ctx);
    return compareArgs(args, ctx, (a, b) => compare(a, b) > 0);
  },

  "greaterThanOrEqual?": (args, ctx) => {
    const compare = compareFor(ctx);
    return compareArgs(args, ctx, (a, b) => compare(a, b) >= 0);
  },

  "lessThan?": (args, ctx) => {
    const compare = compareFor(ctx);
    return compareArgs(args, ctx, (a, b) => compare(a, b) < 0);
  },

  "lessThanOrEqual?": (args, ctx) => {
    const compare = compareFor(ctx);
    return compareArgs(args, ctx, (a, b) => compare(a, b) <= 0);
  },

  "even?": (args, ctx) => parity(args, ctx, true),

  "odd?": (args, ctx) => parity(args, ctx, false),

  "nth?": (args, ctx) => {
    if (args.length === 0) return false;
    let node = ctx.node();
    let modulus = resolveArg(args[0], ctx);
    if (args.length >= 2) {
      node = modulus;
      modulus = resolveArg(args[1], ctx);
    }
    if (!isIntegral(node) || !isIntegral(modulus)) return false;
    if (modulus === 0) {
      // Legacy (NTH_MODULO_ZERO): division by zero fails the block; fixed: false.
      if (legacy(ctx, "NTH_MODULO_ZERO")) throw new Error("/ by zero");
      return false;
    }
    return node % modulus === 0;
  },

  "plural?": (_args, ctx) => asLong(ctx.node()) > 1,

  "singular?": (_args, ctx) => asLong(ctx.node()) === 1,

  /** An index page: a folder collection whose folder behavior is "index" (1). */
  "index?": (_args, ctx) => {
    const node = ctx.node();
    const collection = isObject(node) ? node.collection : undefined;
    if (!isObject(collection)) return false;
    const behavior = collection.folderBehavior;
    return isTruthy(collection.folder) && isNumber(behavior) && numberValue(behavior) === 1;
  },
};
