/**
 * Settings → URL mappings: redirects from old addresses (an exact path, a path with a query such
 * as /?p=12, or a prefix ending in /* whose rest can carry over) to pages of the site or other
 * sites. Changed page and product addresses add theirs automatically; an import from another
 * platform adds its old addresses as a group, listed under the import's name and removable
 * together; loops are refused by the server with its message.
 */
import { Can } from "../components/permissions.js";
import type { UrlMapping } from "@atelier/owner-api";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { del, get, post } from "../api.js";
import { DataTable, ErrorNotice, Loading, Notice, PageHead, useSiteId } from "../components/ui.js";
import { SelectField, TextField, binder, fieldErrors } from "../components/form/index.js";

const EMPTY = { from: "", to: "", status: "301" };

export function UrlMappings() {
  const siteId = useSiteId();
  const base = `/api/owner/sites/${siteId}/redirects`;
  const queryClient = useQueryClient();
  const key = ["redirects", siteId];
  const list = useQuery({
    queryKey: key,
    queryFn: () => get<{ redirects: UrlMapping[] }>(base).then((r) => r.redirects),
  });
  const [form, setForm] = useState(EMPTY);
  const add = useMutation({
    mutationFn: () =>
      post<{ redirect: UrlMapping }>(base, { from: form.from, to: form.to, status: Number(form.status) }),
    onSuccess: () => {
      setForm(EMPTY);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => del(`${base}/${id}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  const removeGroup = useMutation({
    mutationFn: (group: string) => del(`${base}?group=${encodeURIComponent(group)}`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  const own = list.data?.filter((r) => !r.group) ?? [];
  const groups = [...new Set(list.data?.flatMap((r) => (r.group ? [r.group] : [])) ?? [])];
  const errors = fieldErrors(add.error);
  const field = binder(form, (patch) => setForm({ ...form, ...patch }), errors);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  return (
    <>
      <PageHead
        title="URL mappings"
        sub="Send visitors and search engines from old addresses to new ones. They apply where no page answers."
      />
      <Can permission="seo.write">
        <form className="card" onSubmit={onSubmit} aria-labelledby="add-mapping">
          <h2 id="add-mapping">Add a mapping</h2>
          {add.isSuccess ? <Notice kind="ok">Mapping added.</Notice> : null}
          <ErrorNotice error={add.error} />
          <div className="grid-3">
            <TextField label="Old address" placeholder="/old-page or /old-shop/*" {...field("from")} />
            <TextField label="New address" placeholder="/new-page, /shop/* or https://…" {...field("to")} />
            <SelectField
              label="Kind"
              {...field("status")}
              options={[
                { value: "301", label: "301 · moved for good" },
                { value: "302", label: "302 · for now" },
              ]}
            />
          </div>
          <button type="submit" className="btn primary" disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add mapping"}
          </button>
        </form>
      </Can>
      <section className="card" aria-labelledby="mappings-title">
        <h2 id="mappings-title">Mappings</h2>
        {list.isLoading ? <Loading /> : null}
        <ErrorNotice error={list.error ?? remove.error} />
        {list.data && own.length === 0 ? (
          <p className="muted">{groups.length ? "No mappings of your own yet." : "No mappings yet."}</p>
        ) : null}
        {own.length ? <MappingTable rows={own} remove={remove} /> : null}
      </section>
      {groups.map((group) => {
        const rows = list.data!.filter((r) => r.group === group);
        const headingId = `group-${group.replace(/[^a-z0-9]+/gi, "-")}`;
        return (
          <section className="card" aria-labelledby={headingId} key={group}>
            <div className="card-head">
              <h2 id={headingId}>{group}</h2>
              <Can permission="seo.write">
                <button
                  type="button"
                  className="btn small danger"
                  disabled={removeGroup.isPending}
                  onClick={() => removeGroup.mutate(group)}
                >
                  Remove all {rows.length} mappings of this import
                </button>
              </Can>
            </div>
            <p className="muted">The old site's addresses of what this import brought in.</p>
            <ErrorNotice error={removeGroup.error} />
            <MappingTable rows={rows} remove={remove} />
          </section>
        );
      })}
    </>
  );
}

function MappingTable({
  rows,
  remove,
}: {
  rows: UrlMapping[];
  remove: { isPending: boolean; mutate: (id: string) => void };
}) {
  return (
    <div className="table-wrap">
      <DataTable
        scope="col"
        columns={[
          { label: "Old address" },
          { label: "New address" },
          { label: "Kind" },
          { label: "Actions", srOnly: true },
        ]}
      >
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <code>{r.from}</code>
            </td>
            <td>
              <code>{r.to}</code>
            </td>
            <td>
              {r.status}
              {r.automatic ? <span className="muted"> · address changed</span> : null}
            </td>
            <td>
              <Can permission="seo.write">
                <button
                  type="button"
                  className="btn small"
                  aria-label={`Remove the mapping from ${r.from}`}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(r.id)}
                >
                  Remove
                </button>
              </Can>
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}
