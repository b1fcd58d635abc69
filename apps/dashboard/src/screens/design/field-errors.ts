/**
 * The API's field errors by the path of the field they are about. The server may name a field
 * "styles.colors.accent", "colors.accent" or "/styles/colors/accent": all read as "colors.accent".
 */
export function errorsByPath(fields: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(fields ?? {})) {
    const path = key
      .replace(/^\//, "")
      .replace(/\//g, ".")
      .replace(/^styles\./, "");
    out[path] = message;
  }
  return out;
}
