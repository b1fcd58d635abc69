import { useQuery } from "@tanstack/react-query";
import { type CSSProperties, type ReactNode, useEffect, useId, useRef } from "react";
import { Link, useParams } from "react-router";
import { type OwnerForm, type Page, type Site, get, isForbidden } from "../api.js";
import { errorText } from "./form/errors.js";
import { useFocusFirstInvalid } from "./form/focus-first-invalid.js";

export function Notice({
  kind = "info",
  children,
}: {
  kind?: "info" | "ok" | "error" | "warn";
  children: ReactNode;
}) {
  return (
    <div className={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  // A call the person's roles do not allow says so ("Your role does not allow this."), not as a failure.
  return <Notice kind={isForbidden(error) ? "warn" : "error"}>{errorText(error)}</Notice>;
}

/** A dialog: focus moves in, Escape and the close button close it, the page behind does not scroll. */
export function Modal({
  title,
  onClose,
  children,
  footer,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();
  // The latest onClose, so a parent's new callback on each render neither re-runs the effect
  // (which would pull focus back to the first field) nor goes stale.
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>(
      "input, select, textarea, button:not([data-close])",
    );
    (first ?? ref.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close.current();
      if (e.key === "Tab" && ref.current) {
        const items = [
          ...ref.current.querySelectorAll<HTMLElement>(
            "a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex='0'], [contenteditable='true']",
          ),
        ];
        if (!items.length) return;
        const i = items.indexOf(document.activeElement as HTMLElement);
        if (e.shiftKey && i <= 0) {
          e.preventDefault();
          items[items.length - 1]!.focus();
        } else if (!e.shiftKey && i === items.length - 1) {
          e.preventDefault();
          items[0]!.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      before?.focus?.();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog, as Escape and the close button do
    <div
      className="modal-back"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        className={`modal${wide ? " wide" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        ref={ref}
        tabIndex={-1}
      >
        <header>
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="btn ghost icon" onClick={onClose} aria-label="Close" data-close>
            ✕
          </button>
        </header>
        <div className="body">{children}</div>
        {footer ? <footer>{footer}</footer> : null}
      </div>
    </div>
  );
}

/**
 * A dialog's footer buttons: Cancel (or another way back), then its action. With `form`, the action
 * submits that form; otherwise it runs `onAction`.
 */
interface DialogButtonsProps {
  onCancel: () => void;
  cancelLabel?: string;
  action: ReactNode;
  onAction?: () => void;
  form?: string;
  kind?: "primary" | "danger";
  disabled?: boolean;
  /** Anything shown before the two buttons. */
  children?: ReactNode;
}

export function DialogButtons({
  onCancel,
  cancelLabel = "Cancel",
  action,
  onAction,
  form,
  kind = "primary",
  disabled,
  children,
}: DialogButtonsProps) {
  return (
    <>
      {children}
      <button type="button" className="btn" onClick={onCancel}>
        {cancelLabel}
      </button>
      <button
        type={form ? "submit" : "button"}
        form={form}
        className={`btn ${kind}`}
        onClick={onAction}
        disabled={disabled}
      >
        {action}
      </button>
    </>
  );
}

/** A dialog whose footer is DialogButtons: Cancel closes it (as Escape does), then its action. */
export function ActionDialog({
  title,
  onClose,
  wide,
  before,
  children,
  ...buttons
}: Omit<DialogButtonsProps, "onCancel" | "children"> & {
  title: string;
  onClose: () => void;
  wide?: boolean;
  /** Anything the footer shows before the two buttons. */
  before?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      wide={wide}
      footer={
        <DialogButtons onCancel={onClose} {...buttons}>
          {before}
        </DialogButtons>
      }
    >
      {children}
    </Modal>
  );
}

/** What a dialog's form runs when submitted: a mutation, whose pending state and error the dialog shows. */
interface FormSubmit {
  mutate: () => void;
  isPending: boolean;
  error: unknown;
}

/**
 * A dialog around one form: Cancel, and the action that submits it. Submitting runs `submit`; while
 * it runs the action is disabled and reads `pendingAction`; its error (or `error`) comes first.
 */
export function FormDialog({
  id,
  submit,
  pendingAction,
  action,
  disabled,
  error = submit.error,
  children,
  ...dialog
}: Omit<Parameters<typeof ActionDialog>[0], "form" | "onAction" | "kind" | "cancelLabel"> & {
  /** The form's id, which the footer's action submits. */
  id: string;
  submit: FormSubmit;
  /** The action's label while `submit` runs ("Saving…"). */
  pendingAction: string;
  /** Shown over the form instead of `submit`'s error; null shows none (left out, `submit`'s is shown). */
  error?: unknown;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstInvalid(formRef, submit.isPending);
  return (
    <ActionDialog
      {...dialog}
      form={id}
      action={submit.isPending ? pendingAction : action}
      disabled={submit.isPending || disabled}
    >
      <form
        id={id}
        ref={formRef}
        onSubmit={(e) => {
          e.preventDefault();
          if (!submit.isPending) submit.mutate();
        }}
      >
        <ErrorNotice error={error} />
        {children}
      </form>
    </ActionDialog>
  );
}

/** The foot of a paged table: where the list is, then Previous page and Next page. */
export function Pager({
  status,
  canPrev,
  canNext,
  onPrev,
  onNext,
}: {
  status: ReactNode;
  canPrev: boolean;
  canNext: boolean;
  onPrev: () => void;
  onNext: () => void;
}) {
  return (
    <div className="pager" style={{ padding: "0.6rem 0.9rem" }}>
      <span className="muted small">{status}</span>
      <span className="btn-row">
        <button type="button" className="btn small" disabled={!canPrev} onClick={onPrev}>
          Previous page
        </button>
        <button type="button" className="btn small" disabled={!canNext} onClick={onNext}>
          Next page
        </button>
      </span>
    </div>
  );
}

/** A column of a DataTable: its heading, the class of its cells (num, hide-phone), shown to screen readers only. */
export interface Column {
  label: string;
  className?: string;
  srOnly?: boolean;
  /** What the heading shows in place of the label, e.g. a sort button. */
  content?: ReactNode;
}

/** A table of one of the dashboard's lists: a heading row from `columns`, then the rows. */
export function DataTable({
  columns,
  scope,
  children,
}: {
  columns: Column[];
  scope?: "col";
  children: ReactNode;
}) {
  return (
    <table className="data">
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} className={c.className} scope={scope}>
              {c.srOnly ? <span className="sr-only">{c.label}</span> : (c.content ?? c.label)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

interface ListTableProps<T> {
  columns: Column[];
  rows: T[] | undefined;
  /** The row, or rows, of one item, each with its key. */
  row: (item: T) => ReactNode;
  empty: ReactNode;
  footer?: ReactNode;
  style?: CSSProperties;
}

/**
 * A list screen's table in its scrolling frame: a row for each item, the `empty` line when there are
 * none (an element stands as it is, text goes in a paragraph), then `footer` (a pager).
 */
export function ListTable<T>({ columns, rows, row, empty, footer, style }: ListTableProps<T>) {
  return (
    <div className="table-wrap" style={style}>
      <DataTable columns={columns}>{rows?.map(row)}</DataTable>
      {rows && !rows.length ? typeof empty === "string" ? <p className="empty">{empty}</p> : empty : null}
      {footer}
    </div>
  );
}

export function Loading({ what = "Loading" }: { what?: string }) {
  return (
    <p className="muted" role="status">
      {what}…
    </p>
  );
}

interface LoadedProps<T> {
  query: { data: T | undefined; error: unknown; isLoading: boolean };
  /** The notice of a failed query, in place of the error's text. */
  failed?: (error: unknown) => ReactNode;
}

/**
 * What a screen shows of one query: its error (or `failed`'s notice in its place), the loading line
 * while it loads, then `children` with the data once it is there.
 */
export function Loaded<T>({
  query,
  failed,
  children,
}: LoadedProps<T> & { children: (data: T) => ReactNode }) {
  return (
    <>
      {failed && query.error ? failed(query.error) : <ErrorNotice error={query.error} />}
      {query.isLoading ? <Loading /> : null}
      {query.data !== undefined ? children(query.data) : null}
    </>
  );
}

/**
 * A list screen's query shown as a ListTable (through Loaded): `rows` takes the items from the
 * answer; `footer` (a pager) may be made from it too.
 */
export function LoadedTable<Answer, T>({
  query,
  failed,
  rows,
  footer,
  ...table
}: LoadedProps<Answer> &
  Omit<ListTableProps<T>, "rows" | "footer"> & {
    rows: (answer: Answer) => T[];
    footer?: ReactNode | ((answer: Answer) => ReactNode);
  }) {
  return (
    <Loaded query={query} failed={failed}>
      {(answer) => (
        <ListTable
          {...table}
          rows={rows(answer)}
          footer={typeof footer === "function" ? footer(answer) : footer}
        />
      )}
    </Loaded>
  );
}

/** The site of the current route, from the owner API. */
export function useSiteId(): string {
  return useParams().siteId ?? "";
}

/**
 * A GET of the owner API about the current site, cached under [key, siteId]; `url` makes the address
 * from the site's id and `pick` takes what the screen wants from the answer.
 */
export function useSiteQuery<Answer, T>(
  key: string,
  url: (siteId: string) => string,
  pick: (answer: Answer) => T,
  {
    enabled = true,
    ...options
  }: { refetchOnWindowFocus?: boolean; staleTime?: number; enabled?: boolean } = {},
) {
  const siteId = useSiteId();
  return useQuery({
    queryKey: [key, siteId],
    queryFn: () => get<Answer>(url(siteId)).then(pick),
    enabled: Boolean(siteId) && enabled,
    ...options,
  });
}

export function useSite() {
  return useSiteQuery(
    "site",
    (siteId) => `/api/owner/sites/${siteId}`,
    (r: { site: Site }) => r.site,
  );
}

/** The site's pages; `enabled` false where the person may not read them (a store manager's overview). */
export function usePages(enabled = true) {
  return useSiteQuery(
    "pages",
    (siteId) => `/api/owner/sites/${siteId}/pages`,
    (r: { pages: Page[] }) => r.pages,
    { enabled },
  );
}

/** The site's forms; `refetchOnWindowFocus` for a screen that links to making one in another tab. */
export function useForms(options?: { refetchOnWindowFocus?: boolean }) {
  return useSiteQuery(
    "forms",
    (siteId) => `/api/owner/sites/${siteId}/forms`,
    (r: { forms: OwnerForm[] }) => r.forms,
    options,
  );
}

/** A screen's heading: the title, a line under it, then its buttons, led by the `back` link to its list. */
export function PageHead({
  title,
  sub,
  back,
  actions,
}: {
  title: string;
  sub?: ReactNode;
  /** The way back to the list the screen belongs to, e.g. { to: ".../products", label: "All products" }. */
  back?: { to: string; label: string };
  actions?: ReactNode;
}) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {sub ? <div className="sub">{sub}</div> : null}
      </div>
      {back || actions ? (
        <div className="btn-row">
          {back ? (
            <Link className="btn" to={back.to}>
              {back.label}
            </Link>
          ) : null}
          {actions}
        </div>
      ) : null}
    </div>
  );
}

export function formatDate(ms: number | string | undefined | null, withTime = false): string {
  if (ms === undefined || ms === null || ms === "") return "";
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleString("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    ...(withTime ? { hour: "numeric", minute: "2-digit" } : {}),
  });
}
