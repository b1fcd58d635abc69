/**
 * Small readers for JSON values as the content plugins use them: member and path access
 * that yield `undefined` for anything missing, the size of a node, and the lookup a
 * built-in sub-template does (the formatted node first, then the render context).
 */
import type { RenderContext } from "../types.js";
import { isObject, JsonNumber } from "../util/values.js";

/** The member `key` of an object, the element `key` of an array, else `undefined`. */
export function get(value: unknown, key: string | number): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  if (Array.isArray(value)) {
    const index = typeof key === "number" ? key : Number(key);
    return Number.isInteger(index) && index >= 0 ? value[index] : undefined;
  }
  if (value instanceof JsonNumber) return undefined;
  const name = typeof key === "string" ? key : String(key);
  const member = (value as Record<string, unknown>)[name];
  if (member === undefined) return undefined;
  // Only own members count. A plain object inherits nothing but Object.prototype's
  // functions and `__proto__`, so only those need the (slower) own-property test.
  if (typeof member !== "function" && name !== "__proto__") {
    const proto = Object.getPrototypeOf(value);
    if (proto === Object.prototype || proto === null) return member;
  }
  return Object.hasOwn(value, name) ? member : undefined;
}

/** Follows `keys` from `value`; `undefined` as soon as a step is missing. */
export function path(value: unknown, keys: readonly (string | number)[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === undefined) return undefined;
    current = get(current, key);
  }
  return current;
}

/** True when the object (or array) `value` has the member (or element) `key`. */
function has(value: unknown, key: string | number): boolean {
  return get(value, key) !== undefined;
}

/** Number of elements of an array or members of an object; 0 for anything else. */
export function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (isObject(value)) return Object.keys(value).length;
  return 0;
}

/** The first member of `value` among `names` that is present, else `undefined`. */
export function firstPresent(value: unknown, ...names: string[]): unknown {
  for (const name of names) {
    const member = get(value, name);
    if (member !== undefined) return member;
  }
  return undefined;
}

/**
 * Resolves a dotted path the way a built-in sub-template rendered against `node` would:
 * `@` is the node itself; a first name the node has is followed inside the node; otherwise
 * (unless `isolated`, the reference's private context) the name is searched from the
 * current frame of the render context up to the root.
 */
export function lookup(node: unknown, dotted: string, ctx: RenderContext, isolated = false): unknown {
  if (dotted === "@") return node;
  const keys = dotted.split(".");
  if (has(node, keys[0])) return path(node, keys);
  return isolated ? undefined : ctx.resolve(keys);
}
