/**
 * Schema failures in plain words: turns the validator's errors (ajv, run with `verbose` so each
 * error carries the schema it broke) into sentences that name the field and say what it allows,
 * "Theme must be one of: Commerce, Market, Classic." or "Title must be text of 1 to 200
 * characters.", never the validator's own wording. One formatter for every route (errors.ts).
 */
import { ID_PATTERN } from "../lib/ids.js";

/** The part of an ajv error this reads (ajv's `ErrorObject` with `verbose: true`). */
export interface SchemaFailure {
  keyword: string;
  instancePath?: string;
  params?: Record<string, unknown>;
  parentSchema?: Schema;
}

export interface Schema {
  title?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  format?: string;
  pattern?: string;
}

/** Where the failing value was: the body, the query string or the address. */
export type ValidationContext = "body" | "querystring" | "params" | "headers" | string;

const WHOLE: Record<string, string> = {
  body: "The request body",
  querystring: "The address's query",
  params: "The address",
  headers: "The request's headers",
};

/** Words written the way people read them in labels. */
const WORDS: Record<string, string> = {
  id: "ID",
  ids: "IDs",
  url: "URL",
  urls: "URLs",
  sku: "SKU",
  qty: "quantity",
  css: "CSS",
  html: "HTML",
  seo: "SEO",
  api: "API",
  cents: "(in cents)",
  utc: "UTC",
};

/** A readable label from a property name: `timeZone` → "Time zone", `itemId` → "Item ID". */
export function labelOf(property: string): string {
  const words = property
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .trim()
    .split(/\s+/)
    .map((w) => WORDS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(" ");
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "This value";
}

/** How a value that must be this constant is shown: text with a capital, other values as JSON. */
function shown(value: unknown): string {
  if (typeof value === "string") return value ? value.charAt(0).toUpperCase() + value.slice(1) : "empty";
  return JSON.stringify(value);
}

/** Patterns in words; a pattern not listed here is "in the expected format". */
const PATTERNS: Record<string, string> = {
  [ID_PATTERN]: "an ID of 24 characters, digits and the letters a to f",
  "^[a-f0-9]{64}$": "64 characters, digits and the letters a to f",
  "^[a-z_][a-z0-9_]*$": "lowercase letters, digits and underscores",
  "^[a-z0-9][a-z0-9.-]{0,99}$": "lowercase letters, digits, dots and hyphens (up to 100)",
  "^[a-z0-9][a-z0-9-]{0,63}$": "lowercase letters, digits and hyphens (up to 64)",
  "^[0-9]{1,7}$": "a number of up to 7 digits",
  "^[A-Za-z0-9_:.-]+$": "letters, digits and the signs _ : . -",
};

const FORMATS: Record<string, string> = {
  email: "an email address",
  uri: "a web address",
  "date-time": "a date and time",
  date: "a date",
  time: "a time",
};

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function range(min: number | undefined, max: number | undefined, unit: string, units: string): string {
  if (min !== undefined && max !== undefined) {
    return min === max ? `of exactly ${plural(max, unit, units)}` : `of ${min} to ${max} ${units}`;
  }
  if (max !== undefined) return `of at most ${plural(max, unit, units)}`;
  if (min !== undefined && min > 0) return `of at least ${plural(min, unit, units)}`;
  return "";
}

function numberRange(s: Schema): string {
  const min = s.minimum ?? s.exclusiveMinimum;
  const max = s.maximum ?? s.exclusiveMaximum;
  const above = s.exclusiveMinimum !== undefined ? "above" : "from";
  const below = s.exclusiveMaximum !== undefined ? "below" : "up to";
  if (min !== undefined && max !== undefined) {
    if (s.exclusiveMinimum === undefined && s.exclusiveMaximum === undefined) return ` from ${min} to ${max}`;
    return ` ${above} ${min} and ${below} ${max}`;
  }
  if (min !== undefined) return s.exclusiveMinimum !== undefined ? ` above ${min}` : ` of at least ${min}`;
  if (max !== undefined) return s.exclusiveMaximum !== undefined ? ` below ${max}` : ` of at most ${max}`;
  return "";
}

/** What a schema allows, in words that follow "must be": "text of 1 to 200 characters". */
export function allowedBy(s: Schema | undefined, depth = 0): string {
  if (!s || depth > 4) return "a valid value";
  if ("const" in s) return `“${shown(s.const)}”`;
  if (s.enum?.length) return `one of: ${s.enum.map(shown).join(", ")}`;
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) {
    const consts = branches.filter((b) => "const" in b || b.enum);
    if (consts.length === branches.length) {
      return `one of: ${branches
        .flatMap((b) => ("const" in b ? [b.const] : (b.enum ?? [])))
        .map(shown)
        .join(", ")}`;
    }
    const kinds = [...new Set(branches.filter((b) => b.type !== "null").map((b) => allowedBy(b, depth + 1)))];
    const nullable = branches.some((b) => b.type === "null");
    return [...kinds, ...(nullable ? ["empty (null)"] : [])].join(" or ");
  }
  const types = [s.type ?? (s.properties ? "object" : undefined)].flat().filter((t) => t && t !== "null");
  const type = types[0];
  switch (type) {
    case "string": {
      if (s.format && FORMATS[s.format]) return FORMATS[s.format]!;
      const length = range(s.minLength, s.maxLength, "character", "characters");
      if (s.pattern) {
        // A length is named too: a value of the right signs but too short must read why it failed.
        const words = PATTERNS[s.pattern];
        if (!words) return `text ${length ? `${length} ` : ""}in the expected format`;
        return length ? `text ${length}: ${words}` : words;
      }
      return length ? `text ${length}` : "text";
    }
    case "integer":
      return `a whole number${numberRange(s)}${s.multipleOf && s.multipleOf !== 1 ? `, a multiple of ${s.multipleOf}` : ""}`;
    case "number":
      return `a number${numberRange(s)}${s.multipleOf ? `, a multiple of ${s.multipleOf}` : ""}`;
    case "boolean":
      return "true or false";
    case "array": {
      const size = range(s.minItems, s.maxItems, "entry", "entries");
      const of = s.items ? ` of ${allowedBy(s.items, depth + 1)}` : "";
      return `a list${size ? ` ${size}` : ""}${of}`;
    }
    case "object":
      return s.maxProperties !== undefined
        ? `a set of named values (at most ${s.maxProperties})`
        : "a set of named values";
    default:
      return types.length ? "a valid value" : "a value";
  }
}

