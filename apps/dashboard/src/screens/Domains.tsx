/**
 * Settings → Domains: connect a domain the owner has. Each name shows the DNS records to set (where
 * it points, and the TXT record with the site's token), its status (pending, verified, failed)
 * with the reason a check failed, and Verify, Make primary and Remove. The primary verified
 * domain is the site's address; "Redirect www" sends the www./bare pair of it there too.
 */
import { Can } from "../components/permissions.js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { del, get, patch, post, put } from "../api.js";
import { CheckboxField, TextField, fieldErrors } from "../components/form/index.js";
import { DataTable, ErrorNotice, Loading, Notice, PageHead, useSite, useSiteId } from "../components/ui.js";

interface DnsRecord {
  type: string;
  name: string;
  value: string;
}
interface Domain {
  host: string;
  status: "pending" | "verified" | "failed";
  records: DnsRecord[];
  primary: boolean;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  error: string | null;
}
interface DomainList {
  domains: Domain[];
  redirectWww: boolean;
}

const STATUS: Record<Domain["status"], { label: string; badge: string }> = {
  pending: { label: "Pending", badge: "warn" },
  verified: { label: "Verified", badge: "ok" },
  failed: { label: "Not verified", badge: "danger" },
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "never");

export function Domains() {
  const siteId = useSiteId();
  const site = useSite();
  const base = `/api/owner/sites/${siteId}/domains`;
  const key = ["domains", siteId];
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: key, queryFn: () => get<DomainList>(base) });
  const [host, setHost] = useState("");
  const done = (data: DomainList) => {
    queryClient.setQueryData(key, data);
    // The site's address may have changed.
    void queryClient.invalidateQueries({ queryKey: ["site", siteId] });
  };
  const add = useMutation({
    mutationFn: () => post<DomainList>(base, { host }),
    onSuccess: (data) => {
      setHost("");
      done(data);
    },
  });
  const at = (h: string) => `${base}/${encodeURIComponent(h)}`;
  const verify = useMutation({
    mutationFn: (h: string) => post<DomainList>(`${at(h)}/verify`),
    onSuccess: done,
  });
  const primary = useMutation({
    mutationFn: (h: string) => put<DomainList>(`${at(h)}/primary`),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: (h: string) => del<DomainList>(at(h)), onSuccess: done });
  const www = useMutation({
    mutationFn: (redirectWww: boolean) => patch<DomainList>(base, { redirectWww }),
    onSuccess: done,
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate();
  };
  if (list.isLoading) return <Loading />;
  if (!list.data) return <ErrorNotice error={list.error} />;
  return (
    <>
      <PageHead
        title="Domains"
        sub={
          site.data ? (
            <>
              The site's address is <a href={site.data.url}>{site.data.url}</a>.
            </>
          ) : undefined
        }
      />
      <Can permission="settings.write">
        <form className="card" onSubmit={onSubmit} aria-labelledby="add-domain">
          <h2 id="add-domain">Connect a domain</h2>
          <p className="muted">
            Add a domain you own, set the records shown for it at your DNS provider, then verify it. It gets
            HTTPS by itself once verified.
          </p>
          <ErrorNotice error={add.error} />
          <div className="btn-row" style={{ alignItems: "flex-end" }}>
            <TextField
              label="Domain"
              value={host}
              onChange={setHost}
              placeholder="shop.example.com"
              error={fieldErrors(add.error).host}
            />
            <button
              type="submit"
              className="btn primary"
              style={{ marginBottom: "0.95rem" }}
              disabled={!host.trim()}
            >
              Add domain
            </button>
          </div>
          <CheckboxField
            label="Redirect www"
            help="The www. name of the primary domain (or the bare name, when the primary starts with www.) goes to it."
            value={list.data.redirectWww}
            onChange={(v) => www.mutate(v)}
            disabled={www.isPending}
          />
        </form>
      </Can>
      <ErrorNotice error={verify.error ?? primary.error ?? remove.error ?? www.error} />
      {list.data.domains.length === 0 ? (
        <p className="muted">No domains yet: the site answers at its own address above.</p>
      ) : null}
      {list.data.domains.map((d) => (
        <section key={d.host} className="card" aria-labelledby={`domain-${d.host}`}>
          <div className="btn-row" style={{ justifyContent: "space-between", flexWrap: "wrap" }}>
            <h2 id={`domain-${d.host}`} style={{ margin: 0, overflowWrap: "anywhere" }}>
              {d.host} <span className={`badge ${STATUS[d.status].badge}`}>{STATUS[d.status].label}</span>
              {d.primary ? <span className="badge accent">Primary</span> : null}
            </h2>
            <Can permission="settings.write">
              <div className="btn-row">
                {d.status !== "verified" ? (
                  <button
                    type="button"
                    className="btn small primary"
                    onClick={() => verify.mutate(d.host)}
                    disabled={verify.isPending}
                    aria-label={`Verify ${d.host}`}
                  >
                    {verify.isPending && verify.variables === d.host ? "Checking…" : "Verify"}
                  </button>
                ) : null}
                {d.status === "verified" && !d.primary ? (
                  <button
                    type="button"
                    className="btn small"
                    onClick={() => primary.mutate(d.host)}
                    aria-label={`Make ${d.host} primary`}
                  >
                    Make primary
                  </button>
                ) : null}
                <button
                  type="button"
                  className="btn small danger"
                  onClick={() => remove.mutate(d.host)}
                  aria-label={`Remove ${d.host}`}
                >
                  Remove
                </button>
              </div>
            </Can>
          </div>
          {d.status === "verified" ? (
            <Notice kind="ok">
              Verified {when(d.verifiedAt)}.{" "}
              {d.primary ? "This is the site's address." : "It redirects to the primary domain."}
            </Notice>
          ) : d.error ? (
            <Notice kind={d.status === "failed" ? "error" : "warn"}>
              {d.error} Last checked {when(d.lastCheckedAt)}.
            </Notice>
          ) : (
            <Notice kind="info">
              Set these records, then verify. Pending domains are checked again every 15 minutes for 72 hours.
            </Notice>
          )}
          <div className="table-wrap">
            <DataTable columns={[{ label: "Type" }, { label: "Name" }, { label: "Value" }]}>
              {d.records.map((r) => (
                <tr key={`${r.type} ${r.name} ${r.value}`}>
                  <td>{r.type}</td>
                  <td style={{ overflowWrap: "anywhere" }}>
                    <code>{r.name}</code>
                  </td>
                  <td style={{ overflowWrap: "anywhere" }}>
                    <code>{r.value}</code>
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
          <p className="muted">
            Set one of the address records (A or AAAA for a bare domain such as example.com, or the CNAME for
            a sub-domain such as shop.example.com) and the TXT record.
          </p>
        </section>
      ))}
    </>
  );
}
