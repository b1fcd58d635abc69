/**
 * A small JSON parser that keeps the source text of integral numbers written with a
 * fraction or exponent (`1.0` becomes a {@link JsonNumber} that prints "1.0"), and a
 * matching serializer. Everything else parses exactly like `JSON.parse`.
 */
import { JsonNumber } from "./values.js";

class JsonSyntaxError extends Error {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(`${message} at offset ${offset}`);
    this.name = "JsonSyntaxError";
    this.offset = offset;
  }
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** Parses JSON text; throws {@link JsonSyntaxError} on invalid input. */
export function parseJson(text: string): unknown {
  let i = 0;
  const n = text.length;

  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
  };

  const fail = (msg: string): never => {
    throw new JsonSyntaxError(msg, i);
  };

  const parseString = (): string => {
    // text[i] === '"'
    i++;
    let out = "";
    let start = i;
    for (;;) {
      if (i >= n) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 34) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c === 92) {
        out += text.slice(start, i);
        i++;
        const e = text[i];
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(i + 1, i + 5);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad unicode escape");
            out += String.fromCharCode(Number.parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            fail("bad escape");
        }
        i++;
        start = i;
        continue;
      }
      if (c < 32) fail("control character in string");
      i++;
    }
  };

  /** After a member or element: true at the closing bracket (read), false after a comma (read). */
  const endOfMember = (close: "}" | "]"): boolean => {
    ws();
    if (text[i] === ",") {
      i++;
      return false;
    }
    if (text[i] === close) {
      i++;
      return true;
    }
    return fail(`expected ',' or '${close}'`);
  };

  const parseValue = (depth: number): unknown => {
    if (depth > 5000) fail("nesting too deep");
    ws();
    if (i >= n) fail("unexpected end of input");
    const c = text[i];
    switch (c) {
      case "{": {
        i++;
        const obj: Record<string, unknown> = {};
        ws();
        if (text[i] === "}") {
          i++;
          return obj;
        }
        for (;;) {
          ws();
          if (text[i] !== '"') fail("expected a string key");
          const key = parseString();
          ws();
          if (text[i] !== ":") fail("expected ':'");
          i++;
          const value = parseValue(depth + 1);
          if (key === "__proto__") {
            Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
          } else {
            obj[key] = value;
          }
          if (endOfMember("}")) return obj;
        }
      }
      case "[": {
        i++;
        const arr: unknown[] = [];
        ws();
        if (text[i] === "]") {
          i++;
          return arr;
        }
        for (;;) {
          arr.push(parseValue(depth + 1));
          if (endOfMember("]")) return arr;
        }
      }
      case '"':
        return parseString();
      case "t":
        if (text.startsWith("true", i)) {
          i += 4;
          return true;
        }
        return fail("unexpected token");
      case "f":
        if (text.startsWith("false", i)) {
          i += 5;
          return false;
        }
        return fail("unexpected token");
      case "n":
        if (text.startsWith("null", i)) {
          i += 4;
          return null;
        }
        return fail("unexpected token");
      default: {
        NUMBER_RE.lastIndex = i;
        const m = NUMBER_RE.exec(text);
        if (!m) return fail("unexpected token");
        const s = m[0];
        i += s.length;
        const value = Number(s);
        if (Number.isInteger(value) && /[.eE]/.test(s)) return new JsonNumber(value, s);
        return value;
      }
    }
  };

  const result = parseValue(0);
  ws();
  if (i < n) fail("unexpected trailing characters");
  return result;
}

const JSON_ESCAPE_RE = /["\\\u0000-\u001f\u2028\u2029]/;

function quote(s: string): string {
  return JSON.stringify(s);
}

/**
 * Serializes a value like `JSON.stringify(value, null, indent)`, but prints a
 * {@link JsonNumber} with its source text. `undefined` gives `undefined`.
 */
export function stringifyJson(value: unknown, indent = ""): string | undefined {
  if (value === undefined) return undefined;
  const out: string[] = [];
  write(value, "");
  return out.join("");

  function write(v: unknown, cur: string): void {
    switch (typeof v) {
      case "string":
        out.push(JSON_ESCAPE_RE.test(v) ? quote(v) : `"${v}"`);
        return;
      case "number":
        out.push(Number.isFinite(v) ? String(v) : "null");
        return;
      case "boolean":
        out.push(v ? "true" : "false");
        return;
      case "object":
        break;
      default:
        out.push("null");
        return;
    }
    if (v === null) {
      out.push("null");
      return;
    }
    if (v instanceof JsonNumber) {
      out.push(v.text);
      return;
    }
    const inner = cur + indent;
    const nl = indent ? `\n${inner}` : "";
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push("[]");
        return;
      }
      out.push("[");
      for (let k = 0; k < v.length; k++) {
        if (k > 0) out.push(",");
        out.push(nl);
        const e = v[k];
        write(e === undefined || typeof e === "function" ? null : e, inner);
      }
      out.push(indent ? `\n${cur}]` : "]");
      return;
    }
    const obj = v as Record<string, unknown>;
    let first = true;
    out.push("{");
    for (const k of Object.keys(obj)) {
      const e = obj[k];
      if (e === undefined || typeof e === "function") continue;
      if (!first) out.push(",");
      first = false;
      out.push(nl);
      out.push(quote(k));
      out.push(indent ? ": " : ":");
      write(e, inner);
    }
    if (first) {
      out.push("}");
      return;
    }
    out.push(indent ? `\n${cur}}` : "}");
  }
}
