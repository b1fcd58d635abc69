/**
 * Bringing content from other platforms into a site: a WordPress/Squarespace export (WXR, bare or
 * zipped with its uploads) or a Shopify/WooCommerce products CSV, with the server's line-by-line report.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { api } from "../api.js";
import { Card } from "../components/Card.js";
import { ErrorNotice, Notice } from "../components/ui.js";

interface Report {
  source: string;
  imported: number;
  skipped: number;
  lines: { line: number; status: "imported" | "skipped"; message: string }[];
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
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append("file", file!);
      return api<{ report: Report }>(`/api/owner/sites/${siteId}/imports/${path}`, { form });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate();
  };
  const report = upload.data?.report;
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
      <button type="submit" className="btn" disabled={!file || upload.isPending}>
        {upload.isPending ? "Importing…" : button}
      </button>
      <ErrorNotice error={upload.error} />
      {report ? (
        <div className="import-report">
          <Notice kind={report.skipped ? "warn" : "ok"}>
            {report.imported} imported, {report.skipped} skipped.
          </Notice>
          <ul>
            {report.lines.map((l) => (
              <li key={`${l.line}-${l.message}`}>
                {l.status === "imported" ? "✓" : "–"} Line {l.line}: {l.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </form>
  );
}

export function PlatformImports({ siteId }: { siteId: string }) {
  return (
    <Card title="Bring content from another platform" as="section">
      <p>
        For a WordPress export, zip the .xml file together with your <code>wp-content/uploads</code> folder to
        bring its images into your media library (featured images become the posts&rsquo; main images). Images
        not in the zip, and a bare .xml or products CSV&rsquo;s images, stay where they are now, as links.
        Every item of the file is listed with what became of it.
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
