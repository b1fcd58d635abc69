/** Operations › Form submissions: each form's entries. */
import { Can } from "../../components/permissions.js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { del, get, withQuery } from "../../api.js";
import { SearchField, SelectField } from "../../components/form/index.js";
import { ErrorNotice, Loading, PageHead, formatDate, useForms, useSiteId } from "../../components/ui.js";
import { Unavailable } from "./shared.js";

interface Submission {
  id: string;
  createdOn: number;
  pagePath: string | null;
  summary: { title: string; value: string }[];
}

export function FormSubmissions({ formId }: { formId?: string }) {
  const siteId = useSiteId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [q, setQ] = useState("");
  const forms = useForms();
  const current = formId ?? forms.data?.[0]?.id;
  const subs = useQuery({
    queryKey: ["submissions", siteId, current, q],
    queryFn: () =>
      get<{ submissions: Submission[]; total: number }>(
        withQuery(`/api/owner/sites/${siteId}/forms/${current}/submissions`, { limit: 100, q }),
      ),
    enabled: Boolean(current),
  });
  const remove = useMutation({
    mutationFn: (id: string) => del(`/api/owner/sites/${siteId}/forms/${current}/submissions/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["submissions", siteId, current] }),
  });
  if (forms.isLoading) return <Loading />;
  if (!forms.data) return <Unavailable what="Form submissions" error={forms.error} />;
  return (
    <>
      <PageHead
        title="Form submissions"
        sub="What visitors sent through your forms."
        actions={
          current ? (
            <a
              className="btn"
              href={`/api/owner/sites/${siteId}/forms/${current}/submissions.csv${q ? `?q=${encodeURIComponent(q)}` : ""}`}
              download
            >
              Download CSV
            </a>
          ) : null
        }
      />
      <div className="toolbar">
        <SelectField
          label="Form"
          value={current ?? ""}
          onChange={(v) => navigate(`/sites/${siteId}/ops/forms/${v}`)}
          options={forms.data.map((f) => ({ value: f.id, label: `${f.name} (${f.submissions})` }))}
        />
        <SearchField label="Search answers" value={q} onChange={setQ} />
      </div>
      <ErrorNotice error={subs.error ?? remove.error} />
      {subs.data ? (
        <>
          <p className="muted small">{subs.data.total} submissions</p>
          {subs.data.submissions.map((s) => (
            <div className="card" key={s.id}>
              <div className="btn-row" style={{ justifyContent: "space-between" }}>
                <strong>{formatDate(s.createdOn, true)}</strong>
                <span className="btn-row">
                  {s.pagePath ? <span className="muted small">from {s.pagePath}</span> : null}
                  <Can permission="forms.write">
                    <button type="button" className="btn small danger" onClick={() => remove.mutate(s.id)}>
                      Delete submission
                    </button>
                  </Can>
                </span>
              </div>
              <dl
                style={{
                  margin: "0.6rem 0 0",
                  display: "grid",
                  gridTemplateColumns: "minmax(100px, 180px) 1fr",
                  gap: "0.3rem 1rem",
                }}
              >
                {s.summary.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: summary rows are positional
                  <div key={i} style={{ display: "contents" }}>
                    <dt className="muted">{row.title}</dt>
                    <dd style={{ margin: 0, whiteSpace: "pre-wrap" }}>{row.value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
          {!subs.data.submissions.length ? <p className="empty card">No submissions yet.</p> : null}
        </>
      ) : null}
    </>
  );
}
