/** The page outline: rows, columns and blocks in order, to select one or add another. */
import type { Block, Layout } from "../api.js";
import { CartPillZones } from "./CartPillZones.js";
import { MAX_BLOCKS } from "./layout-ops.js";

export function Outline({
  layout,
  labelOf,
  selected,
  onSelect,
  onAdd,
  blockCount,
  siteId,
  onPillMoved,
}: {
  siteId: string;
  onPillMoved: () => void;
  layout: Layout;
  labelOf: (b: Block) => string;
  selected?: string;
  onSelect: (id: string) => void;
  onAdd: () => void;
  blockCount: number;
}) {
  const summary = (b: Block) => {
    const text =
      typeof b.html === "string"
        ? b.html.replace(/<[^>]+>/g, " ").trim()
        : typeof b.label === "string"
          ? b.label
          : typeof b.title === "string"
            ? b.title
            : "";
    return text ? ` · ${text.slice(0, 40)}` : "";
  };
  return (
    <>
      <h2>Page outline</h2>
      <p className="muted small">
        {blockCount} of {MAX_BLOCKS} blocks. Select a block on the page to edit it; drag its Move handle to
        another place, or to the edge of a block to make a new column.
      </p>
      <ol className="outline">
        {layout.rows.map((r, ri) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no ids
          <li key={ri} className="row-item">
            <div className="row-head">Row {ri + 1}</div>
            <div className="cols">
              {r.columns.map((c, ci) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns have no ids
                <div key={ci} className="col" style={{ flex: c.span }}>
                  {c.blocks.map((b) => (
                    <button
                      type="button"
                      key={b.id}
                      className={`blk${selected === b.id ? " selected" : ""}`}
                      onClick={() => onSelect(b.id)}
                    >
                      {labelOf(b)}
                      <span className="muted">{summary(b)}</span>
                    </button>
                  ))}
                </div>
              ))}
            </div>
          </li>
        ))}
      </ol>
      {!layout.rows.length ? <p className="muted">This page has no blocks yet.</p> : null}
      <button type="button" className="btn primary" onClick={onAdd}>
        Add block
      </button>
      <CartPillZones siteId={siteId} onChanged={onPillMoved} />
    </>
  );
}
