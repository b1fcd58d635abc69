/**
 * Settings → Activity: who changed what on the site, when and from where (people and API keys),
 * newest first. Filters by person, area and date; "Load more" follows the cursor; "Export CSV"
 * downloads the filtered log. The log cannot be edited.
 */
import type { ActivityEntry, ActivityPage } from "@atelier/owner-api";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { get, withQuery } from "../api.js";
import { SelectField, TextField } from "../components/form/index.js";
import { ErrorNotice, ListTable, Loading, PageHead, formatDate, useSiteId } from "../components/ui.js";

/** The areas of the permission table, as the filter names them. */
const AREAS: [string, string][] = [
  ["content", "Content"],
  ["design", "Design"],
  ["forms", "Forms"],
  ["seo", "SEO"],
  ["settings", "Site settings"],
  ["products", "Products"],
  ["inventory", "Inventory"],
  ["orders", "Orders"],
  ["store", "Store settings"],
  ["site_users", "Site users"],
  ["analytics", "Analytics"],
  ["billing", "Billing"],
  ["members", "Team"],
  ["api_keys", "API keys"],
  ["webhooks", "Webhooks"],
  ["activity", "Activity"],
];
const areaName = (id: string | null) => AREAS.find(([a]) => a === id)?.[1] ?? id ?? "";

/** "product.updated" → "Product updated"; "order.refunds" → "Order refunds". */
function actionText(action: string): string {
  const text = action.replace(/[._]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function Who({ entry }: { entry: ActivityEntry }) {
  return (
    <>
      <span style={{ fontWeight: 600 }}>{entry.actor.name || "—"}</span>
      {entry.actor.type === "api_key" ? <span className="badge"> API key</span> : null}
    </>
  );
}

export function Activity() {
  const siteId = useSiteId();
  const [actor, setActor] = useState("");
  const [area, setArea] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const filter = { actor, area, from, to };
  const base = `/api/owner/sites/${siteId}/activity`;
  const log = useInfiniteQuery({
    queryKey: ["activity", siteId, filter],
    queryFn: ({ pageParam }) => get<ActivityPage>(withQuery(base, { ...filter, cursor: pageParam })),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.entries);
  const actors = log.data?.pages[0]?.actors ?? [];
  return (
    <>
      <PageHead
        title="Activity"
        sub="Every change made in the dashboard or with an API key: who, when, from where and what. Kept for a year."
        actions={
          <a className="btn" href={withQuery(`${base}/export`, { actor, area, from, to })} download>
            Export CSV
          </a>
        }
      />
      <form
        className="card activity-filters"
        aria-label="Filter the activity"
        onSubmit={(e) => e.preventDefault()}
        style={{
          display: "grid",
          gridTemplateColumns: "repeat(auto-fit, minmax(11rem, 1fr))",
          gap: "0 1rem",
          marginBottom: "1rem",
        }}
      >
        <SelectField
          label="Person"
          value={actor}
          onChange={setActor}
          options={[
            { value: "", label: "Everyone" },
            ...actors.map((a) => ({
              value: a.id ?? "",
              label: a.type === "api_key" ? `${a.name} (API key)` : a.name,
            })),
          ]}
        />
        <SelectField
          label="Area"
          value={area}
          onChange={setArea}
          options={[{ value: "", label: "All areas" }, ...AREAS.map(([value, label]) => ({ value, label }))]}
        />
        <TextField label="From" type="date" value={from} onChange={setFrom} />
        <TextField label="To" type="date" value={to} onChange={setTo} />
      </form>
      <ErrorNotice error={log.error} />
      {log.isLoading ? <Loading what="Loading the activity" /> : null}
      <ListTable
        columns={[{ label: "Change" }, { label: "Who and when" }, { label: "From" }]}
        rows={entries}
        empty="No activity matches these filters."
        row={(e) => (
          <tr key={e.id}>
            <td style={{ overflowWrap: "anywhere", minWidth: "8rem" }}>
              <span>{actionText(e.action)}</span>
              <span className="muted small" style={{ display: "block" }}>
                {areaName(e.area)}
                {e.entity.id ? ` · ${e.entity.type} ${e.entity.id}` : ""}
              </span>
              {e.fields.length ? <span className="small">Fields: {e.fields.join(", ")}</span> : null}
            </td>
            <td style={{ overflowWrap: "anywhere", minWidth: "8rem" }}>
              <Who entry={e} />
              <span className="muted small" style={{ display: "block" }}>
                {formatDate(e.at, true)}
              </span>
            </td>
            <td className="small" style={{ overflowWrap: "anywhere" }}>
              <span>{e.ip ?? "—"}</span>
              {e.userAgent ? (
                <span className="muted" style={{ display: "block", maxWidth: "16rem" }} title={e.userAgent}>
                  {e.userAgent.length > 60 ? `${e.userAgent.slice(0, 60)}…` : e.userAgent}
                </span>
              ) : null}
            </td>
          </tr>
        )}
        footer={
          log.hasNextPage ? (
            <div className="btn-row" style={{ padding: "0.75rem" }}>
              <button
                type="button"
                className="btn"
                disabled={log.isFetchingNextPage}
                onClick={() => void log.fetchNextPage()}
              >
                {log.isFetchingNextPage ? "Loading…" : "Load more"}
              </button>
            </div>
          ) : null
        }
      />
    </>
  );
}
