import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import { DeletedNotice } from "../components/history/DeletedNotice.js";
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { MoveButtons } from "../components/MoveButtons.js";
import { Can, useCan } from "../components/permissions.js";
import { movedStep } from "../components/move-step.js";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { KIND_LABELS, type Page, get, post, put } from "../api.js";
import {
  ErrorNotice,
  FormDialog,
  Loading,
  PageHead,
  usePages,
  useSite,
  useSiteId,
} from "../components/ui.js";
import { SelectField, TextField, fieldErrors } from "../components/form/index.js";
import {
  ACCESSIBILITY_TITLE,
  PAGE_PRESETS,
  type PagePreset,
  accessibilityStatementLayout,
} from "./page-presets.js";

const KIND_HELP: Record<string, string> = {
  page: "A page built from blocks: text, images, buttons, forms…",
  blog: "Posts with dates, excerpts, categories and tags.",
  events: "Upcoming and past events with dates and places.",
  products: "A store page: products with variants, prices and stock.",
  gallery: "A collection of images shown as a grid or slideshow.",
  album: "Audio tracks played on the page (up to 60).",
  folder: "Groups pages in the navigation.",
};

/** Pages in navigation order: folders followed by their pages. */
export function navOrder(pages: Page[]): Page[] {
  const top = pages.filter((p) => !p.folderId || !pages.some((f) => f.id === p.folderId));
  const out: Page[] = [];
  for (const p of top) {
    out.push(p);
    if (p.kind === "folder") out.push(...pages.filter((c) => c.folderId === p.id));
  }
  return out;
}

/** What a page's row links to: layout pages open the editor, collections their items. */
export function pageLinks(siteId: string, p: Page) {
  if (p.kind === "page") return { to: `/sites/${siteId}/pages/${p.id}/edit`, label: "Edit page" };
  if (p.kind === "products") return { to: `/sites/${siteId}/products?collection=${p.id}`, label: "Products" };
  if (p.kind === "folder") return undefined;
  return { to: `/sites/${siteId}/collections/${p.id}`, label: "Items" };
}

function Row({
  page,
  siteId,
  onMove,
  index,
  count,
}: {
  page: Page;
  siteId: string;
  onMove: (d: -1 | 1) => void;
  index: number;
  count: number;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: page.id,
  });
  const link = pageLinks(siteId, page);
  const mayReorder = useCan().can("content.write");
  return (
    <li
      ref={setNodeRef}
      style={{ transform: transform ? `translate3d(0, ${transform.y}px, 0)` : undefined, transition }}
      className={`tree-row${page.folderId ? " child" : ""}${isDragging ? " dragging" : ""}`}
    >
      {mayReorder ? (
        <button
          type="button"
          className="btn ghost icon handle"
          aria-label={`Drag ${page.title}`}
          {...attributes}
          {...listeners}
        >
          ⠿
        </button>
      ) : null}
      <span className="kind-icon" aria-hidden="true">
        {KIND_LABELS[page.kind]?.slice(0, 2)}
      </span>
      <span className="title">
        <Link to={`/sites/${siteId}/pages/${page.id}`}>{page.title}</Link>{" "}
        <span className="muted small">
          {page.fullUrl}
          {page.isHome ? " · Home" : ""}
          {page.hiddenFromNav && !page.isHome ? " · Hidden" : ""}
          {page.passwordProtected ? " · Password" : ""}
          {page.hasDraft ? " · Unpublished changes" : ""}
        </span>
      </span>
      <span className="btn-row">
        {mayReorder ? (
          <MoveButtons
            name={page.title}
            index={index}
            count={count}
            onMove={onMove}
            className="btn ghost small hide-phone"
          />
        ) : null}
        {link ? (
          <Link className="btn small" to={link.to}>
            {link.label}
          </Link>
        ) : null}
        <Link
          className="btn small"
          to={`/sites/${siteId}/pages/${page.id}`}
          aria-label={`Settings of ${page.title}`}
        >
          Settings
        </Link>
      </span>
    </li>
  );
}

