/**
 * Import subscribers: a CSV file (columns email and consent, optionally firstName and lastName) sent
 * to the owner API, then what it took and skipped, line by line.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../../../api.js";
import { Field, fieldErrors } from "../../../components/form/index.js";
import { DataTable, FormDialog, Notice, useSiteId } from "../../../components/ui.js";

interface ImportReport {
  imported: number;
  skipped: number;
  lines: { line: number; email: string; result: "imported" | "skipped"; reason?: string }[];
}

export function SubscriberImport() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn" onClick={() => setOpen(true)}>
        Import subscribers
      </button>
      {open ? <ImportDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ImportDialog({ onClose }: { onClose: () => void }) {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const upload = useMutation({
    mutationFn: () => {
      const form = new FormData();
      if (file) form.append("file", file);
      return api<{ report: ImportReport }>(`/api/owner/sites/${siteId}/subscribers/import`, {
        method: "POST",
        form,
      }).then((r) => r.report);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["audience-count", siteId] }),
  });
  const report = upload.data;
  return (
    <FormDialog
      id="subscriber-import"
      title="Import subscribers"
      onClose={onClose}
      wide
      submit={upload}
      action="Import"
      pendingAction="Importing…"
      disabled={!file}
    >
      <p className="muted">
        A CSV file with the columns <code>email</code> and <code>consent</code> (<code>yes</code> or{" "}
        <code>true</code> for each person who agreed to get your emails), and optionally{" "}
        <code>firstName</code> and <code>lastName</code>. People without consent are skipped.
      </p>
      <Field label="CSV file" error={fieldErrors(upload.error).file}>
        {({ control }) => (
          <input
            {...control}
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        )}
      </Field>
      {report ? (
        <>
          <Notice kind="ok">
            Imported {report.imported.toLocaleString("en-US")}, skipped{" "}
            {report.skipped.toLocaleString("en-US")}.
          </Notice>
          <div className="table-wrap import-report">
            <DataTable columns={[{ label: "Line" }, { label: "Email" }, { label: "Result" }]}>
              {report.lines.map((l) => (
                <tr key={l.line}>
                  <td className="num">{l.line}</td>
                  <td>{l.email}</td>
                  <td>
                    {l.result === "imported" ? (
                      <span className="badge ok">Imported</span>
                    ) : (
                      <>
                        <span className="badge warn">Skipped</span> {l.reason}
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        </>
      ) : null}
    </FormDialog>
  );
}
