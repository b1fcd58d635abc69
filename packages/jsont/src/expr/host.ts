import type { Path } from "../path.js";

/** What expression evaluation needs from the render context. */
export interface ExprHost {
  resolvePath(path: Path): unknown;
  setVar(name: string, value: unknown): void;
  error(message: string): void;
}
