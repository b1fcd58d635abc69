/**
 * What a record editor (a collection item, a product, a form) does with its record: save it (POST when
 * new, PUT or PATCH when it exists) and delete it after asking, keeping the cached lists up to date.
 */
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { del, post, put } from "../api.js";
import { useDeleteConfirm } from "./ConfirmDelete.js";
import { afterDeleteUrl } from "./history/DeletedNotice.js";
import { fieldErrors } from "./form/index.js";

interface RecordEditorOptions<R extends { id: string }, V> {
  /** The API address of the records; a record's own address is `${url}/${id}`. */
  url: string;
  /** The record being edited; undefined while it is new. */
  id: string | undefined;
  /** The property of the API's answer that holds the saved record, e.g. "product". */
  key: string;
  /** The request body of a save, from what `save.mutate` is given (nothing, for most screens). */
  body: (vars: V) => unknown;
  /** How an existing record is sent: `put` unless the API wants `patch`. */
  update?: typeof put;
  /** Queries that list the records: invalidated after a save and after a delete. */
  lists: QueryKey[];
  /** Other queries a save changes (not a delete), invalidated after the lists. */
  alsoSaved?: QueryKey[];
  /** The saved record's own query, given the record to show without a refetch. */
  detail?: (id: string) => QueryKey;
  /** The dashboard page of a record; a new record opens there with `?saved=1`. */
  page: (id: string) => string;
  /** Where the editor goes after a delete. */
  afterDelete: string;
  /** The record's type in the trash: the list after a delete says it is there, with a Restore link. */
  trash?: { type: string; name: string };
  /** Runs first after every save, e.g. to write the record into a list query. */
  onSaved?: (saved: R) => void;
  /** Runs after an existing record is saved (a new one opens its page instead): resets the draft. */
  onUpdated: (saved: R) => void;
  onError?: (err: Error, vars: V) => void;
  /** The delete dialog's wording. Its button waits while deleting; closing it forgets a failed delete. */
  confirm: { title: string; action: string; children: ReactNode };
}

/**
 * The save and delete mutations of a record editor, its delete button and dialog, the save's field
 * errors, and `createdJustNow`: the page was opened by the save that created its record.
 */
export function useRecordEditor<R extends { id: string }, V = void>(o: RecordEditorOptions<R, V>) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const invalidate = (keys: QueryKey[]) => {
    for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
  };
  const save = useMutation({
    mutationFn: async (vars: V) => {
      const body = o.body(vars);
      const answer = await (o.id
        ? (o.update ?? put)<Record<string, R>>(`${o.url}/${o.id}`, body)
        : post<Record<string, R>>(o.url, body));
      return answer[o.key] as R;
    },
    onSuccess: (saved) => {
      o.onSaved?.(saved);
      invalidate([...o.lists, ...(o.alsoSaved ?? [])]);
      if (o.detail) queryClient.setQueryData(o.detail(saved.id), saved);
      if (!o.id) navigate(`${o.page(saved.id)}?saved=1`, { replace: true });
      else o.onUpdated(saved);
    },
    onError: o.onError,
  });
  const remove = useMutation({
    mutationFn: () => del(`${o.url}/${o.id}`),
    onSuccess: () => {
      invalidate(o.lists);
      navigate(
        o.trash && o.id ? afterDeleteUrl(o.afterDelete, o.trash.name, o.trash.type, o.id) : o.afterDelete,
      );
    },
  });
  const deleteConfirm = useDeleteConfirm({
    ...o.confirm,
    error: remove.error,
    pending: remove.isPending,
    onConfirm: () => remove.mutate(),
    onClose: () => remove.reset(),
  });
  return {
    save,
    deleteConfirm,
    errors: fieldErrors(save.error),
    createdJustNow: params.get("saved") === "1",
  };
}
