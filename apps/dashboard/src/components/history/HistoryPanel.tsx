/**
 * The History panel shared by the page, post, product, Design and template editors: the versions of
 * one thing, newest first (who, when, what changed), 50 at a time; a version's content as it was;
 * a comparison of any two (or of one with now); Restore, which records a new version and, for a
 * page, asks whether to restore to the draft or publish at once.
 */
import type { Permission } from "@atelier/owner-api";
import {
  type QueryKey,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Can } from "../permissions.js";
import { ErrorNotice, Loading, Modal, Notice, formatDate, useSiteId } from "../ui.js";
import { ChangeList } from "./ChangeList.js";
import {
  type Content,
  type Version,
  compareVersions,
  getVersion,
  historyKey,
  listVersions,
  restoreVersion,
} from "./history-api.js";
import { VersionContent } from "./VersionContent.js";
import { VersionFrame, shownOnSite } from "./VersionFrame.js";
import "./history.css";

export interface HistoryPanelProps {
  /** `<type>:<id>` of the history API, e.g. `product:abc` or `template:footer`. */
  entity: string;
  /** What the history is of, for the panel's title, e.g. "Linen shirt". */
  label: string;
  /** The permission a restore needs; without it the Restore buttons are not shown. */
  write: Permission;
  /** Queries a restore changes (the editor's own record, its list). */
  invalidate?: QueryKey[];
  /** Runs after a restore, e.g. to load the restored content into the editor. */
  onRestored?: (version: Version) => void;
  /** A preview of the version beyond its fields (a template shown on the site). */
  preview?: (content: Content, version: Version) => ReactNode;
  /** The button's class: `btn small` unless given. */
  buttonClass?: string;
}

type View =
  | { at: "list" }
  | { at: "preview"; version: Version }
  | { at: "compare"; from: Version; to?: Version }
  | { at: "restore"; version: Version };

