/** Reading an owner API answer the same way in every client (the dashboard, the `jsont` command line). */

/** What a refused call answers under `error`: the message in the SPEC's words and, where they apply, per-field messages and a template's line and column. */
export interface ApiErrorBody {
  code: string;
  message: string;
  fields?: Record<string, string>;
  line?: number;
  column?: number;
}

/** An answer's body as JSON; undefined when it is empty or not JSON (a proxy's HTML error page). */
export async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The `error` of a refused answer's JSON, if it has one. */
export function apiErrorOf(json: unknown): Partial<ApiErrorBody> | undefined {
  const error = (json as { error?: unknown } | undefined)?.error;
  return typeof error === "object" && error !== null ? (error as Partial<ApiErrorBody>) : undefined;
}