/** The page tree: reorder by dragging (or the arrows), add pages of every kind. */
export function Pages() {
  const siteId = useSiteId();
  const site = useSite();
  const pages = usePages();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const reorder = useMutation({
    mutationFn: (list: Page[]) =>
      put<{ pages: Page[] }>(`/api/owner/sites/${siteId}/pages/order`, {
        pages: list.map((p) => ({ id: p.id, folderId: p.folderId })),
      }),
    onMutate: (list) => {
      queryClient.setQueryData(["pages", siteId], list);
    },
    onSuccess: (r) => queryClient.setQueryData(["pages", siteId], r.pages),
    onError: () => queryClient.invalidateQueries({ queryKey: ["pages", siteId] }),
  });
  if (pages.isLoading) return <Loading />;
  const ordered = navOrder(pages.data ?? []);

  const commit = (list: Page[]) => {
    // Pages stay in their folder: the top level and each folder keep the order shown.
    reorder.mutate(navOrder(list.map((p, i) => ({ ...p, ordering: i }))));
  };
  const onDragEnd = (e: DragEndEvent) => {
    if (!e.over || e.active.id === e.over.id) return;
    const from = ordered.findIndex((p) => p.id === e.active.id);
    const to = ordered.findIndex((p) => p.id === e.over!.id);
    commit(arrayMove(ordered, from, to));
  };
  const move = (index: number, d: -1 | 1) => {
    const list = movedStep(ordered, index, d);
    if (list) commit(list);
  };

  return (
    <>
      <PageHead
        title="Pages"
        sub={site.data ? `The navigation of ${site.data.title}. Drag pages to reorder them.` : undefined}
        actions={
          <Can permission="content.write">
            <button type="button" className="btn primary" onClick={() => setAdding(true)}>
              Add page
            </button>
          </Can>
        }
      />
      <DeletedNotice what="page" lists={[["pages", siteId]]} />
      <ErrorNotice error={pages.error ?? reorder.error} />
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={ordered.map((p) => p.id)} strategy={verticalListSortingStrategy}>
          <ul className="tree" aria-label="Pages">
            {ordered.map((p, i) => (
              <Row
                key={p.id}
                page={p}
                siteId={siteId}
                index={i}
                count={ordered.length}
                onMove={(d) => move(i, d)}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      {adding ? <AddPage pages={pages.data ?? []} onClose={() => setAdding(false)} /> : null}
    </>
  );
}

function AddPage({ pages, onClose }: { pages: Page[]; onClose: () => void }) {
  const siteId = useSiteId();
  const [kind, setKind] = useState("page");
  const [title, setTitle] = useState("");
  const [folderId, setFolderId] = useState("");
  const [preset, setPreset] = useState<PagePreset>("");
  const site = useSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const folders = pages.filter((p) => p.kind === "folder");
  const statement = kind === "page" && preset === "accessibility";
  const add = useMutation({
    mutationFn: async () => {
      const answer = await post<{ page: Page }>(`/api/owner/sites/${siteId}/pages`, {
        kind,
        title: statement && !title.trim() ? ACCESSIBILITY_TITLE : title,
        folderId: folderId || null,
      });
      if (statement) {
        // The statement starts as a draft in the editor: the owner reads it, then publishes.
        const { settings } = await get<{ settings: { contactEmail: string } }>(
          `/api/owner/sites/${siteId}/settings`,
        );
        const layout = accessibilityStatementLayout({
          name: site.data?.title ?? "",
          email: settings.contactEmail,
          date: new Date(),
        });
        await put(`/api/owner/sites/${siteId}/pages/${answer.page.id}/draft`, layout);
      }
      return answer;
    },
    onSuccess: ({ page }) => {
      void queryClient.invalidateQueries({ queryKey: ["pages", siteId] });
      onClose();
      const link = pageLinks(siteId, page);
      navigate(link?.to ?? `/sites/${siteId}/pages/${page.id}`);
    },
  });
  const errors = fieldErrors(add.error);
  return (
    <FormDialog
      id="add-page"
      title="Add a page"
      onClose={onClose}
      submit={add}
      action="Add page"
      pendingAction="Adding…"
    >
      <TextField
        label="Page title"
        value={title}
        onChange={(v) => setTitle(v)}
        error={errors.title}
        required={!statement}
        help={statement ? `Left empty, it is called "${ACCESSIBILITY_TITLE}".` : undefined}
      />
      <fieldset>
        <legend>Type of page</legend>
        {Object.entries(KIND_HELP).map(([k, help]) => (
          <label className="check" key={k}>
            <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
            <span>
              {KIND_LABELS[k]}
              <span className="help">{help}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {kind === "page" ? (
        <SelectField
          label="Start from"
          value={preset}
          onChange={(v) => setPreset(v as PagePreset)}
          options={PAGE_PRESETS.map((p) => ({ value: p.value, label: p.label }))}
          help={
            statement
              ? "A statement of the standard your site meets and how people can report a problem, with your site's name and contact email filled in. It opens as a draft to read before you publish."
              : undefined
          }
        />
      ) : null}
      {folders.length && kind !== "folder" ? (
        <SelectField
          label="Folder"
          value={folderId}
          onChange={(v) => setFolderId(v)}
          options={[
            { value: "", label: "Not in a folder" },
            ...folders.map((f) => ({ value: f.id, label: f.title })),
          ]}
        />
      ) : null}
    </FormDialog>
  );
}
