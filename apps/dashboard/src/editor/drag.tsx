/** Drag and drop of blocks over the frame: drop targets, the block overlay boxes and the row gaps. */
import { type CollisionDetection, useDraggable, useDroppable } from "@dnd-kit/core";
import { MoveButtons } from "../components/MoveButtons.js";
import type { Block } from "../api.js";
import type { Target } from "./layout-ops.js";

import type { Rect } from "./frame-geometry.js";

const PRIORITY = (id: string) => (id.startsWith("side:") ? 0 : id.startsWith("gap:") ? 1 : 2);

/** The drop zone under the pointer: column edges first, then the gaps between rows, then blocks. */
export const pointerFirst: CollisionDetection = ({
  droppableContainers,
  droppableRects,
  pointerCoordinates,
}) => {
  if (!pointerCoordinates) return [];
  const { x, y } = pointerCoordinates;
  const hits = droppableContainers.filter((c) => {
    const r = droppableRects.get(c.id);
    return r && x >= r.left && x <= r.left + r.width && y >= r.top && y <= r.top + r.height;
  });
  hits.sort((a, b) => PRIORITY(String(a.id)) - PRIORITY(String(b.id)));
  return hits.slice(0, 1).map((c) => ({ id: c.id, data: { droppableContainer: c, value: 0 } }));
};

export function targetFor(
  overId: string,
  pointerY: number,
  overRect: { top: number; height: number } | undefined,
): Target | undefined {
  const [kind, a, b] = overId.split(":");
  if (kind === "gap") return { kind: "row", index: Number(a) };
  if (kind === "side") return { kind: b === "left" ? "left" : "right", blockId: a! };
  if (kind === "block" && overRect)
    return { kind: pointerY < overRect.top + overRect.height / 2 ? "before" : "after", blockId: a! };
  return undefined;
}

export function BlockBox({
  block,
  rect,
  label,
  selected,
  dropHint,
  onSelect,
  onEdit,
  onDelete,
  onMove,
  dragging,
}: {
  block: Block;
  rect: Rect;
  label: string;
  selected: boolean;
  dropHint?: string;
  onSelect: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onMove: (d: -1 | 1) => void;
  dragging: boolean;
}) {
  const drag = useDraggable({ id: block.id });
  const drop = useDroppable({ id: `block:${block.id}` });
  const left = useDroppable({ id: `side:${block.id}:left` });
  const right = useDroppable({ id: `side:${block.id}:right` });
  const edge = Math.min(28, rect.width / 5);
  return (
    <div
      ref={drop.setNodeRef}
      className={`block-box${selected ? " selected" : ""}${dropHint ? ` drop-${dropHint}` : ""}${drag.isDragging ? " dragging" : ""}`}
      style={{ top: rect.top, left: rect.left, width: rect.width, height: rect.height }}
      data-overlay-for={block.id}
    >
      <div ref={left.setNodeRef} style={{ position: "absolute", left: 0, top: 0, bottom: 0, width: edge }} />
      <div
        ref={right.setNodeRef}
        style={{ position: "absolute", right: 0, top: 0, bottom: 0, width: edge }}
      />
      <button
        type="button"
        className="block-select"
        aria-label={`Select ${label} block`}
        aria-pressed={selected}
        onClick={onSelect}
        onDoubleClick={onEdit}
      />
      {selected && !dragging ? (
        <>
          <span className="block-label">{label}</span>
          <div className="block-tools">
            <button
              type="button"
              className="btn handle"
              ref={drag.setNodeRef}
              aria-label={`Drag ${label} block`}
              {...drag.attributes}
              {...drag.listeners}
            >
              ⠿ Move
            </button>
            <button type="button" className="btn" onClick={onEdit} aria-label={`Edit ${label} block`}>
              Edit
            </button>
            <MoveButtons name={`${label} block`} onMove={onMove} className="btn" />
            <button type="button" className="btn" onClick={onDelete} aria-label={`Delete ${label} block`}>
              Delete
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}

export function RowGap({ index, top, active }: { index: number; top: number; active: boolean }) {
  const drop = useDroppable({ id: `gap:${index}` });
  return (
    <div
      ref={drop.setNodeRef}
      className={`row-gap${active ? " active" : ""}`}
      style={{ top: top - 7 }}
      aria-hidden="true"
    />
  );
}
