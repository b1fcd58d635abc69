/** Operations › Email outbox: what the site sent or will send. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { get, withQuery } from "../../api.js";
import { SelectField } from "../../components/form/index.js";
import { LoadedTable, Modal, PageHead, formatDate, useSiteId } from "../../components/ui.js";
import { Unavailable } from "./shared.js";
import type { OutboxEmail, OutboxPage } from "@atelier/owner-api";

export function Outbox() {
  const siteId = useSiteId();
  const [status, setStatus] = useState("");
  const [open, setOpen] = useState<OutboxEmail | undefined>();
  const emails = useQuery({
    queryKey: ["outbox", siteId, status],
    queryFn: () => get<OutboxPage>(withQuery(`/api/owner/sites/${siteId}/outbox`, { limit: 100, status })),
  });
  return (
    <>
      <PageHead
        title="Email outbox"
        sub="Every email the site sent: order confirmations, form notifications, restock emails."
      />
      <div className="toolbar">
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => setStatus(v)}
          options={[
            { value: "", label: "All" },
            { value: "sent", label: "Sent" },
            { value: "kept", label: "Kept (no mail server)" },
            { value: "queued", label: "Queued" },
            { value: "failed", label: "Failed" },
          ]}
        />
      </div>
      <LoadedTable
        query={emails}
        failed={(e) => <Unavailable what="The outbox" error={e} />}
        rows={(data) => data.emails}
        columns={[
          { label: "Subject" },
          { label: "To", className: "hide-phone" },
          { label: "Status" },
          { label: "When", className: "hide-phone" },
        ]}
        empty="No emails yet."
        row={(e) => (
          <tr key={e.id}>
            <td>
              <button
                type="button"
                className="btn ghost small"
                style={{ padding: 0, textAlign: "left", whiteSpace: "normal" }}
                onClick={() => setOpen(e)}
              >
                {e.subject}
              </button>
            </td>
            <td className="hide-phone">{e.to}</td>
            <td>
              <span className={`badge ${e.status === "failed" ? "danger" : e.status === "sent" ? "ok" : ""}`}>
                {e.status}
              </span>
            </td>
            <td className="hide-phone">{formatDate(e.sentOn ?? e.createdOn, true)}</td>
          </tr>
        )}
      />
      {open ? (
        <Modal title={open.subject} onClose={() => setOpen(undefined)} wide>
          <p className="muted small">
            To {open.to} · {open.status}
            {open.lastError ? ` · ${open.lastError}` : ""}
          </p>
          {open.html ? (
            <iframe
              title="Email"
              sandbox=""
              srcDoc={open.html}
              style={{ width: "100%", height: 420, border: "1px solid var(--line)", borderRadius: 8 }}
            />
          ) : (
            <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit" }}>{open.text}</pre>
          )}
        </Modal>
      ) : null}
    </>
  );
}
