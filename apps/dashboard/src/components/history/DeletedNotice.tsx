/**
 * The "deleted" notice of a list screen after a delete (`?deleted=<name>&trash=<type>:<id>` in its
 * address), with a Restore link that brings the thing back from the trash at once, and says so when
 * it came back at another URL.
 */
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { Can } from "../permissions.js";
import { ErrorNotice, Notice, useSiteId } from "../ui.js";
import { TRASH_WRITE, restoreFromTrash, trashKey } from "./history-api.js";
import "./history.css";

/** The address of a list screen that shows the notice of `name`, of `type`, deleted. */
export function afterDeleteUrl(list: string, name: string, type: string, id: string): string {
  const q = new URLSearchParams({ deleted: name, trash: `${type}:${id}` });
  return `${list}${list.includes("?") ? "&" : "?"}${q}`;
}

export function DeletedNotice({ what, lists }: { what: string; lists: QueryKey[] }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const name = params.get("deleted");
  const [type = "", id = ""] = (params.get("trash") ?? "").split(":");
  const restore = useMutation({
    mutationFn: () => restoreFromTrash(siteId, type, id),
    onSuccess: () => {
      for (const queryKey of [...lists, trashKey(siteId)]) void queryClient.invalidateQueries({ queryKey });
    },
  });
  if (name === null) return null;
  if (restore.data)
    return (
      <Notice kind="ok">
        The {what} “{restore.data.restored.title}” is back.
        {restore.data.notice ? ` ${restore.data.notice}` : ""}{" "}
        <button type="button" className="link-button" onClick={() => setParams({}, { replace: true })}>
          Dismiss
        </button>
      </Notice>
    );
  return (
    <>
      <ErrorNotice error={restore.error} />
      <Notice kind="ok">
        The {what} “{name}” was moved to the trash. It is kept there for 30 days.{" "}
        {type && id ? (
          <Can permission={TRASH_WRITE[type] ?? "content.write"}>
            <button
              type="button"
              className="link-button"
              disabled={restore.isPending}
              onClick={() => restore.mutate()}
            >
              {restore.isPending ? "Restoring…" : "Restore"}
            </button>{" "}
            ·{" "}
          </Can>
        ) : null}
        <Link to={`/sites/${siteId}/settings/trash`}>Open the trash</Link>
      </Notice>
    </>
  );
}
