/**
 * The add-block picker: the block types by group, with the page's block limit. It can open before
 * the types have arrived; it then says it is loading them.
 */
import type { BlockType } from "../api.js";
import { Loaded, Modal, Notice } from "../components/ui.js";
import { BLOCK_LIMIT_MESSAGE, MAX_BLOCKS } from "./layout-ops.js";

export function BlockPicker({
  types,
  onPick,
  onClose,
  blockCount,
}: {
  types: { data: BlockType[] | undefined; error: unknown; isLoading: boolean };
  onPick: (t: BlockType) => void;
  onClose: () => void;
  blockCount: number;
}) {
  return (
    <Modal title="Add a block" onClose={onClose} wide>
      {blockCount >= MAX_BLOCKS ? <Notice kind="warn">{BLOCK_LIMIT_MESSAGE}</Notice> : null}
      <Loaded query={types}>
        {(list) => <PickerGroups types={list} onPick={onPick} blockCount={blockCount} />}
      </Loaded>
    </Modal>
  );
}

function PickerGroups({
  types,
  onPick,
  blockCount,
}: {
  types: BlockType[];
  onPick: (t: BlockType) => void;
  blockCount: number;
}) {
  const groups = [...new Set(types.map((t) => t.group))];
  return (
    <>
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
                  aria-describedby={`pick-${t.type}`}
                >
                  {/* Named "Add Text block": the label shown, inside the words said (WCAG 2.5.3). */}
                  <span className="sr-only">Add </span>
                  <strong>{t.label}</strong>
                  <span className="sr-only"> block</span>
                  {/* Read as the button's description, not its name. */}
                  <span id={`pick-${t.type}`} aria-hidden="true">
                    {t.available ? t.description : `Needs a plan with the ${t.featureName}.`}
                  </span>
                </button>
              ))}
          </div>
        </div>
      ))}
    </>
  );
}
