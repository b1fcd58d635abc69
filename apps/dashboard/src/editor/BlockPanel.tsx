/** The settings panel of the selected block: its fields from the block type, and delete. */
import type { Block, BlockType } from "../api.js";
import { FieldList } from "../components/fields.js";
import { MoveButtons } from "../components/MoveButtons.js";

export function BlockPanel({
  block,
  type,
  onChange,
  onDelete,
  onMove,
  onClose,
}: {
  block: Block;
  type: BlockType;
  onChange: (props: Record<string, unknown>, key?: string) => void;
  onDelete: () => void;
  /** Up or down one place on the page (the keyboard's way to move, beside dragging). */
  onMove: (by: -1 | 1) => void;
  onClose: () => void;
}) {
  return (
    <>
      <h2>
        {type.label} block
        <button type="button" className="btn ghost small" onClick={onClose}>
          Close
        </button>
      </h2>
      <p className="muted small">{type.description}</p>
      <FieldList
        fields={type.fields}
        values={block}
        onChange={(k, v) => onChange({ [k]: v }, `${block.id}:${k}`)}
      />
      <div className="btn-row">
        <MoveButtons name={`${type.label} block`} onMove={onMove} className="btn small" />
        <button type="button" className="btn danger small" onClick={onDelete}>
          Delete block
        </button>
      </div>
    </>
  );
}
