/** A plain JSON object: not null and not an array (data read loosely from JSON is checked with it). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
