/**
 * Settings → URL mappings: redirects from old addresses (an exact path, or a prefix ending in
 * /* whose rest can carry over) to pages of the site or other sites. Changed page and product
 * addresses add theirs automatically; loops are refused by the server with its message.
 */
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
      <section className="card" aria-labelledby="mappings-title">
        <h2 id="mappings-title">Mappings</h2>
        {list.isLoading ? <Loading /> : null}
        <ErrorNotice error={list.error ?? remove.error} />
        {list.data?.length === 0 ? <p className="muted">No mappings yet.</p> : null}
        {list.data?.length ? (
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
              {list.data.map((r) => (
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
                    <button
                      type="button"
                      className="btn small"
                      aria-label={`Remove the mapping from ${r.from}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(r.id)}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        ) : null}
      </section>
    </>
  );
}
