/** The rows of a raw query (`db.execute`), as PGlite and node-postgres answer them. */
export function rowsOf<T>(res: unknown): T[] {
  return Array.isArray(res) ? (res as T[]) : ((res as { rows?: T[] }).rows ?? []);
}
