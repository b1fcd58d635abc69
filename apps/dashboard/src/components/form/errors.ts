/** What the owner API said went wrong, as text for a notice and as messages per field. */
import { ApiError } from "../../api.js";

export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return "Something went wrong.";
}

/** The API's `{error:{fields}}`, keyed by field name; empty when the error is not about fields. */
export function fieldErrors(err: unknown): Record<string, string> {
  return err instanceof ApiError && err.fields ? err.fields : {};
}

/** The errors of one item of a list field, by the item's own field names: `variants.2.sku` is `sku` under `variants.2.`. */
export function errorsUnder(errors: Record<string, string>, prefix: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(errors)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, message]) => [key.slice(prefix.length), message]),
  );
}
