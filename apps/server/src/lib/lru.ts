/**
 * A Map that keeps at most `max` entries, dropping the least recently used first. Reading an
 * entry with `get` makes it the most recent; `peek` does not. Map keeps insertion order, so the
 * first key is always the oldest.
 */
export class LruMap<K, V> extends Map<K, V> {
  evictions = 0;

  constructor(private capacity: number) {
    super();
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`an LRU needs room for at least 1 entry`);
  }

  get max(): number {
    return this.capacity;
  }

  override get(key: K): V | undefined {
    if (!super.has(key)) return undefined;
    const value = super.get(key) as V;
    super.delete(key);
    super.set(key, value);
    return value;
  }

  peek(key: K): V | undefined {
    return super.get(key);
  }

  override set(key: K, value: V): this {
    super.delete(key);
    super.set(key, value);
    this.trim();
    return this;
  }

  /** Changes the capacity, dropping the oldest entries beyond it. */
  resize(capacity: number): void {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`an LRU needs room for at least 1 entry`);
    this.capacity = capacity;
    this.trim();
  }

  private trim(): void {
    while (this.size > this.capacity) {
      super.delete(super.keys().next().value as K);
      this.evictions++;
    }
  }
}
