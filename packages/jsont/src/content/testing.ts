/**
 * A minimal RenderContext for unit tests of the content plugins: a stack of frames over a
 * JSON root, with the template lookup rules (`@`, `@index`, a first name searched from the
 * innermost frame outwards).
 */
import type { RenderContext, Variable } from "../types.js";
import { get, path } from "./node.js";

interface FakeContext extends RenderContext {
  /** Enters a section on `node` (with a 1-based repeat index when given). */
  push(node: unknown, index?: number): FakeContext;
  readonly errors: string[];
}

interface Frame {
  node: unknown;
  index?: number;
}

export function fakeContext(root: unknown, options: { locale?: string; now?: number } = {}): FakeContext {
  const frames: Frame[] = [{ node: root }];
  const errors: string[] = [];
  const ctx: FakeContext = {
    locale: options.locale ?? "en-US",
    now: options.now ?? 0,
    errors,
    node: () => frames[frames.length - 1].node,
    root: () => root,
    error: (message) => {
      errors.push(message);
    },
    renderPartial: () => undefined,
    resolve(p) {
      const keys = typeof p === "string" ? (p === "@" ? [] : p.split(".")) : [...p];
      if (keys.length === 0 || keys[0] === "@") return path(frames[frames.length - 1].node, keys.slice(1));
      if (keys[0] === "@index" || keys[0] === "@index0") {
        for (let i = frames.length - 1; i >= 0; i--) {
          const index = frames[i].index;
          if (index !== undefined) return keys[0] === "@index" ? index : index - 1;
        }
        return undefined;
      }
      for (let i = frames.length - 1; i >= 0; i--) {
        if (get(frames[i].node, keys[0]) !== undefined) return path(frames[i].node, keys);
      }
      return undefined;
    },
    push(node, index) {
      frames.push({ node, index });
      return ctx;
    },
  };
  return ctx;
}

/** Runs a formatter-like function on `value` and returns what it leaves in the variable. */
export function format(
  fn: (args: string[], vars: Variable[], ctx: RenderContext) => void,
  value: unknown,
  ctx: RenderContext,
  args: string[] = [],
): unknown {
  const vars: Variable[] = [{ value }];
  fn(args, vars, ctx);
  return vars[0].value;
}
