/**
 * Id remapping for an import: every primary-key id of the archive gets a fresh id, and every
 * occurrence of an old id anywhere in a row (a reference column, an id array, a block layout's
 * JSON, a media URL inside rich text, a storage path) is replaced by its new id. Ids are 24
 * random hex characters, so a match is an id and nothing else.
 */
const ID_IN_TEXT = /(?<![a-f0-9])[a-f0-9]{24}(?![a-f0-9])/g;

export class IdMap {
  private readonly map = new Map<string, string>();

  set(oldId: string, newId: string): void {
    this.map.set(oldId, newId);
  }

  get(oldId: string): string | undefined {
    return this.map.get(oldId);
  }

  /** A value with every old id in it replaced (strings, arrays and JSON objects, deeply). */
  remap(value: unknown): unknown {
    if (typeof value === "string") {
      const whole = this.map.get(value);
      if (whole !== undefined) return whole;
      return value.replace(ID_IN_TEXT, (m) => this.map.get(m) ?? m);
    }
    if (Array.isArray(value)) return value.map((v) => this.remap(v));
    if (value && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.remap(v);
      return out;
    }
    return value;
  }
}
