/** Dotted references (`a.b.0`) split into their segments, cached. */

const PATH_CACHE = new Map<string, readonly (string | number)[]>();
const PATH_CACHE_LIMIT = 2000;

/**
 * Splits a dotted reference, converting all-digit segments to numbers. Results are cached
 * and shared: treat them as read-only.
 */
export function splitPath(raw: string): readonly (string | number)[] {
  let p = PATH_CACHE.get(raw);
  if (p === undefined) {
    p = Object.freeze(splitPathUncached(raw));
    if (PATH_CACHE.size >= PATH_CACHE_LIMIT) PATH_CACHE.clear();
    PATH_CACHE.set(raw, p);
  }
  return p;
}

function splitPathUncached(raw: string): (string | number)[] {
  const parts: (string | number)[] = raw.split(".");
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i] as string;
    if (/^\d+$/.test(p)) {
      const n = Number.parseInt(p, 10);
      if (n <= 0x7fffffff) parts[i] = n;
    }
  }
  return parts;
}
