/**
 * Core formatters: generic text, HTML, JSON, lookup and partial formatters.
 */
import { Ctx, descend, prop } from "../context.js";
import { splitPath } from "../expr.js";
import type { FormatterTable, RenderContext, Variable } from "../types.js";
import { legacy } from "../util/compat.js";
import { escapeAttr, escapeHtml, escapeScriptTags, stripTags } from "../util/html.js";
import { stringifyJson } from "../util/json.js";
import { slugify } from "../util/text.js";
import {
  asNumber,
  asString,
  isNumber,
  isTruthy,
  kindOf,
  numberValue,
  toDisplayString,
} from "../util/values.js";

/** Resolves `path` (dotted text) against the context. */
function resolveArg(ctx: RenderContext, arg: string): unknown {
  return ctx instanceof Ctx ? ctx.resolvePath(splitPath(arg)) : ctx.resolve(arg);
}

/** Sets the first variable. */
function set(vars: Variable[], value: unknown): void {
  vars[0].value = value;
}

/**
 * Positional substitution: `{0}` is args[0], `{12}` args[12]; out-of-range indexes print
 * nothing; a tag with anything other than digits is dropped up to its `}`. Legacy
 * (FORMAT_STATE_DIGITS): no `{{`/`}}` escapes, and a `{` inside a bad tag starts a new tag.
 */
function formatPattern(pattern: string, args: readonly string[], legacyMode = true): string {
  let out = "";
  let index = -1; // -1 outside a tag, -2 ignoring a bad tag, >= 0 inside a tag
  const len = pattern.length;
  for (let i = 0; i < len; i++) {
    const ch = pattern[i];
    if (index === -2 && ch === "}") {
      index = -1;
    } else if (index >= 0) {
      if (ch >= "0" && ch <= "9") {
        index = index * 10 + (ch.charCodeAt(0) - 48);
      } else if (ch === "}") {
        if (index < args.length) out += args[index];
        index = -1;
      } else {
        index = -2;
      }
    } else if (ch === "{") {
      if (legacyMode) {
        index = 0;
      } else if (index === -1 && pattern[i + 1] === "{") {
        out += "{";
        i++;
      } else if (index === -1) {
        index = 0;
      }
    } else if (!legacyMode && index === -1 && ch === "}" && pattern[i + 1] === "}") {
      out += "}";
      i++;
    } else if (index !== -2) {
      out += ch;
    }
  }
  return out;
}

/** Cuts text at the last whitespace before `max` characters and appends the ellipsis. */
function truncateText(text: string, max: number, ellipsis: string): string {
  if (text.length <= max) return text;
  let end = max;
  for (let i = max - 1; i >= 0; i--) {
    const ch = text[i];
    if (ch === " " || ch === "\n" || ch === "\t" || ch === "\u000b" || ch === "\r" || ch === "\f") {
      end = i + 1;
      break;
    }
  }
  return text.substring(0, end) + ellipsis;
}