/** The History button and, once pressed, the panel. */
export function HistoryButton(props: HistoryPanelProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={props.buttonClass ?? "btn small"} onClick={() => setOpen(true)}>
        History
      </button>
      {open ? <HistoryPanel {...props} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

const isPage = (entity: string) => entity.startsWith("page:");

export function HistoryPanel({ onClose, ...p }: HistoryPanelProps & { onClose: () => void }) {
  const siteId = useSiteId();
  const [view, setView] = useState<View>({ at: "list" });
  const [picked, setPicked] = useState<string[]>([]);
  const [note, setNote] = useState("");
  const versions = useInfiniteQuery({
    queryKey: historyKey(siteId, p.entity),
    queryFn: ({ pageParam }) => listVersions(siteId, p.entity, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    staleTime: 0,
  });
  const all = versions.data?.pages.flatMap((pg) => pg.versions) ?? [];
  const byId = new Map(all.map((v) => [v.id, v]));
  const back = () => setView({ at: "list" });

  const title =
    view.at === "list"
      ? `History of ${p.label}`
      : view.at === "compare"
        ? "Compare versions"
        : view.at === "restore"
          ? "Restore this version?"
          : "Version preview";

  const compareSelected = () => {
    const [a, b] = picked.map((id) => byId.get(id)!).sort((x, y) => x.at.localeCompare(y.at));
    if (a) setView({ at: "compare", from: a, to: b });
  };

  return (
    <Modal title={title} onClose={onClose} wide>
      <div className="history-panel">
        {note ? <Notice kind="ok">{note}</Notice> : null}
        {view.at === "list" ? (
          <>
            <div className="history-compare-bar">
              <span className="muted small">
                {picked.length === 0
                  ? "Tick two versions to compare them, or one to compare it with now."
                  : picked.length === 1
                    ? "1 version ticked: compare it with now, or tick another."
                    : "2 versions ticked."}
              </span>
              <button
                type="button"
                className="btn small"
                disabled={picked.length === 0}
                onClick={compareSelected}
              >
                {picked.length === 2 ? "Compare the two" : "Compare with now"}
              </button>
            </div>
            {versions.isLoading ? <Loading what="Loading the history" /> : null}
            <ErrorNotice error={versions.error} />
            {versions.data && !all.length ? (
              <p className="muted">No versions yet: the next save makes the first one.</p>
            ) : null}
            <ol className="history-list" aria-label="Versions, newest first">
              {all.map((v, i) => (
                <li key={v.id} className="history-version">
                  <label className="history-pick">
                    <input
                      type="checkbox"
                      checked={picked.includes(v.id)}
                      disabled={!picked.includes(v.id) && picked.length >= 2}
                      onChange={(e) =>
                        setPicked((now) =>
                          e.target.checked ? [...now, v.id] : now.filter((id) => id !== v.id),
                        )
                      }
                    />
                    <span className="sr-only">Compare {v.summary}</span>
                  </label>
                  <div className="history-what">
                    <strong>{v.summary}</strong>
                    <span className="muted small">
                      {v.actor.name} · {formatDate(v.at, true)}
                      {i === 0 ? " · current" : ""}
                    </span>
                  </div>
                  <div className="btn-row history-actions">
                    <button
                      type="button"
                      className="btn small"
                      onClick={() => setView({ at: "preview", version: v })}
                      aria-label={`Preview: ${v.summary}, ${formatDate(v.at, true)}`}
                    >
                      Preview
                    </button>
                    {i > 0 ? (
                      <Can permission={p.write}>
                        <button
                          type="button"
                          className="btn small"
                          onClick={() => setView({ at: "restore", version: v })}
                          aria-label={`Restore: ${v.summary}, ${formatDate(v.at, true)}`}
                        >
                          Restore
                        </button>
                      </Can>
                    ) : null}
                  </div>
                </li>
              ))}
            </ol>
            {versions.hasNextPage ? (
              <button
                type="button"
                className="btn small"
                disabled={versions.isFetchingNextPage}
                onClick={() => void versions.fetchNextPage()}
              >
                {versions.isFetchingNextPage ? "Loading…" : "Older versions"}
              </button>
            ) : null}
          </>
        ) : null}
        {view.at === "preview" ? (
          <VersionPreview
            siteId={siteId}
            entity={p.entity}
            version={view.version}
            current={all[0]?.id === view.version.id}
            write={p.write}
            preview={p.preview}
            onBack={back}
            onRestore={() => setView({ at: "restore", version: view.version })}
            onCompare={() => setView({ at: "compare", from: view.version })}
          />
        ) : null}
        {view.at === "compare" ? (
          <Compare siteId={siteId} from={view.from} to={view.to} onBack={back} />
        ) : null}
        {view.at === "restore" ? (
          <RestoreStep
            siteId={siteId}
            entity={p.entity}
            version={view.version}
            invalidate={p.invalidate}
            onBack={back}
            onDone={(v, publish) => {
              setPicked([]);
              setNote(
                isPage(p.entity)
                  ? publish
                    ? "Restored and published. The restore is a new version in the history."
                    : "Restored to the draft: publish it when you are ready. The restore is a new version in the history."
                  : "Restored. The restore is a new version in the history.",
              );
              back();
              p.onRestored?.(v);
            }}
          />
        ) : null}
      </div>
    </Modal>
  );
}

function Heading({ version, onBack }: { version: Version; onBack: () => void }) {
  return (
    <div className="history-head">
      <button type="button" className="btn small" onClick={onBack}>
        ← All versions
      </button>
      <div>
        <strong>{version.summary}</strong>
        <div className="muted small">
          {version.actor.name} · {formatDate(version.at, true)}
        </div>
      </div>
    </div>
  );
}

function VersionPreview({
  siteId,
  entity,
  version,
  current,
  write,
  preview,
  onBack,
  onRestore,
  onCompare,
}: {
  siteId: string;
  entity: string;
  version: Version;
  current: boolean;
  write: Permission;
  preview?: HistoryPanelProps["preview"];
  onBack: () => void;
  onRestore: () => void;
  onCompare: () => void;
}) {
  const loaded = useQuery({
    queryKey: ["history-version", siteId, version.id],
    queryFn: () => getVersion(siteId, version.id),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (shownOnSite(entity)) {
    // A page or post: on the site as it looked then, its fields below.
    return (
      <>
        <VersionFrame
          siteId={siteId}
          version={version}
          current={current}
          write={write}
          onRestore={onRestore}
          onBack={onBack}
        />
        {current ? null : (
          <div className="btn-row">
            <button type="button" className="btn small" onClick={onCompare}>
              Compare with now
            </button>
          </div>
        )}
        <ErrorNotice error={loaded.error} />
        {loaded.data ? (
          <details className="history-details">
            <summary>The version's blocks and fields</summary>
            <VersionContent content={loaded.data.content} entity={loaded.data.entity} />
          </details>
        ) : null}
      </>
    );
  }
  return (
    <>
      <Heading version={version} onBack={onBack} />
      <div className="btn-row">
        {current ? (
          <span className="badge ok">Current version</span>
        ) : (
          <>
            <button type="button" className="btn small" onClick={onCompare}>
              Compare with now
            </button>
            <Can permission={write}>
              <button type="button" className="btn small primary" onClick={onRestore}>
                Restore this version
              </button>
            </Can>
          </>
        )}
      </div>
      {loaded.isLoading ? <Loading what="Opening the version" /> : null}
      <ErrorNotice error={loaded.error} />
      {loaded.data ? (
        <section className="history-preview" aria-label="The version's content, read-only">
          {preview?.(loaded.data.content, version)}
          <VersionContent content={loaded.data.content} entity={loaded.data.entity} />
        </section>
      ) : null}
    </>
  );
}

function Compare({
  siteId,
  from,
  to,
  onBack,
}: {
  siteId: string;
  from: Version;
  to?: Version;
  onBack: () => void;
}) {
  const diff = useQuery({
    queryKey: ["history-compare", siteId, from.id, to?.id ?? "now"],
    queryFn: () => compareVersions(siteId, from.id, to?.id),
    staleTime: 0,
  });
  return (
    <>
      <div className="history-head">
        <button type="button" className="btn small" onClick={onBack}>
          ← All versions
        </button>
        <p className="small">
          From <strong>{formatDate(from.at, true)}</strong> ({from.summary}) to{" "}
          {to ? (
            <>
              <strong>{formatDate(to.at, true)}</strong> ({to.summary})
            </>
          ) : (
            <strong>now</strong>
          )}
        </p>
      </div>
      {diff.isLoading ? <Loading what="Comparing" /> : null}
      <ErrorNotice error={diff.error} />
      {diff.data ? <ChangeList changes={diff.data.changes} /> : null}
    </>
  );
}

function RestoreStep({
  siteId,
  entity,
  version,
  invalidate,
  onBack,
  onDone,
}: {
  siteId: string;
  entity: string;
  version: Version;
  invalidate?: QueryKey[];
  onBack: () => void;
  onDone: (v: Version, publish: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (publish: boolean) => restoreVersion(siteId, version.id, publish),
    onSuccess: async (r, publish) => {
      await queryClient.invalidateQueries({ queryKey: historyKey(siteId, entity) });
      for (const queryKey of invalidate ?? []) void queryClient.invalidateQueries({ queryKey });
      onDone(r.version, publish);
    },
  });
  const page = isPage(entity);
  return (
    <>
      <Heading version={version} onBack={onBack} />
      <ErrorNotice error={restore.error} />
      <p>
        {page
          ? "The page's content goes back to this version. Restore it to the draft to look it over before publishing, or publish it at once."
          : "This version becomes the current one. Nothing is lost: the restore is recorded as a new version, and the state before it stays in the history."}
      </p>
      <div className="btn-row">
        <button type="button" className="btn" onClick={onBack}>
          Cancel
        </button>
        {page ? (
          <>
            <button
              type="button"
              className="btn"
              disabled={restore.isPending}
              onClick={() => restore.mutate(false)}
            >
              Restore to the draft
            </button>
            <button
              type="button"
              className="btn primary"
              disabled={restore.isPending}
              onClick={() => restore.mutate(true)}
            >
              Restore and publish
            </button>
          </>
        ) : (
          <button
            type="button"
            className="btn primary"
            disabled={restore.isPending}
            onClick={() => restore.mutate(false)}
          >
            {restore.isPending ? "Restoring…" : "Restore"}
          </button>
        )}
      </div>
    </>
  );
}

/** The History card of an editor's side column: a line on what is kept, then the History button. */
export function HistoryCard(props: HistoryPanelProps) {
  return (
    <div className="card">
      <h2>History</h2>
      <p className="muted small">Every save is kept: look at an earlier version, compare it or restore it.</p>
      <HistoryButton {...props} />
    </div>
  );
}
