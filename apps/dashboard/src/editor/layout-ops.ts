/**
 * Pure operations on a block layout (rows of columns of blocks), used by the visual editor for
 * adding, deleting, reordering and moving blocks between rows and columns. Every operation
 * returns a new layout; empty columns and rows disappear and column widths are shared again.
 */
import type { Block, BlockType, Layout, Row } from "../api.js";

export const MAX_BLOCKS = 60;
export const BLOCK_LIMIT_MESSAGE =
  "A layout can have at most 60 blocks. Remove a block before adding another.";

export type Target =
  | { kind: "before" | "after"; blockId: string }
  /** A new column beside the column of the block. */
  | { kind: "left" | "right"; blockId: string }
  /** A new row at this index (0 = first). */
  | { kind: "row"; index: number };

interface Position {
  row: number;
  col: number;
  index: number;
}

export function countBlocks(layout: Layout): number {
  return layout.rows.reduce((n, r) => n + r.columns.reduce((m, c) => m + c.blocks.length, 0), 0);
}

export function allBlocks(layout: Layout): Block[] {
  return layout.rows.flatMap((r) => r.columns.flatMap((c) => c.blocks));
}

export function findBlock(layout: Layout, id: string): Position | undefined {
  for (const [row, r] of layout.rows.entries())
    for (const [col, c] of r.columns.entries()) {
      const index = c.blocks.findIndex((b) => b.id === id);
      if (index !== -1) return { row, col, index };
    }
  return undefined;
}

/** Spans shared out evenly over 12: 5 columns → 3, 3, 2, 2, 2. */
export function evenSpans(n: number): number[] {
  const base = Math.floor(12 / n);
  const extra = 12 - base * n;
  return Array.from({ length: n }, (_, i) => base + (i < extra ? 1 : 0));
}

function clone(layout: Layout): Layout {
  return {
    rows: layout.rows.map((r) => ({
      columns: r.columns.map((c) => ({ span: c.span, blocks: [...c.blocks] })),
    })),
  };
}

/** Drops empty columns and rows; rows whose column count changed get even widths. */
function normalize(layout: Layout): Layout {
  const rows: Row[] = [];
  for (const r of layout.rows) {
    const columns = r.columns.filter((c) => c.blocks.length > 0);
    if (!columns.length) continue;
    const total = columns.reduce((n, c) => n + (c.span || 0), 0);
    if (columns.length !== r.columns.length || total > 12 || columns.some((c) => !c.span)) {
      const spans = evenSpans(columns.length);
      rows.push({ columns: columns.map((c, i) => ({ ...c, span: spans[i]! })) });
    } else rows.push({ columns });
  }
  return { rows };
}

export function removeBlock(layout: Layout, id: string): { layout: Layout; block?: Block } {
  const at = findBlock(layout, id);
  if (!at) return { layout };
  const next = clone(layout);
  const [block] = next.rows[at.row]!.columns[at.col]!.blocks.splice(at.index, 1);
  return { layout: normalize(next), block };
}

/** Inserts a block at a target; a target that no longer exists puts it in a new last row. */
export function insertBlock(layout: Layout, block: Block, target: Target): Layout {
  const next = clone(layout);
  if (target.kind === "row") {
    const index = Math.max(0, Math.min(target.index, next.rows.length));
    next.rows.splice(index, 0, { columns: [{ span: 12, blocks: [block] }] });
    return normalize(next);
  }
  const at = findBlock(next, target.blockId);
  if (!at) {
    next.rows.push({ columns: [{ span: 12, blocks: [block] }] });
    return normalize(next);
  }
  const row = next.rows[at.row]!;
  if (target.kind === "before" || target.kind === "after") {
    row.columns[at.col]!.blocks.splice(at.index + (target.kind === "after" ? 1 : 0), 0, block);
    return normalize(next);
  }
  if (row.columns.length >= 12) {
    row.columns[at.col]!.blocks.push(block);
    return normalize(next);
  }
  row.columns.splice(at.col + (target.kind === "right" ? 1 : 0), 0, { span: 0, blocks: [block] });
  const spans = evenSpans(row.columns.length);
  row.columns.forEach((c, i) => {
    c.span = spans[i]!;
  });
  return normalize(next);
}

export function moveBlock(layout: Layout, id: string, target: Target): Layout {
  if ("blockId" in target && target.blockId === id) return layout;
  // A new row index counts rows before the block is taken out.
  const at = findBlock(layout, id);
  if (!at) return layout;
  const { layout: without, block } = removeBlock(layout, id);
  if (!block) return layout;
  if (target.kind === "row") {
    const rowVanished = without.rows.length < layout.rows.length;
    const index = rowVanished && at.row < target.index ? target.index - 1 : target.index;
    return insertBlock(without, block, { kind: "row", index });
  }
  return insertBlock(without, block, target);
}

/** Up or down one place: within the column, then into the row above or below as a new row. */
export function moveStep(layout: Layout, id: string, dir: -1 | 1): Layout {
  const at = findBlock(layout, id);
  if (!at) return layout;
  const col = layout.rows[at.row]!.columns[at.col]!;
  const swapWith = at.index + dir;
  if (swapWith >= 0 && swapWith < col.blocks.length) {
    const next = clone(layout);
    const blocks = next.rows[at.row]!.columns[at.col]!.blocks;
    [blocks[at.index], blocks[swapWith]] = [blocks[swapWith]!, blocks[at.index]!];
    return next;
  }
  const onlyBlockInRow = layout.rows[at.row]!.columns.length === 1 && col.blocks.length === 1;
  if (onlyBlockInRow) {
    // Swap whole rows.
    const other = at.row + dir;
    if (other < 0 || other >= layout.rows.length) return layout;
    const next = clone(layout);
    [next.rows[at.row], next.rows[other]] = [next.rows[other]!, next.rows[at.row]!];
    return next;
  }
  // Leave the row: a row of its own just above or below it.
  return moveBlock(layout, id, { kind: "row", index: dir === -1 ? at.row : at.row + 1 });
}

export function updateBlock(layout: Layout, id: string, props: Record<string, unknown>): Layout {
  return {
    rows: layout.rows.map((r) => ({
      columns: r.columns.map((c) => ({
        span: c.span,
        blocks: c.blocks.map((b) => (b.id === id ? { ...b, ...props, id: b.id, type: b.type } : b)),
      })),
    })),
  };
}

function newBlockId(): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return `b-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** A new block of a type with its fields' defaults. */
export function newBlock(def: Pick<BlockType, "type" | "fields">): Block {
  const block: Block = { id: newBlockId(), type: def.type };
  for (const f of def.fields) if (f.default !== undefined && f.type !== "gallery") block[f.key] = f.default;
  return block;
}
