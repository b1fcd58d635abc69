/**
 * What changed between two versions: the fields added, removed or changed (a page's blocks one by
 * one, by their id), with the words inserted and deleted in changed text.
 */
import type { Content } from "./entities.js";

export type TextPart = { op: "same" | "added" | "removed"; text: string };

export interface FieldChange {
  /** e.g. `title`, `variants[SKU-1].priceCents`, `block hero-1 (heading)` */
  path: string;
  change: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
  /** For text: the words kept, added and removed, in order. */
  text?: TextPart[];
}

/** Word-level differences of two texts (longest common subsequence; long texts compare by line). */
export function textDiff(a: string, b: string): TextPart[] {
  const split = (s: string) =>
    s.length > 20_000 ? s.split(/(?<=\n)/) : s.split(/(\s+)/).filter((t) => t !== "");
  let x = split(a);
  let y = split(b);
  if (x.length * y.length > 4_000_000) {
    x = [a];
    y = [b];
  }
  const n = x.length;
  const m = y.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: TextPart[] = [];
  const push = (op: TextPart["op"], text: string) => {
    const last = out[out.length - 1];
    if (last?.op === op) last.text += text;
    else out.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      push("same", x[i]!);
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) push("removed", x[i++]!);
    else push("added", y[j++]!);
  }
  while (i < n) push("removed", x[i++]!);
  while (j < m) push("added", y[j++]!);
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

type Block = { id: string; type: string; [k: string]: unknown };

function blocksOf(layout: unknown): Map<string, { block: Block; at: string }> {
  const out = new Map<string, { block: Block; at: string }>();
  const rows = (layout as { rows?: { columns?: { blocks?: Block[] }[] }[] } | null)?.rows ?? [];
  for (const [ri, r] of rows.entries())
    for (const [ci, c] of (r.columns ?? []).entries())
      for (const [bi, b] of (c.blocks ?? []).entries()) out.set(b.id, { block: b, at: `${ri}.${ci}.${bi}` });
  return out;
}

function valueChange(path: string, before: unknown, after: unknown): FieldChange {
  if (before === undefined || before === null) return { path, change: "added", after };
  if (after === undefined || after === null) return { path, change: "removed", before };
  const c: FieldChange = { path, change: "changed", before, after };
  if (typeof before === "string" && typeof after === "string") c.text = textDiff(before, after);
  return c;
}

function blockChanges(before: unknown, after: unknown): FieldChange[] {
  const a = blocksOf(before);
  const b = blocksOf(after);
  const out: FieldChange[] = [];
  for (const [id, { block }] of a)
    if (!b.has(id)) out.push({ path: `block ${id} (${block.type})`, change: "removed", before: block });
  for (const [id, { block, at }] of b) {
    const old = a.get(id);
    const path = `block ${id} (${block.type})`;
    if (!old) {
      out.push({ path, change: "added", after: block });
      continue;
    }
    for (const key of new Set([...Object.keys(old.block), ...Object.keys(block)])) {
      if (key === "id" || same(old.block[key], block[key])) continue;
      out.push(valueChange(`${path}.${key}`, old.block[key], block[key]));
    }
    if (old.at !== at) out.push({ path: `${path} position`, change: "changed", before: old.at, after: at });
  }
  return out;
}

function listById(path: string, before: unknown, after: unknown, key: string): FieldChange[] {
  const index = (l: unknown) =>
    new Map(((Array.isArray(l) ? l : []) as Record<string, unknown>[]).map((r) => [String(r[key]), r]));
  const a = index(before);
  const b = index(after);
  const out: FieldChange[] = [];
  for (const [id, r] of a) if (!b.has(id)) out.push({ path: `${path}[${id}]`, change: "removed", before: r });
  for (const [id, r] of b) {
    const old = a.get(id);
    if (!old) out.push({ path: `${path}[${id}]`, change: "added", after: r });
    else
      for (const f of new Set([...Object.keys(old), ...Object.keys(r)]))
        if (!same(old[f], r[f])) out.push(valueChange(`${path}[${id}].${f}`, old[f], r[f]));
  }
  return out;
}

/** Every difference from `before` to `after` (both contents of the same entity). */
export function compareContents(before: Content | null, after: Content | null): FieldChange[] {
  const a = before ?? {};
  const b = after ?? {};
  const out: FieldChange[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (same(a[key], b[key])) continue;
    if (key === "layout" || key === "draft") {
      const blocks = blockChanges(a[key], b[key]);
      out.push(...blocks.map((c) => ({ ...c, path: `${key === "draft" ? "draft " : ""}${c.path}` })));
      if (!blocks.length) out.push(valueChange(key, a[key], b[key]));
    } else if (key === "variants") out.push(...listById("variants", a[key], b[key], "id"));
    else if (key === "pages") out.push(...listById("pages", a[key], b[key], "id"));
    else out.push(valueChange(key, a[key], b[key]));
  }
  return out;
}

const LABELS: Record<string, string> = {
  layout: "the published layout",
  draft: "the draft",
  customCss: "custom CSS",
  source: "the template",
  variants: "variants",
  imageIds: "images",
  mainImageId: "the main image",
  pages: "the navigation",
  urlSlug: "the URL",
  urlId: "the URL",
};

/** A one-line summary of a change, e.g. "Changed title and 2 blocks; added 1 block". */
export function summarize(changes: FieldChange[]): string {
  if (!changes.length) return "No changes";
  const blocks = { added: 0, removed: 0, changed: new Set<string>() };
  const fields = new Set<string>();
  for (const c of changes) {
    const m = /^(?:draft )?block ([^ ]+)/.exec(c.path);
    if (m && !c.path.includes(".") && !c.path.endsWith("position")) {
      if (c.change === "added") blocks.added++;
      else if (c.change === "removed") blocks.removed++;
    } else if (m) blocks.changed.add(m[1]!);
    else {
      const top = c.path.split(/[.[]/)[0]!;
      fields.add(LABELS[top] ?? top.replace(/([A-Z])/g, " $1").toLowerCase());
    }
  }
  const n = (k: number, w: string) => `${k} ${w}${k === 1 ? "" : "s"}`;
  const parts: string[] = [];
  const changed = [...fields];
  if (blocks.changed.size) changed.push(n(blocks.changed.size, "block"));
  if (changed.length) parts.push(`Changed ${changed.slice(0, 4).join(", ")}${changed.length > 4 ? "…" : ""}`);
  if (blocks.added) parts.push(`added ${n(blocks.added, "block")}`);
  if (blocks.removed) parts.push(`removed ${n(blocks.removed, "block")}`);
  const s = parts.join("; ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}
