/** Sites → Import a site: an Atelier site archive becomes a new site of the owner, with a report. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router";
import { type Site, api } from "../api.js";
import { DialogButtons, ErrorNotice, Modal, Notice } from "../components/ui.js";

interface ImportReport {
  imported: Record<string, number>;
  skipped: string[];
}

const LABELS: Record<string, string> = {
  collections: "pages and collections",
  content_items: "posts, items and products",
  product_variants: "product variants",
  media: "media files",
  orders: "orders",
  form_submissions: "form submissions",
  site_users: "site users",
  mailing_list_subscribers: "mailing list subscribers",
};

export function ImportSite({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const inputId = useId();
  const queryClient = useQueryClient();
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.append("file", file!);
      return api<{ site: Site; report: ImportReport }>("/api/owner/sites/import", { form });
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["sites"] }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (file) upload.mutate();
  };
  const done = upload.data;
  return (
    <Modal
      title="Import a site"
      onClose={onClose}
      footer={
        done ? (
          <Link className="btn primary" to={`/sites/${done.site.id}`}>
            Open {done.site.title}
          </Link>
        ) : (
          <DialogButtons
            onCancel={onClose}
            action={upload.isPending ? "Importing…" : "Import site"}
            form="import-site"
            disabled={!file || upload.isPending}
          />
        )
      }
    >
      {done ? (
        <div className="import-report">
          <Notice kind="ok">
            Imported as <strong>{done.site.title}</strong> at {done.site.url.replace(/^https?:\/\//, "")}.
          </Notice>
          <ul>
            {Object.entries(LABELS)
              .filter(([table]) => done.report.imported[table])
              .map(([table, label]) => (
                <li key={table}>
                  {done.report.imported[table]} {label}
                </li>
              ))}
          </ul>
          {done.report.skipped.length ? (
            <>
              <p>Left out:</p>
              <ul>
                {done.report.skipped.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : (
        <form id="import-site" onSubmit={onSubmit}>
          <p className="muted">
            Choose an archive made with Settings → Export (on this server or another). It becomes a new site;
            nothing else changes.
          </p>
          <ErrorNotice error={upload.error} />
          <div className="field">
            <label htmlFor={inputId}>Site archive (.zip)</label>
            <input
              id={inputId}
              type="file"
              name="file"
              accept=".zip,application/zip"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              required
            />
          </div>
        </form>
      )}
    </Modal>
  );
}
