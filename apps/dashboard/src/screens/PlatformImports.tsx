/**
 * Bringing content from other platforms into a site: a WordPress/Squarespace export (WXR, bare or
 * zipped with its uploads) or a Shopify/WooCommerce products CSV. Images can be copied from their
 * current addresses into the media library (on by default); an import with many files runs in the
 * background, shown here with its progress, then the server's line-by-line report: each file not
 * copied and why, and the URL mappings group that keeps the old addresses working.
 */
import type { PlatformImportReport, PlatformImportStatus } from "@atelier/owner-api";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { api, get } from "../api.js";
import { Card } from "../components/Card.js";
import { CheckboxField } from "../components/form/index.js";
import { ErrorNotice, Notice } from "../components/ui.js";

type Answer = { report: PlatformImportReport } | { importId: string };

/** The background import's status, asked every second until it is done or failed. */
function useImportStatus(siteId: string, importId: string | undefined) {
  return useQuery({
    queryKey: ["platform-import", siteId, importId],
    enabled: Boolean(importId),
    queryFn: () => get<PlatformImportStatus>(`/api/owner/sites/${siteId}/imports/${importId}`),
    refetchInterval: (q) => (q.state.data && q.state.data.status !== "running" ? false : 1000),
  });
}

function ImportProgress({ status }: { status: PlatformImportStatus }) {
  const { done, failed, left } = status.progress;
  const total = done + failed + left;
  return (
    <div className="import-progress" role="status">
      <p>
        {total
          ? `Copying images from the old site: ${done} copied, ${failed} not copied, ${left} left.`
          : "Reading the file…"}
      </p>
      <progress max={Math.max(total, 1)} value={done + failed} aria-label="Images copied so far" />
    </div>
  );
}

function ImportReport({ siteId, report }: { siteId: string; report: PlatformImportReport }) {
  const { files, redirects } = report;
  return (
    <div className="import-report">
      <Notice kind={report.skipped || files.notCopied.length ? "warn" : "ok"}>
        {report.imported} imported, {report.skipped} skipped
        {files.copied || files.notCopied.length
          ? `; ${files.copied} image${files.copied === 1 ? "" : "s"} copied, ${files.notCopied.length} not copied`
          : ""}
        .
      </Notice>
      {files.note ? <p className="muted">{files.note}</p> : null}
      {files.notCopied.length ? (
        <>
          <h3>Images not copied (their links stay)</h3>
          <ul className="import-failures">
            {files.notCopied.map((f) => (
              <li key={f.url}>
                <code>{f.url}</code>: {f.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {redirects.added ? (
        <p>
          {redirects.added} old address{redirects.added === 1 ? "" : "es"} now answer 301 to the new ones, in{" "}
          <Link to={`/sites/${siteId}/settings/url-mappings`}>URL mappings</Link> as the group “
          {redirects.group}”.
          {redirects.overLimit.length
            ? ` ${redirects.overLimit.length} did not fit within the site's 1,000 mappings.`
            : ""}
        </p>
      ) : null}
      <h3>Line by line</h3>
      <ul>
        {report.lines.map((l) => (
          <li key={`${l.line}-${l.message}`}>
            {l.status === "imported" ? "✓" : "–"} Line {l.line}: {l.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

function UploadForm({
  siteId,
  path,
  label,
  accept,
  button,
}: {
  siteId: string;
  path: string;
  label: string;
  accept: string;
  button: string;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [copy, setCopy] = useState(true);
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append("copyRemoteFiles", String(copy));
      form.append("file", file!);
      return api<Answer>(`/api/owner/sites/${siteId}/imports/${path}`, { form });
    },
  });
  const importId = upload.data && "importId" in upload.data ? upload.data.importId : undefined;
  const status = useImportStatus(siteId, importId);
  const running = upload.isPending || status.data?.status === "running" || (importId && !status.data);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate();
  };
  const report =
    upload.data && "report" in upload.data ? upload.data.report : (status.data?.report ?? undefined);
  return (
    <form onSubmit={onSubmit} className="platform-import">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="file"
          accept={accept}
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          required
        />
      </div>
      <CheckboxField
        label="Copy images from their current addresses"
        help="Each image is downloaded once into your media library; those that cannot be copied stay links and are listed."
        value={copy}
        onChange={setCopy}
      />
      <button type="submit" className="btn" disabled={!file || Boolean(running)}>
        {running ? "Importing…" : button}
      </button>
      <ErrorNotice error={upload.error ?? status.error} />
      {status.data?.status === "running" ? <ImportProgress status={status.data} /> : null}
      {status.data?.status === "failed" ? <Notice kind="error">{status.data.error}</Notice> : null}
      {report ? <ImportReport siteId={siteId} report={report} /> : null}
    </form>
  );
}

export function PlatformImports({ siteId }: { siteId: string }) {
  return (
    <Card title="Bring content from another platform" as="section">
      <p>
        Posts, pages (in their tree and menu), products and their images come over; every old address (posts,
        pages, products, categories, images) is redirected to its new home. Images are copied from the old
        site when you leave the box ticked; for a WordPress export you can also zip the .xml file together
        with your <code>wp-content/uploads</code> folder. Every item of the file is listed with what became of
        it.
      </p>
      <UploadForm
        siteId={siteId}
        path="wordpress"
        label="WordPress or Squarespace export (.xml, or .zip with its uploads)"
        accept=".xml,.zip,text/xml,application/xml,application/zip"
        button="Import posts and pages"
      />
      <UploadForm
        siteId={siteId}
        path="products-csv"
        label="Shopify or WooCommerce products (.csv)"
        accept=".csv,text/csv"
        button="Import products"
      />
    </Card>
  );
}
