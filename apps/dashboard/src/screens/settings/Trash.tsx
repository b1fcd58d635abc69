/**
 * Settings → Trash: what was deleted in the last 30 days (pages, collections, posts and other
 * items, products, forms, media files), who deleted it and when, and how many days are left before
 * it is deleted for good. Restore brings it back (saying so when it came back at another URL);
 * Delete for good asks first.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { del } from "../../api.js";
import { ConfirmDelete } from "../../components/ConfirmDelete.js";
import {
  type TrashEntry,
  listTrash,
  restoreFromTrash,
  trashKey,
  TRASH_WRITE,
} from "../../components/history/history-api.js";
import "../../components/history/history.css";
import { Can } from "../../components/permissions.js";
import {
  ErrorNotice,
  ListTable,
  Loading,
  Notice,
  PageHead,
  formatDate,
  useSiteId,
} from "../../components/ui.js";

const TYPE_NAMES: Record<string, string> = {
  page: "Page",
  collection: "Collection",
  item: "Post or item",
  product: "Product",
  form: "Form",
  media: "Media file",
};

/** The queries a restore or a purge of each type changes. */
const LISTS: Record<string, string[]> = {
  page: ["pages"],
  collection: ["pages"],
  item: ["items", "pages"],
  media: ["media"],
  product: ["products", "pages"],
  form: ["forms"],
};

const DAY_MS = 86_400_000;

/** Whole days until the purge, never below 0. */
export function daysLeft(purgeAfter: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(purgeAfter).getTime() - now) / DAY_MS));
}

/** Where the dashboard edits a restored thing (undefined for an item, whose page is not known here). */
function editorOf(siteId: string, e: TrashEntry): string | undefined {
  if (e.entityType === "product") return `/sites/${siteId}/products/${e.entityId}`;
  if (e.entityType === "page" || e.entityType === "collection") return `/sites/${siteId}/pages/${e.entityId}`;
  if (e.entityType === "form") return `/sites/${siteId}/forms/${e.entityId}`;
  if (e.entityType === "media") return `/sites/${siteId}/media`;
  return undefined;
}

export function Trash() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const trash = useQuery({ queryKey: trashKey(siteId), queryFn: () => listTrash(siteId) });
  const [purging, setPurging] = useState<TrashEntry | undefined>();
  const [done, setDone] = useState<{ entry: TrashEntry; notice?: string; purged?: boolean } | undefined>();
  const refresh = (type: string) => {
    for (const key of [...(LISTS[type] ?? []), "trash"])
      void queryClient.invalidateQueries({ queryKey: [key, siteId] });
  };
  const restore = useMutation({
    mutationFn: (e: TrashEntry) => restoreFromTrash(siteId, e.entityType, e.entityId),
    onSuccess: (r, e) => {
      setDone({ entry: { ...e, url: r.restored.url }, notice: r.notice });
      refresh(e.entityType);
    },
  });
  const purge = useMutation({
    mutationFn: (e: TrashEntry) => del(`/api/owner/sites/${siteId}/trash/${e.entityType}/${e.entityId}`),
    onSuccess: (_r, e) => {
      setPurging(undefined);
      setDone({ entry: e, purged: true });
      refresh(e.entityType);
    },
  });
  const restoredLink = done && !done.purged ? editorOf(siteId, done.entry) : undefined;
  return (
    <>
      <PageHead
        title="Trash"
        sub="What was deleted in the last 30 days. Restore brings it back as it was, with its variants, images, items and address; after 30 days it is deleted for good."
      />
      <ErrorNotice error={restore.error} />
      {done ? (
        done.purged ? (
          <Notice kind="ok">“{done.entry.title}” was deleted for good.</Notice>
        ) : (
          <Notice kind={done.notice ? "warn" : "ok"}>
            “{done.entry.title}” is back{done.entry.url ? ` at ${done.entry.url}` : ""}.
            {done.notice ? ` ${done.notice}` : ""}{" "}
            {restoredLink ? <Link to={restoredLink}>Open it</Link> : null}
          </Notice>
        )
      ) : null}
      {trash.isLoading ? <Loading what="Loading the trash" /> : null}
      <ErrorNotice error={trash.error} />
      <div className="trash-list">
        <ListTable
          columns={[
            { label: "Name" },
            { label: "Type", className: "hide-phone" },
            { label: "Deleted" },
            { label: "Days left", className: "num" },
            { label: "Actions", srOnly: true },
          ]}
          rows={trash.data}
          empty="The trash is empty. Whatever you delete is kept here for 30 days."
          row={(e) => (
            <tr key={e.id}>
              <td style={{ overflowWrap: "anywhere", minWidth: "8rem" }}>
                <strong>{e.title || "Untitled"}</strong>
                <span className="muted small" style={{ display: "block" }}>
                  <span className="show-phone-inline">{TYPE_NAMES[e.entityType] ?? e.entityType}</span>
                  {e.url ? <span> {e.url}</span> : null}
                </span>
              </td>
              <td className="hide-phone">{TYPE_NAMES[e.entityType] ?? e.entityType}</td>
              <td className="trash-when" style={{ minWidth: "7rem" }}>
                <span>{e.deletedBy ?? ""}</span>
                <span className="muted small" style={{ display: "block" }}>
                  {formatDate(e.deletedAt, true)}
                </span>
              </td>
              <td className="num trash-days">
                {daysLeft(e.purgeAfter)}
                <span className="show-phone-inline-days"> days left</span>
              </td>
              <td className="trash-act">
                <Can permission={TRASH_WRITE[e.entityType] ?? "content.write"}>
                  <div className="btn-row trash-actions">
                    <button
                      type="button"
                      className="btn small"
                      disabled={restore.isPending}
                      onClick={() => {
                        setDone(undefined);
                        restore.mutate(e);
                      }}
                      aria-label={`Restore ${e.title}`}
                    >
                      Restore
                    </button>
                    <button
                      type="button"
                      className="btn small danger"
                      onClick={() => {
                        purge.reset();
                        setPurging(e);
                      }}
                      aria-label={`Delete ${e.title} for good`}
                    >
                      Delete for good
                    </button>
                  </div>
                </Can>
              </td>
            </tr>
          )}
        />
      </div>
      {purging ? (
        <ConfirmDelete
          title={`Delete “${purging.title}” for good?`}
          action="Delete for good"
          pending={purge.isPending}
          error={purge.error}
          onConfirm={() => purge.mutate(purging)}
          onClose={() => setPurging(undefined)}
        >
          <p>
            It is removed from the trash now and cannot be restored
            {purging.entityType === "media" ? "; the file is deleted too" : ""}.
          </p>
        </ConfirmDelete>
      ) : null}
    </>
  );
}
