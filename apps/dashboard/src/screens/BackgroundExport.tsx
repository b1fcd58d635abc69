/** Settings → Export, for large sites: the archive is prepared by a background job, with progress. */
import { Can } from "../components/permissions.js";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, get } from "../api.js";
import { ErrorNotice } from "../components/ui.js";
import type { ExportJob } from "@atelier/owner-api";

const megabytes = (n = 0) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export function BackgroundExport({ siteId }: { siteId: string }) {
  const start = useMutation({
    mutationFn: () =>
      api<{ export: ExportJob }>(`/api/owner/sites/${siteId}/exports`, { method: "POST", body: {} }),
  });
  const id = start.data?.export.id;
  const status = useQuery({
    queryKey: ["export", siteId, id],
    enabled: Boolean(id),
    queryFn: () =>
      get<{ export: ExportJob }>(`/api/owner/sites/${siteId}/exports/${id}`).then((r) => r.export),
    refetchInterval: (q) =>
      q.state.data?.state === "done" || q.state.data?.state === "failed" ? false : 1000,
  });
  const s = status.data ?? start.data?.export;
  return (
    <div className="background-export">
      <p className="muted">
        A large site (thousands of products, gigabytes of media) can be prepared in the background instead;
        you can leave this page and come back.
      </p>
      <Can permission="settings.write">
        <button
          type="button"
          className="btn"
          onClick={() => start.mutate()}
          disabled={start.isPending || s?.state === "running"}
        >
          Prepare archive in the background
        </button>
      </Can>
      <ErrorNotice error={start.error ?? status.error} />
      {s ? (
        <p aria-live="polite">
          {s.state === "queued" ? "Waiting to start…" : null}
          {s.state === "running"
            ? `Preparing: ${s.rows} records and ${s.mediaFiles} media files so far…`
            : null}
          {s.state === "failed" ? `The export failed: ${s.error ?? "unknown error"}` : null}
          {s.state === "done" && s.downloadUrl ? (
            <>
              Ready: {s.rows} records, {s.mediaFiles} media files, {megabytes(s.bytes)}.{" "}
              <a href={s.downloadUrl} download>
                Download the prepared archive
              </a>
            </>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