/** The path's parts: `/socialLinks/0/profileUrl` → ["socialLinks", "0", "profileUrl"]. */
function partsOf(instancePath: string | undefined): string[] {
  return (instancePath ?? "")
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The label of the value at `parts`: the schema's `title`, else its property name in words. */
function labelAt(parts: string[], context: ValidationContext, title?: string): string {
  if (title) return title;
  const last = parts.at(-1);
  if (last === undefined) return WHOLE[context] ?? "The request";
  if (/^\d+$/.test(last)) {
    const owner = parts.length > 1 ? labelAt(parts.slice(0, -1), context) : "The list";
    return `${owner}, entry ${Number(last) + 1},`;
  }
  return labelOf(last);
}

export interface PlainFailure {
  /** The dotted path of the field (`socialLinks.0.profileUrl`), or the context for the whole value. */
  field: string;
  /** The sentence for the owner: names the field and says what is allowed. */
  message: string;
  /** What the field errors map shows: "Required" (the SPEC's word) or the sentence. */
  fieldMessage: string;
}

/** One validator error in plain words. */
function plainOne(e: SchemaFailure, context: ValidationContext): PlainFailure {
  const parts = partsOf(e.instancePath);
  const where = parts.join(".");
  const params = e.params ?? {};
  const s = e.parentSchema;
  if (e.keyword === "required") {
    const name = String(params.missingProperty ?? "");
    const label = labelAt([...parts, name], context, s?.properties?.[name]?.title);
    return {
      field: where ? `${where}.${name}` : name,
      message: `${label} is required.`,
      fieldMessage: "Required",
    };
  }
  if (e.keyword === "additionalProperties") {
    const name = String(params.additionalProperty ?? "");
    const message = `“${name}” is not a field that can be sent here; remove it.`;
    return { field: where ? `${where}.${name}` : name, message, fieldMessage: "Not accepted here." };
  }
  if (e.keyword === "uniqueItems") {
    const message = `${labelAt(parts, context, s?.title)} must not list the same value twice.`;
    return { field: where || context, message, fieldMessage: message };
  }
  const message = `${labelAt(parts, context, s?.title)} must be ${allowedBy(s)}.`;
  return { field: where || context, message, fieldMessage: message };
}

/**
 * The validator's errors in plain words, one per field. A union's failure comes last among the
 * errors of its branches: it wins, as it knows every branch ("one of: A, B, C").
 */
export function plainFailures(errors: SchemaFailure[], context: ValidationContext): PlainFailure[] {
  const unions = new Set(
    errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.instancePath ?? ""),
  );
  const wanted = errors.filter((e) => {
    if (e.keyword === "anyOf" || e.keyword === "oneOf") return true;
    const path = e.instancePath ?? "";
    // A branch of a union at this path or above: the union's own error says it better.
    return ![...unions].some((u) => path === u || path.startsWith(`${u}/`));
  });
  const out = new Map<string, PlainFailure>();
  for (const e of wanted) {
    const p = plainOne(e, context);
    if (!out.has(p.field)) out.set(p.field, p);
  }
  return [...out.values()];
}

/** A failure found by TypeBox's `Value.Errors` (a JSON pointer and the schema broken), in plain words. */
export function valueFailure(path: string, schema: Schema): string {
  return `${labelAt(partsOf(path), "body", schema.title)} must be ${allowedBy(schema)}.`;
}
