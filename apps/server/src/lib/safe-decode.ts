/**
 * `decodeURIComponent` for a visitor's path: a malformed escape (`%E0%A4%A`) leaves the text as
 * it came instead of throwing, so such a path simply matches nothing.
 */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