/** Curly quotes, apostrophes and em dashes. */
function smartypants(text: string): string {
  return text
    .replace(/(^|[-\u2014\s(["])'/gm, "$1\u2018")
    .replace(/'/g, "\u2019")
    .replace(/(^|[-\u2014/[(\u2018\s])"/gm, "$1\u201c")
    .replace(/"/g, "\u201d")
    .replace(/--/g, "\u2014");
}

const URL_SAFE = /[A-Za-z0-9@*_+\-./]/;
const URL_FIXUPS: Record<string, string> = {
  "!": "%21",
  "~": "%7E",
  "'": "%27",
  "(": "%28",
  ")": "%29",
  "%40": "@",
  "%2B": "+",
  "%2F": "/",
};

/** UTF-8 percent-encoding that keeps `A-Z a-z 0-9 @ * _ + - . /` (like `escape()` over UTF-8 bytes). */
function urlEncode(text: string): string {
  try {
    // encodeURIComponent keeps A-Z a-z 0-9 - _ . ! ~ * ' ( ): adjust to the set above.
    return encodeURIComponent(text).replace(/[!~'()]|%40|%2B|%2F/g, (m) => URL_FIXUPS[m]);
  } catch {
    // Lone surrogates: encode the UTF-8 bytes (U+FFFD for the surrogate) one by one.
    let out = "";
    for (const b of new TextEncoder().encode(text)) {
      const ch = String.fromCharCode(b);
      out += b < 128 && URL_SAFE.test(ch) ? ch : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return out;
  }
}

/** JSON text made safe inside `<script>`; fixed JSON_LINE_SEPARATORS also escapes U+2028/U+2029. */
function jsonForScript(json: string, ctx: RenderContext): string {
  const out = escapeScriptTags(json);
  return legacy(ctx, "JSON_LINE_SEPARATORS")
    ? out
    : out.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/**
 * encodeURI / encodeURIComponent. Legacy ENCODE_URI_QUOTE also encodes `'` as %27; legacy
 * ENCODE_URI_SURROGATE renders "null" for text with a lone surrogate.
 */
function encodeUri(text: string, component: boolean, ctx: RenderContext): string {
  let out: string;
  try {
    out = component ? encodeURIComponent(text) : encodeURI(text);
  } catch (e) {
    if (legacy(ctx, "ENCODE_URI_SURROGATE")) return "null";
    throw e;
  }
  return legacy(ctx, "ENCODE_URI_QUOTE") ? out.replace(/'/g, "%27") : out;
}

/** Parses a whole signed integer ("12", "-3"); null otherwise. */
function parseStrictInt(s: string): number | null {
  if (!/^-?[0-9]+$/.test(s)) return null;
  const n = Number(s);
  return Math.abs(n) <= Number.MAX_SAFE_INTEGER ? n : null;
}

/** Applies a partial or macro: `{x|apply name [private] [key=value...]}`. */
function applyFormatter(args: string[], vars: Variable[], ctx: RenderContext): void {
  if (args.length === 0) {
    set(vars, "");
    return;
  }
  const name = args[0];
  const node = vars[0].value;
  if (!(ctx instanceof Ctx)) {
    set(vars, ctx.renderPartial(name, node) ?? "");
    return;
  }
  let isPrivate = false;
  let argmap: Record<string, string> | undefined;
  if (args.length > 1) {
    argmap = {};
    for (let i = 1; i < args.length; i++) {
      const a = args[i];
      if (a === "private") {
        isPrivate = true;
        continue;
      }
      const eq = a.indexOf("=");
      if (eq !== -1) argmap[a.slice(0, eq)] = a.slice(eq + 1);
    }
  }
  set(vars, ctx.applyPartial(name, node, isPrivate, argmap) ?? "");
}

/**
 * `find-first [lookup] path` / `find-last`: the first (last) element whose `path` is truthy;
 * with a lookup, elements are keys into the lookup object and the candidate is the looked-up
 * value. Without arguments, the first (last) element.
 */
function findEntry(list: unknown, args: string[], ctx: RenderContext, last: boolean): unknown {
  if (!Array.isArray(list)) return undefined;
  const hasLookup = args.length === 2;
  const lookup = hasLookup ? resolveArg(ctx, args[0]) : undefined;
  const path = args.length >= 1 ? splitPath(args[hasLookup ? 1 : 0]) : null;
  const n = list.length;
  for (let k = 0; k < n; k++) {
    const el = list[last ? n - 1 - k : k];
    if (path === null) return el;
    const candidate = hasLookup ? prop(lookup, asString(el)) : el;
    if (isTruthy(descend(candidate, path, 0))) return el;
  }
  return undefined;
}

export const coreFormatters: FormatterTable = {
  apply: applyFormatter,

  capitalize: (_args, vars) => set(vars, asString(vars[0].value).toUpperCase()),

  count: (_args, vars) => {
    const v = vars[0].value;
    if (Array.isArray(v) || typeof v === "string") set(vars, v.length);
    else if (kindOf(v) === "object") set(vars, Object.keys(v as object).length);
    else set(vars, 0);
  },

  cycle: (args, vars) => {
    if (args.length === 0) return;
    const value = asNumber(vars[0].value);
    let index = (value - 1) % args.length;
    if (index < 0) index += args.length;
    set(vars, Number.isInteger(index) ? args[index] : undefined);
  },

  "encode-space": (_args, vars, ctx) =>
    set(
      vars,
      asString(vars[0].value).replace(legacy(ctx, "ENCODE_SPACE_WHITESPACE") ? /\s/g : / /g, "&nbsp;"),
    ),

  "encode-uri": (_args, vars, ctx) => set(vars, encodeUri(asString(vars[0].value), false, ctx)),

  "encode-uri-component": (_args, vars, ctx) => set(vars, encodeUri(asString(vars[0].value), true, ctx)),

  "find-first": (args, vars, ctx) => set(vars, findEntry(vars[0].value, args, ctx, false)),

  "find-last": (args, vars, ctx) => set(vars, findEntry(vars[0].value, args, ctx, true)),

  format: (args, vars, ctx) => {
    // Arguments resolve from the frame around the formatted value.
    const values = args.map((arg) => {
      let v: unknown;
      if (ctx instanceof Ctx) {
        const parent = ctx.frame.parent ?? ctx.frame;
        v = ctx.resolveFrom(splitPath(arg), parent);
      } else {
        v = ctx.resolve(arg);
      }
      return v === null || v === undefined ? "" : toDisplayString(v);
    });
    set(vars, formatPattern(asString(vars[0].value), values, legacy(ctx, "FORMAT_STATE_DIGITS")));
  },

  get: (args, vars, ctx) => {
    let tmp = vars[0].value;
    for (const arg of args) {
      const key = resolveArg(ctx, arg);
      if (key === undefined) {
        tmp = undefined;
      } else if (Array.isArray(key)) {
        tmp = descend(tmp, key as (string | number)[], 0);
      } else if (isNumber(key)) {
        tmp = tmp === null ? undefined : prop(tmp, numberValue(key));
      } else {
        tmp = tmp === null ? undefined : prop(tmp, asString(key));
      }
      if (tmp === undefined) break;
    }
    set(vars, tmp);
  },

  html: (_args, vars) => set(vars, escapeHtml(asString(vars[0].value))),

  htmlattr: (_args, vars, ctx) =>
    set(vars, escapeAttr(asString(vars[0].value), !legacy(ctx, "HTMLATTR_QUOTE"))),

  htmltag: (_args, vars, ctx) =>
    set(vars, escapeAttr(asString(vars[0].value), !legacy(ctx, "HTMLATTR_QUOTE"))),

  iter: (_args, vars, ctx) => set(vars, asString(resolveArg(ctx, "@index"))),

  json: (_args, vars, ctx) => {
    const v = vars[0].value;
    set(vars, v === undefined ? "" : jsonForScript(stringifyJson(v) ?? "", ctx));
  },

  "json-pretty": (_args, vars, ctx) => {
    const v = vars[0].value;
    set(vars, v === undefined ? "" : jsonForScript(stringifyJson(v, "  ") ?? "", ctx));
  },

  "key-by": (args, vars) => {
    const list = vars[0].value;
    const out: Record<string, unknown> = {};
    if (Array.isArray(list) && args.length > 0 && args[0]) {
      const path = splitPath(args[0]);
      for (const el of list) {
        const key = descend(el, path, 0);
        if (key !== undefined) out[key === null ? "null" : toDisplayString(key)] = el;
      }
    }
    set(vars, out);
  },

  "line-breaks": (_args, vars) => set(vars, asString(vars[0].value).replace(/\n/g, "<br/>")),

  lookup: (args, vars, ctx) => {
    if (args.length === 0 || !args[0]) {
      set(vars, "");
      return;
    }
    const ref = resolveArg(ctx, args[0]);
    const name = asString(ref);
    set(vars, name ? resolveArg(ctx, name) : undefined);
  },

  mod: (args, vars, ctx) => {
    let divisor = 2;
    if (args.length > 0) {
      const parsed = parseStrictInt(args[0]);
      if (parsed !== null) divisor = parsed;
      if (divisor === 0) {
        // Legacy (MOD_ZERO): division by zero fails the instruction; fixed: default 2.
        if (legacy(ctx, "MOD_ZERO")) throw new Error("/ by zero");
        divisor = 2;
      }
    }
    const v = vars[0].value;
    let value = 0;
    if (isNumber(v)) {
      const n = numberValue(v);
      value = Number.isNaN(n) ? 0 : Math.trunc(n);
    } else if (typeof v === "string") {
      value = parseStrictInt(v) ?? 0;
    } else if (typeof v === "boolean") {
      value = v ? 1 : 0;
    }
    const r = value % divisor;
    set(vars, r === 0 ? 0 : r);
  },

  output: (args, vars) => set(vars, args.join(" ")),

  pluralize: (args, vars) => {
    let singular = "";
    let plural = "s";
    if (args.length === 1) plural = args[0];
    else if (args.length >= 2) {
      singular = args[0];
      plural = args[1];
    }
    set(vars, asNumber(vars[0].value) === 1 ? singular : plural);
  },

  prop: (args, vars) => {
    let tmp = vars[0].value;
    for (const arg of args) {
      tmp = descend(tmp, splitPath(arg), 0);
      if (tmp === undefined) break;
    }
    set(vars, tmp);
  },

  raw: (_args, vars) => set(vars, stringifyJson(vars[0].value)),

  round: (_args, vars) => set(vars, Math.round(asNumber(vars[0].value))),

  safe: (_args, vars) => {
    const v = vars[0].value;
    if (isTruthy(v)) set(vars, stripTags(asString(v)));
  },

  slugify: (_args, vars) => set(vars, slugify(asString(vars[0].value))),

  smartypants: (_args, vars) => set(vars, smartypants(asString(vars[0].value))),

  str: (_args, vars) => {
    const k = kindOf(vars[0].value);
    set(vars, k === "object" || k === "array" ? "" : asString(vars[0].value));
  },

  truncate: (args, vars, ctx) => {
    let limit = 100;
    let ellipsis = "...";
    if (args.length > 0) limit = Number.parseInt(args[0], 10);
    if (args.length > 1) ellipsis = args[1];
    if (!Number.isFinite(limit)) return;
    const text = asString(vars[0].value);
    if (limit < 0) {
      // Legacy (TRUNCATE_NEGATIVE): a negative length fails the instruction; fixed: 0.
      if (legacy(ctx, "TRUNCATE_NEGATIVE")) throw new Error(`begin 0, end ${limit}, length ${text.length}`);
      limit = 0;
    }
    set(vars, truncateText(text, limit, ellipsis));
  },

  "url-encode": (_args, vars) => set(vars, urlEncode(asString(vars[0].value))),
};
