/** Operations › Site users: the site's accounts. */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { get, withQuery } from "../../api.js";
import { LoadedTable, PageHead, Pager, formatDate, useSiteId } from "../../components/ui.js";
import { SearchField } from "../../components/form/index.js";
import { Unavailable } from "./shared.js";
import type { OwnerSiteUser } from "@atelier/owner-api";

export function SiteUsers() {
  const siteId = useSiteId();
  const [q, setQ] = useState("");
  // Cursors of the pages before the current one ("" = the first page), for "Previous page".
  const [cursors, setCursors] = useState<string[]>([]);
  const [cursor, setCursor] = useState("");
  const limit = 25;
  const users = useQuery({
    queryKey: ["site-users", siteId, q, cursor],
    queryFn: () =>
      get<{ siteUsers: OwnerSiteUser[]; nextCursor: string | null }>(
        withQuery(`/api/owner/sites/${siteId}/site-users`, { limit, q: q.trim(), cursor }),
      ),
    placeholderData: (p) => p,
  });
  const nextCursor = users.data?.nextCursor ?? null;
  return (
    <>
      <PageHead title="Site users" sub="Visitors who created an account on your site, newest first." />
      <div className="toolbar">
        <SearchField
          label="Search site users"
          value={q}
          maxLength={200}
          placeholder="Email or name"
          onChange={(v) => {
            setQ(v);
            setCursor("");
            setCursors([]);
          }}
        />
      </div>
      <LoadedTable
        query={users}
        failed={(e) => <Unavailable what="Site users" error={e} />}
        rows={(data) => data.siteUsers}
        columns={[
          { label: "Name" },
          { label: "Email" },
          { label: "Orders", className: "num" },
          { label: "Joined", className: "hide-phone" },
        ]}
        empty={q.trim() ? "No site users match this search." : "No site users yet."}
        footer={
          cursors.length || nextCursor ? (
            <Pager
              status={`Page ${cursors.length + 1}`}
              canPrev={cursors.length > 0}
              canNext={Boolean(nextCursor)}
              onPrev={() => {
                setCursor(cursors[cursors.length - 1] ?? "");
                setCursors(cursors.slice(0, -1));
              }}
              onNext={() => {
                if (!nextCursor) return;
                setCursors([...cursors, cursor]);
                setCursor(nextCursor);
              }}
            />
          ) : null
        }
        row={(u) => (
          <tr key={u.id}>
            <td>
              {u.firstName} {u.lastName}
            </td>
            <td>{u.email}</td>
            <td className="num">{u.orderCount}</td>
            <td className="hide-phone">{formatDate(u.createdOn)}</td>
          </tr>
        )}
      />
    </>
  );
}
