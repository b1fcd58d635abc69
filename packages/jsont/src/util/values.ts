/**
 * JSON values as templates see them: kinds, truthiness, stringification and coercions,
 * following the reference engines' semantics.
 *
 * Values are plain JSON (`string`, `number`, `boolean`, `null`, arrays, plain objects);
 * `undefined` means "missing". One addition: a {@link JsonNumber} is a number that was
 * written in the JSON source with a fraction or an exponent but whose value is integral
 * (`1.0`, `17.0`, `2e3`). JavaScript would print those as `1`, `17`, `2000`, while the
 * reference (Java doubles) prints `1.0`, and CLDR plural rules treat `1.0` differently from
 * `1` (visible fraction digits). {@link parseJson} (src/util/json.ts) produces them;
 * `JSON.parse` data never contains them. Every other number stays a plain `number`.
 *
 * Plugins should therefore test numbers with {@link isNumber} and read them with
 * {@link numberValue} / {@link asNumber} rather than `typeof v === "number"`.
 */

/** A JSON number written with a fraction or exponent that has an integral value, e.g. `1.0`. */
export class JsonNumber {
  /** The numeric value. */
  readonly value: number;
  /** The number as written in the JSON source, e.g. "1.0". */
  readonly text: string;
  constructor(value: number, text: string) {
    this.value = value;
    this.text = text;
  }
  valueOf(): number {
    return this.value;
  }
  toString(): string {
    return this.text;
  }
  toJSON(): number {
    return this.value;
  }
}

type Kind = "missing" | "null" | "boolean" | "number" | "string" | "array" | "object";

/** The JSON kind of a value; `undefined` is "missing", a {@link JsonNumber} is "number". */
export function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "undefined":
      return "missing";
    case "object":
      if (v === null) return "null";
      if (Array.isArray(v)) return "array";
      if (v instanceof JsonNumber) return "number";
      return "object";
    default:
      return "missing";
  }
}

/** True for numbers, including {@link JsonNumber}. */
export function isNumber(v: unknown): v is number | JsonNumber {
  return typeof v === "number" || v instanceof JsonNumber;
}

/** True for plain objects (JSON objects), false for arrays, null and {@link JsonNumber}. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);
}

/** The numeric value of a number (plain or {@link JsonNumber}); NaN for anything else. */
export function numberValue(v: unknown): number {
  if (typeof v === "number") return v;
  if (v instanceof JsonNumber) return v.value;
  return Number.NaN;
}

/**
 * Template truthiness: empty string, 0, NaN, false, null, missing, empty array and empty
 * object are false; everything else is true.
 */
export function isTruthy(v: unknown): boolean {
  switch (typeof v) {
    case "string":
      return v.length !== 0;
    case "number":
      return v !== 0 && !Number.isNaN(v);
    case "boolean":
      return v;
    case "object": {
      if (v === null) return false;
      if (Array.isArray(v)) return v.length !== 0;
      if (v instanceof JsonNumber) return v.value !== 0;
      for (const _ in v) return true;
      return false;
    }
    default:
      return false;
  }
}

/** A number as the engine prints it: JavaScript's `String(n)`, or the source text of a {@link JsonNumber}. */
export function formatNumber(v: number | JsonNumber): string {
  return typeof v === "number" ? String(v) : v.text;
}

/**
 * The text of a scalar (`asText`): strings as is, numbers and booleans printed, everything
 * else (null, missing, arrays, objects) is "".
 */
export function asString(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v;
    case "number":
      return String(v);
    case "boolean":
      return v ? "true" : "false";
    case "object":
      return v instanceof JsonNumber ? v.text : "";
    default:
      return "";
  }
}

/**
 * How a variable prints into the output (`{foo}`): strings as is, numbers and booleans
 * printed, null and missing as "", objects as "", arrays as their elements' text joined by
 * "," (an element prints like {@link asString}, except null prints "null").
 */
export function toDisplayString(v: unknown): string {
  if (!Array.isArray(v)) return asString(v);
  let out = "";
  for (let i = 0; i < v.length; i++) {
    if (i > 0) out += ",";
    const e = v[i];
    out += e === null ? "null" : asString(e);
  }
  return out;
}

/**
 * Converts a value to a number the way the reference does (`asNumber`): numbers as is,
 * strings parsed (`parseFloat` when they contain ".", else `parseInt`; NaN when unparsable),
 * booleans 1/0, everything else 0.
 */
export function asNumber(v: unknown): number {
  switch (typeof v) {
    case "number":
      return v;
    case "string":
      return v.indexOf(".") !== -1 ? Number.parseFloat(v) : Number.parseInt(v, 10);
    case "boolean":
      return v ? 1 : 0;
    case "object":
      return v instanceof JsonNumber ? v.value : 0;
    default:
      return 0;
  }
}

/** Jackson-style boolean: true, "true", and non-zero integral plain numbers are true. */
export function asBoolean(v: unknown): boolean {
  switch (typeof v) {
    case "boolean":
      return v;
    case "string":
      return v === "true";
    case "number":
      return Number.isInteger(v) && v !== 0;
    default:
      // Doubles (including a JsonNumber such as 1.0), null, arrays and objects.
      return false;
  }
}

/** Deep equality of JSON values ({@link JsonNumber} equals the plain number of the same value). */
export function deepEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof JsonNumber) a = a.value;
  if (b instanceof JsonNumber) b = b.value;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEquals(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) {
    if (!Object.hasOwn(bo, k) || !deepEquals(ao[k], bo[k])) return false;
  }
  return true;
}
