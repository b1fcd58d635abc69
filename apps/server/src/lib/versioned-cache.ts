/**
 * Values kept per key while a version holds (a site's content version): a read at the kept
 * version answers from memory, a newer version loads again and replaces it, an older one (a
 * request that read its version before a change) loads without replacing the newer value. A
 * load that fails is not kept. Values are shared by every request: callers never change them.
 */
import { LruMap } from "./lru.js";

export class VersionedCache<V> {
  private readonly map: LruMap<string, { version: number; value: Promise<V> }>;

  constructor(entries: number) {
    this.map = new LruMap(entries);
  }

  get(key: string, version: number, load: () => Promise<V>): Promise<V> {
    const kept = this.map.get(key);
    if (kept && kept.version === version) return kept.value;
    const value = load();
    if (kept && kept.version > version) return value;
    this.map.set(key, { version, value });
    value.catch(() => {
      if (this.map.peek(key)?.value === value) this.map.delete(key);
    });
    return value;
  }

  /** The value kept at exactly this version, if any. */
  peek(key: string, version: number): Promise<V> | undefined {
    const kept = this.map.get(key);
    return kept?.version === version ? kept.value : undefined;
  }

  clear(): void {
    this.map.clear();
  }
}
