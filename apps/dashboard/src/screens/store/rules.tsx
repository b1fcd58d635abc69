/**
 * The store's rule lists (shipping, tax, coupons): a table with an Add button, and a dialog that
 * creates, edits or deletes one rule through the rules API.
 */
import { useCan } from "../../components/permissions.js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { del, get, patch, post, put } from "../../api.js";
import { type Column, ListTable, ErrorNotice, Notice, useSiteId, FormDialog } from "../../components/ui.js";

export interface RuleFormProps<T> {
  rule?: T;
  url: string;
  /** How a change is sent: PUT (the store rules) or PATCH (discounts). */
  update?: "put" | "patch";
  onClose: () => void;
  onSaved: () => void;
}

export function RuleList<T extends { id: string }>({
  path,
  addLabel,
  head,
  row,
  editLabel,
  empty,
  Form,
  url: ownUrl,
  listKey = "rules",
  update,
}: {
  /** Below /api/owner/sites/:site/store/, e.g. "tax-rules". */
  path: string;
  /** The list's URL when it is not below /store/ (discounts). */
  url?: string;
  /** The answer's key holding the list ("rules"). */
  listKey?: string;
  update?: "put" | "patch";
  addLabel: string;
  /** The columns before the edit column. */
  head: Column[];
  row: (rule: T) => ReactNode;
  editLabel: (rule: T) => string;
  empty: string;
  Form: (props: RuleFormProps<T>) => ReactNode;
}) {
  const siteId = useSiteId();
  const url = ownUrl ?? `/api/owner/sites/${siteId}/store/${path}`;
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ["store", siteId, path],
    queryFn: () => get<Record<string, T[]>>(url).then((r) => r[listKey] ?? []),
  });
  const [editing, setEditing] = useState<T | "new" | undefined>();
  // Without the store's write permission the rules are only listed: no Add, no Edit.
  const mayEdit = useCan().can("store.write");
  return (
    <>
      {mayEdit ? (
        <div className="btn-row" style={{ marginBottom: "1rem" }}>
          <button type="button" className="btn primary" onClick={() => setEditing("new")}>
            {addLabel}
          </button>
        </div>
      ) : null}
      <ErrorNotice error={query.error} />
      <ListTable
        columns={mayEdit ? [...head, { label: "Edit", srOnly: true }] : head}
        rows={query.data}
        empty={empty}
        row={(r) => (
          <tr key={r.id}>
            {row(r)}
            {mayEdit ? (
              <td className="num">
                <button type="button" className="btn small" onClick={() => setEditing(r)}>
                  Edit<span className="sr-only"> {editLabel(r)}</span>
                </button>
              </td>
            ) : null}
          </tr>
        )}
      />
      {editing ? (
        <Form
          rule={editing === "new" ? undefined : editing}
          url={url}
          update={update}
          onClose={() => setEditing(undefined)}
          onSaved={() => queryClient.invalidateQueries({ queryKey: ["store", siteId, path] })}
        />
      ) : null}
    </>
  );
}

/**
 * The dialog of one rule, given the Form's props: "Add <noun>" or "Edit <noun>"; `children` gets the
 * save error, for the fields' messages.
 */
export function RuleModal({
  rule,
  url,
  update = "put",
  onClose,
  onSaved,
  noun,
  body,
  children,
  error: localError,
}: RuleFormProps<{ id: string }> & {
  noun: string;
  body: () => unknown;
  children: (saveError: unknown) => ReactNode;
  /** What is wrong before asking the server (an amount that is not one); Save waits for a fix. */
  error?: string;
}) {
  const id = rule?.id;
  const done = () => {
    onSaved();
    onClose();
  };
  const save = useMutation({
    mutationFn: () => (id ? (update === "patch" ? patch : put)(`${url}/${id}`, body()) : post(url, body())),
    onSuccess: done,
  });
  const remove = useMutation({ mutationFn: () => del(`${url}/${id}`), onSuccess: done });
  return (
    <FormDialog
      id="rule-form"
      title={`${rule ? "Edit" : "Add"} ${noun}`}
      onClose={onClose}
      submit={save}
      action="Save"
      pendingAction="Saving…"
      disabled={Boolean(localError)}
      error={save.error ?? remove.error}
      before={
        id ? (
          <button
            type="button"
            className="btn danger"
            onClick={() => remove.mutate()}
            style={{ marginRight: "auto" }}
          >
            Delete
          </button>
        ) : null
      }
    >
      {localError ? <Notice kind="error">{localError}</Notice> : null}
      {children(save.error)}
    </FormDialog>
  );
}
