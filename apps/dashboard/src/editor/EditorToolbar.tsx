/** The page editor's toolbar: back to pages, the save state, undo and redo, preview width, safe mode, add and publish. */
import type { ReactNode } from "react";
import { Can } from "../components/permissions.js";
import { Link } from "react-router";
import { DeviceToggle } from "../components/DeviceToggle.js";

export type SaveState = "saved" | "unsaved" | "saving" | "error" | "published";

export function EditorToolbar({
  siteId,
  title,
  saveState,
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  device,
  setDevice,
  safeMode,
  setSafeMode,
  onAdd,
  onPublish,
  publishing,
  ready,
  liveUrl,
  history,
}: {
  siteId: string;
  title: string;
  saveState: SaveState;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  device: "desktop" | "phone";
  setDevice: (d: "desktop" | "phone") => void;
  safeMode: boolean;
  setSafeMode: (on: boolean) => void;
  onAdd: () => void;
  onPublish: () => void;
  publishing: boolean;
  ready: boolean;
  liveUrl: string | undefined;
  /** The History button of the page. */
  history?: ReactNode;
}) {
  return (
    <div className="editor-bar" role="toolbar" aria-label="Page editor">
      <Link className="btn small" to={`/sites/${siteId}/pages`}>
        ← Pages
      </Link>
      <h1 className="title">{title}</h1>
      <output className={`save-state${saveState === "error" ? " error" : ""}`} aria-live="polite">
        {saveState === "saving"
          ? "Saving…"
          : saveState === "unsaved"
            ? "Unsaved changes"
            : saveState === "error"
              ? "Not saved"
              : saveState === "published"
                ? "Published"
                : "Draft saved"}
      </output>
      <button type="button" className="btn small" onClick={onUndo} disabled={!canUndo}>
        Undo
      </button>
      <button type="button" className="btn small" onClick={onRedo} disabled={!canRedo}>
        Redo
      </button>
      <fieldset className="btn-row hide-phone" style={{ border: 0, padding: 0, margin: 0 }}>
        <legend className="sr-only">Preview width</legend>
        <DeviceToggle device={device} setDevice={setDevice} />
      </fieldset>
      <label className="check hide-phone" style={{ margin: 0 }}>
        <input type="checkbox" checked={safeMode} onChange={(e) => setSafeMode(e.target.checked)} />
        <span>Safe mode</span>
      </label>
      {history}
      <Can permission="content.write">
        <button type="button" className="btn small" onClick={onAdd}>
          Add block
        </button>
        <button
          type="button"
          className="btn accent small"
          onClick={onPublish}
          disabled={publishing || !ready}
        >
          {publishing ? "Publishing…" : "Publish"}
        </button>
      </Can>
      {liveUrl ? (
        <a className="btn small hide-phone" href={liveUrl} target="_blank" rel="noreferrer">
          View live
        </a>
      ) : null}
    </div>
  );
}
