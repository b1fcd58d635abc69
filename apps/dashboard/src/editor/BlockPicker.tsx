/** The add-block picker: the block types by group, with the page's block limit. */
import type { BlockType } from "../api.js";
import { Modal, Notice } from "../components/ui.js";
import { BLOCK_LIMIT_MESSAGE, MAX_BLOCKS } from "./layout-ops.js";

export function BlockPicker({
  types,
  onPick,
  onClose,
  blockCount,
}: {
  types: BlockType[];
  onPick: (t: BlockType) => void;
  onClose: () => void;
  blockCount: number;
}) {
  const groups = [...new Set(types.map((t) => t.group))];
  return (
    <Modal title="Add a block" onClose={onClose} wide>
      {blockCount >= MAX_BLOCKS ? <Notice kind="warn">{BLOCK_LIMIT_MESSAGE}</Notice> : null}
      {groups.map((g) => (
        <div className="picker-group" key={g}>
          <h3>{g}</h3>
          <div className="picker-grid">
            {types
              .filter((t) => t.group === g)
              .map((t) => (
                <button
                  type="button"
                  key={t.type}
                  disabled={!t.available || blockCount >= MAX_BLOCKS}
                  onClick={() => onPick(t)}
                  aria-label={`Add ${t.label} block`}
                >
                  <strong>{t.label}</strong>
                  <span>{t.available ? t.description : `Needs a plan with the ${t.featureName}.`}</span>
                </button>
              ))}
          </div>
        </div>
      ))}
    </Modal>
  );
}
