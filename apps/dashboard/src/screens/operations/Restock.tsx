/** Operations › Restock requests: sign-ups per sold-out variant, sent one group or all at once. */
import { Can } from "../../components/permissions.js";
import { fetchAllPages, sendRestockNotifications } from "@atelier/commerce";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { get, post, withQuery } from "../../api.js";
import {
  LoadedTable,
  ErrorNotice,
  Loading,
  Notice,
  PageHead,
  formatDate,
  useSiteId,
} from "../../components/ui.js";
import { Unavailable } from "./shared.js";
import type { SignUpGroup } from "@atelier/owner-api";

const RESTOCK = "/api/site-users/account/notifications/restock";

interface SignUp {
  id: string;
  email: string;
  isJoinMailingList: boolean;
  createdOn: number;
}

/** Everyone waiting for one variant: every page of the list, fetched in a loop (SPEC §7). */
function SignUps({ siteId, group }: { siteId: string; group: SignUpGroup }) {
  const list = useQuery({
    queryKey: ["restock", siteId, group.variantId],
    queryFn: () =>
      fetchAllPages(
        (cursor) =>
          get<{ signUps: SignUp[]; hasNextPage: boolean; nextPageCursor: string | null }>(
            withQuery(RESTOCK, { siteId, productId: group.productId, variantId: group.variantId, cursor }),
          ),
        (p) => p.signUps,
      ),
  });
  if (list.isLoading) return <Loading what="Loading sign-ups" />;
  if (list.error) return <ErrorNotice error={list.error} />;
  return (
    <ul className="small" style={{ margin: 0, paddingLeft: "1.1rem" }}>
      {list.data?.map((s) => (
        <li key={s.id}>
          {s.email} <span className="muted">· {formatDate(s.createdOn)}</span>
          {s.isJoinMailingList ? <span className="badge"> Mailing list</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function Restock() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  const [sent, setSent] = useState<string | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const groups = useQuery({
    queryKey: ["restock", siteId],
    // Every page, as SPEC §7 says: looped until the last.
    queryFn: () =>
      fetchAllPages(
        (cursor) =>
          get<{ signUpGroups: SignUpGroup[]; hasNextPage: boolean; nextPageCursor: string | null }>(
            withQuery(`${RESTOCK}/groups`, { siteId, cursor }),
          ),
        (p) => p.signUpGroups,
      ),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["restock", siteId] });
  const sendOne = useMutation({
    mutationFn: (g: SignUpGroup) =>
      post<{ count: number }>(`${RESTOCK}/send?siteId=${siteId}`, {
        productId: g.productId,
        variantId: g.variantId,
      }),
    onSuccess: (r) => {
      setSent(`Sent ${r.count} email${r.count === 1 ? "" : "s"}.`);
      void refresh();
    },
  });
  const ready = (groups.data ?? []).filter((g) => g.inStock);
  const sendAll = useMutation({
    mutationFn: () =>
      sendRestockNotifications(ready, (sendRequests) =>
        post<{ count: number }>(`${RESTOCK}/send/all?siteId=${siteId}`, { sendRequests }),
      ),
    onSuccess: (r) => {
      setSent(`Sent ${r.count} email${r.count === 1 ? "" : "s"}.`);
      void refresh();
    },
  });
  const total = (groups.data ?? []).reduce((n, g) => n + g.signUpCount, 0);
  return (
    <>
      <PageHead
        title="Restock requests"
        sub={
          groups.data
            ? `${total} shopper${total === 1 ? " is" : "s are"} waiting for sold-out variants.`
            : undefined
        }
        actions={
          <Can permission="orders.write">
            <button
              type="button"
              className="btn primary"
              onClick={() => sendAll.mutate()}
              disabled={sendAll.isPending}
            >
              Send all back-in-stock emails
            </button>
          </Can>
        }
      />
      {sent ? <Notice kind="ok">{sent}</Notice> : null}
      <ErrorNotice error={sendOne.error ?? sendAll.error} />
      <LoadedTable
        query={groups}
        failed={(e) => <Unavailable what="Restock requests" error={e} />}
        rows={(data) => data}
        columns={[
          { label: "Product and variant" },
          { label: "Waiting", className: "num" },
          { label: "Stock", className: "num" },
          { label: "Send", srOnly: true },
        ]}
        empty="Nobody is waiting for a restock."
        row={(g) => [
          <tr key={g.variantId}>
            <td>
              <Link to={`/sites/${siteId}/products/${g.productId}`}>{g.productTitle}</Link>
              <div className="muted small">
                {Object.values(g.attributes).join(" / ") || "Default"} · {g.sku}
              </div>
            </td>
            <td className="num">
              <button
                type="button"
                className="btn ghost small"
                aria-expanded={open === g.variantId}
                onClick={() => setOpen(open === g.variantId ? undefined : g.variantId)}
              >
                {g.signUpCount} waiting
              </button>
            </td>
            <td className="num">{g.unlimited ? "Unlimited" : g.qtyInStock}</td>
            <td className="num">
              <Can permission="orders.write">
                <button
                  type="button"
                  className="btn small"
                  disabled={!g.inStock || sendOne.isPending}
                  onClick={() => sendOne.mutate(g)}
                >
                  Send to {g.signUpCount}
                </button>
              </Can>
            </td>
          </tr>,
          open === g.variantId ? (
            <tr key={`${g.variantId}-list`}>
              <td colSpan={4}>
                <SignUps siteId={siteId} group={g} />
              </td>
            </tr>
          ) : null,
        ]}
      />
      <p className="muted small" style={{ marginTop: "0.8rem" }}>
        Emails go only for variants back in stock. Restock a variant in{" "}
        <Link to={`/sites/${siteId}/inventory`}>Inventory</Link> first.
      </p>
    </>
  );
}
