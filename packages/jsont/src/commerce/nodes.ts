/**
 * Small readers of JSON nodes and context strings shared by the commerce formatters.
 */
import type { RenderContext } from "../types.js";
import { asString, isObject } from "../util/values.js";

/** The value at `path` under `node`; `undefined` when any step is missing. */
export function getPath(node: unknown, ...path: string[]): unknown {
  let cur = node;
  for (const key of path) {
    if (Array.isArray(cur)) {
      const index = Number(key);
      cur = Number.isInteger(index) ? cur[index] : undefined;
    } else if (isObject(cur)) {
      cur = Object.hasOwn(cur, key) ? cur[key] : undefined;
    } else {
      return undefined;
    }
  }
  return cur;
}

/** An array value, or an empty array. */
export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * A localized string (`localizedStrings.<key>` resolved from the current frame up): its text
 * when present, else `fallback`. With `emptyIsMissing`, an empty text also falls back.
 */
export function localized(ctx: RenderContext, key: string, fallback: string, emptyIsMissing = true): string {
  const value = ctx.resolve(["localizedStrings", key]);
  if (value === undefined) return fallback;
  const text = asString(value);
  return emptyIsMissing && text === "" ? fallback : text;
}
