/** What changed between two versions: each block or field added, removed or changed, text marked. */
import type { FieldChange } from "./history-api.js";
import { pathLabel, shortValue } from "./text.js";

const BADGE = { added: "ok", removed: "danger", changed: "warn" } as const;

export function ChangeList({ changes }: { changes: FieldChange[] }) {
  if (!changes.length) return <p className="muted">No differences: the two are the same.</p>;
  return (
    <ul className="history-changes" aria-label="Differences">
      {changes.map((c) => (
        <li key={`${c.path}:${c.change}`}>
          <div className="history-change-head">
            <span className={`badge ${BADGE[c.change]}`}>{c.change}</span>
            <span className="history-path">{pathLabel(c.path)}</span>
          </div>
          {c.text ? (
            <p className="history-text">
              {c.text.map((t, i) =>
                t.op === "added" ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
                  <ins key={i}>{t.text}</ins>
                ) : t.op === "removed" ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
                  <del key={i}>{t.text}</del>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never move
                  <span key={i}>{t.text}</span>
                ),
              )}
            </p>
          ) : c.change === "changed" ? (
            <p className="history-text">
              <del>{shortValue(c.before)}</del> → <ins>{shortValue(c.after)}</ins>
            </p>
          ) : (
            <p className="history-text">
              {c.change === "added" ? <ins>{shortValue(c.after)}</ins> : <del>{shortValue(c.before)}</del>}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
