/**
 * An older version of a page or post shown as the site rendered it (the owner API's
 * `…/history/:versionId/view`: the site's theme, header and footer around the version's content),
 * under a bar that says which version it is. Read-only: links, buttons and forms in the frame do
 * nothing, so the owner cannot wander off to today's site while the bar names an old version.
 */
import { useState } from "react";
import { Can } from "../permissions.js";
import { formatDate } from "../ui.js";
import type { Permission } from "@atelier/owner-api";
import type { Version } from "./history-api.js";

/** Whether a version of this entity can be shown on the site (pages and posts). */
export const shownOnSite = (entity: string) => entity.startsWith("page:") || entity.startsWith("item:");

/** Stops every click, submit and Enter in the frame's document: nothing in it can act. */
function freeze(frame: HTMLIFrameElement) {
  const doc = frame.contentDocument;
  if (!doc) return;
  const stop = (e: Event) => {
    const target = e.target as Element | null;
    if (e.type === "keydown" && (e as KeyboardEvent).key !== "Enter") return;
    if (e.type === "click" && !target?.closest?.("a, button, input, select, textarea, label, summary"))
      return;
    e.preventDefault();
    e.stopPropagation();
  };
  for (const type of ["click", "submit", "keydown"]) doc.addEventListener(type, stop, true);
}

export function VersionFrame({
  siteId,
  version,
  current,
  write,
  onRestore,
  onBack,
}: {
  siteId: string;
  version: Version;
  current: boolean;
  write: Permission;
  onRestore: () => void;
  onBack: () => void;
}) {
  const [loaded, setLoaded] = useState(false);
  return (
    <div className="history-viewing">
      <div className="history-viewing-bar" role="status">
        <span>
          {current ? "Viewing the current version" : "Viewing the version"} of{" "}
          <strong>{formatDate(version.at, true)}</strong> by <strong>{version.actor.name}</strong>
          <span className="muted"> · read-only</span>
        </span>
        <span className="btn-row">
          {current ? null : (
            <Can permission={write}>
              <button type="button" className="btn small primary" onClick={onRestore}>
                Restore
              </button>
            </Can>
          )}
          <button type="button" className="btn small" onClick={onBack}>
            Back to current
          </button>
        </span>
      </div>
      <div className="history-viewing-frame" aria-busy={!loaded}>
        <iframe
          title={`The page as it was on ${formatDate(version.at, true)}`}
          src={`/api/owner/sites/${siteId}/history/${version.id}/view`}
          onLoad={(e) => {
            freeze(e.currentTarget);
            setLoaded(true);
          }}
        />
      </div>
    </div>
  );
}
