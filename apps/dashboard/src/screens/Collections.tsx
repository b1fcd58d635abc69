/** Blog posts, events, gallery images and album tracks: the list of a collection and the item editor. */
import { DeletedNotice } from "../components/history/DeletedNotice.js";
import { Card } from "../components/Card.js";
import { EditorForm } from "../components/EditorForm.js";
import { MoveButtons } from "../components/MoveButtons.js";
import { Can } from "../components/permissions.js";
import { movedStep } from "../components/move-step.js";
import { useRecordEditor } from "../components/useRecordEditor.js";
import { HistoryCard } from "../components/history/HistoryPanel.js";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { type ContentJson, get, put } from "../api.js";
import { MediaPicker, useMedia } from "../components/media.js";
import { ErrorNotice, Loading, PageHead, formatDate, useSite, useSiteId } from "../components/ui.js";
import {
  CategoryTagFields,
  CheckboxField,
  DraftSaveBar,
  RichTextField,
  TextField,
  TextareaField,
  useDraft,
  binder,
  listToText,
  textToList,
} from "../components/form/index.js";
import { SeoFields } from "../components/SeoFields.js";
import { SampleBadge } from "../components/SampleBadge.js";

interface Item extends ContentJson {
  seoTitle?: string;
  seoDescription?: string;
  seoHidden?: boolean;
  authorName: string | null;
  publishOn: number | null;
  startDate: number | null;
  endDate: number | null;
  location: Record<string, string | number | undefined> | null;
  mainImageId: string | null;
  imageUrl: string | null;
  isSample?: boolean;
  imageIds: string[];
  categories: string[];
  tags: string[];
  commentsOn: boolean;
  audioUrl: string;
}

interface ItemList {
  collection: { id: string; title: string; kind: string; urlSlug: string };
  items: Item[];
  total: number;
  hasNextPage: boolean;
  limit: number | null;
}

const NOUN: Record<string, string> = { blog: "post", events: "event", gallery: "image", album: "track" };

const itemsUrl = (siteId: string, pageId: string) => `/api/owner/sites/${siteId}/collections/${pageId}/items`;

/** A collection and its items (the 250 one page of the API holds at most), for its list and its item editor. */
function useItemList(siteId: string, pageId: string) {
  return useQuery({
    queryKey: ["items", siteId, pageId],
    queryFn: () => get<ItemList>(`${itemsUrl(siteId, pageId)}?pageSize=250`),
  });
}

export function CollectionItems() {
  const siteId = useSiteId();
  const { pageId = "" } = useParams();
  const queryClient = useQueryClient();
  const url = itemsUrl(siteId, pageId);
  const list = useItemList(siteId, pageId);
  const reorder = useMutation({
    mutationFn: (ids: string[]) => put<ItemList>(`${url}/order`, { ids }),
    onSuccess: (r) => queryClient.setQueryData(["items", siteId, pageId], r),
  });
  if (list.isLoading) return <Loading />;
  if (!list.data) return <ErrorNotice error={list.error} />;
  const { collection, items } = list.data;
  const noun = NOUN[collection.kind] ?? "item";
  const handOrdered = collection.kind === "gallery" || collection.kind === "album";
  const move = (i: number, d: -1 | 1) => {
    const ids = movedStep(
      items.map((x) => x.id),
      i,
      d,
    );
    if (ids) reorder.mutate(ids);
  };
  return (
    <>
      <PageHead
        title={collection.title}
        sub={`${list.data.total} ${noun}${list.data.total === 1 ? "" : "s"}${list.data.limit ? ` of at most ${list.data.limit}` : ""}`}
        actions={
          <>
            <Link className="btn" to={`/sites/${siteId}/pages/${pageId}`}>
              Page settings
            </Link>
            <Can permission="content.write">
              <Link className="btn primary" to={`/sites/${siteId}/collections/${pageId}/items/new`}>
                Add {noun}
              </Link>
            </Can>
          </>
        }
      />
      <DeletedNotice what={noun} lists={[["items", siteId, pageId]]} />
      <ErrorNotice error={reorder.error} />
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              {collection.kind === "gallery" ? (
                <th>
                  <span className="sr-only">Image</span>
                </th>
              ) : null}
              <th>Title</th>
              <th className="hide-phone">
                {collection.kind === "events"
                  ? "Starts"
                  : collection.kind === "blog"
                    ? "Published"
                    : "Address"}
              </th>
              {handOrdered ? <th className="num">Order</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((item, i) => (
              <tr key={item.id}>
                {collection.kind === "gallery" ? (
                  <td style={{ width: 56 }}>
                    {item.imageUrl ? (
                      <img className="thumb" src={`${item.imageUrl}?format=100w`} alt="" />
                    ) : null}
                  </td>
                ) : null}
                <td>
                  <Link to={`/sites/${siteId}/collections/${pageId}/items/${item.id}`}>{item.title}</Link>
                  {item.status === "draft" ? <span className="badge warn"> Draft</span> : null}
                  <SampleBadge sample={item.isSample} />
                </td>
                <td className="hide-phone muted">
                  {collection.kind === "events"
                    ? formatDate(item.startDate, true)
                    : collection.kind === "blog"
                      ? formatDate(item.publishOn)
                      : item.fullUrl}
                </td>
                {handOrdered ? (
                  <td className="num">
                    <Can permission="content.write">
                      <MoveButtons
                        name={item.title}
                        index={i}
                        count={items.length}
                        onMove={(by) => move(i, by)}
                        className="btn ghost small"
                      />
                    </Can>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {!items.length ? <p className="empty">Nothing here yet.</p> : null}
      </div>
    </>
  );
}

/** A date-time input works in local time; the API in epoch milliseconds. */
function toLocalInput(ms: number | null): string {
  if (ms === null) return "";
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
function fromLocalInput(s: string): number | null {
  if (!s) return null;
  const t = new Date(s).getTime();
  return Number.isNaN(t) ? null : t;
}

export function ItemEditor() {
  const siteId = useSiteId();
  const { pageId = "", itemId = "new" } = useParams();
  const url = itemsUrl(siteId, pageId);
  const list = useItemList(siteId, pageId);
  const item = useQuery({
    queryKey: ["item", siteId, itemId],
    queryFn: () => get<{ item: Item }>(`${url}/${itemId}`).then((r) => r.item),
    enabled: itemId !== "new",
  });
  // A restore from the history opens the form again on the restored item.
  const [round, setRound] = useState(0);
  if (list.isLoading || (itemId !== "new" && item.isLoading)) return <Loading />;
  if (!list.data) return <ErrorNotice error={list.error} />;
  return (
    <ItemForm
      key={`${itemId}-${round}`}
      kind={list.data.collection.kind}
      title={list.data.collection.title}
      item={item.data}
      url={url}
      onRestored={() => void item.refetch().then(() => setRound((r) => r + 1))}
    />
  );
}

function ItemForm({
  kind,
  title,
  item,
  url,
  onRestored,
}: {
  kind: string;
  title: string;
  item?: Item;
  url: string;
  onRestored: () => void;
}) {
  const siteId = useSiteId();
  const { pageId = "" } = useParams();
  const media = useMedia();
  const site = useSite();
  const noun = NOUN[kind] ?? "item";
  const form = useDraft({
    title: item?.title ?? "",
    urlId: item?.urlId ?? "",
    body: item?.body ?? "",
    excerpt: item?.excerpt ?? "",
    seoTitle: item?.seoTitle ?? "",
    seoDescription: item?.seoDescription ?? "",
    seoHidden: Boolean(item?.seoHidden),
    authorName: item?.authorName ?? "",
    visible: item ? item.status !== "draft" : true,
    publishOn: toLocalInput(item?.publishOn ?? null),
    startDate: toLocalInput(item?.startDate ?? null),
    endDate: toLocalInput(item?.endDate ?? null),
    addressTitle: String(item?.location?.addressTitle ?? ""),
    addressLine1: String(item?.location?.addressLine1 ?? ""),
    addressLine2: String(item?.location?.addressLine2 ?? ""),
    addressCountry: String(item?.location?.addressCountry ?? ""),
    mainImageId: item?.mainImageId ?? "",
    categories: listToText(item?.categories ?? []),
    tags: listToText(item?.tags ?? []),
    commentsOn: item?.commentsOn ?? true,
    audioUrl: item?.audioUrl ?? "",
  });
  const { values: f, set } = form;
  const [picking, setPicking] = useState(false);
  const {
    save,
    deleteConfirm: deleteItem,
    errors,
    createdJustNow,
  } = useRecordEditor<Item>({
    url,
    id: item?.id,
    key: "item",
    body: () => {
      const location =
        kind === "events" && (f.addressTitle || f.addressLine1 || f.addressLine2 || f.addressCountry)
          ? {
              addressTitle: f.addressTitle || undefined,
              addressLine1: f.addressLine1 || undefined,
              addressLine2: f.addressLine2 || undefined,
              addressCountry: f.addressCountry || undefined,
            }
          : null;
      return {
        title: f.title,
        urlId: f.urlId || undefined,
        body: f.body,
        excerpt: f.excerpt,
        seoTitle: f.seoTitle,
        seoDescription: f.seoDescription,
        seoHidden: f.seoHidden,
        authorName: f.authorName || null,
        status: f.visible ? "published" : "draft",
        publishOn: fromLocalInput(f.publishOn),
        startDate: fromLocalInput(f.startDate),
        endDate: fromLocalInput(f.endDate),
        location,
        mainImageId: f.mainImageId || null,
        categories: textToList(f.categories),
        tags: textToList(f.tags),
        commentsOn: f.commentsOn,
        audioUrl: kind === "album" ? f.audioUrl : undefined,
      };
    },
    lists: [["items", siteId, pageId]],
    detail: (id) => ["item", siteId, id],
    page: (id) => `/sites/${siteId}/collections/${pageId}/items/${id}`,
    afterDelete: `/sites/${siteId}/collections/${pageId}`,
    trash: { type: "item", name: item?.title ?? "" },
    onUpdated: () => form.reset(f),
    confirm: {
      title: `Delete ${item?.title}?`,
      action: `Delete ${noun}`,
      children: <p>This cannot be undone.</p>,
    },
  });
  const field = binder(f, set, errors);
  const plain = binder(f, set);
  const image = media.data?.find((m) => m.id === f.mainImageId);
  return (
    <>
      <PageHead
        title={item ? item.title : `New ${noun}`}
        sub={item ? <a href={item.fullUrl}>{item.fullUrl}</a> : title}
        back={{ to: `/sites/${siteId}/collections/${pageId}`, label: `All ${noun}s` }}
      />
      <EditorForm
        onSubmit={() => save.mutate()}
        error={save.error}
        main={
          <>
            <div className="card">
              <TextField label="Title" {...field("title")} />
              {kind === "events" ? (
                <div className="grid-2">
                  <TextField label="Starts" type="datetime-local" {...field("startDate")} />
                  <TextField label="Ends" type="datetime-local" {...field("endDate")} />
                </div>
              ) : null}
              {kind === "album" ? (
                <TextField
                  label="Audio file address"
                  {...field("audioUrl")}
                  help="An MP3 or M4A file, starting with https:// or /"
                />
              ) : null}
              <RichTextField label={kind === "gallery" ? "Description" : "Text"} {...plain("body")} />
              <TextareaField label="Excerpt" {...field("excerpt")} help="Shown in lists and summaries" />
              {kind === "events" ? (
                <fieldset>
                  <legend>Location</legend>
                  <TextField label="Place name" {...plain("addressTitle")} />
                  <TextField label="Address line 1" {...plain("addressLine1")} />
                  <TextField label="Address line 2" {...plain("addressLine2")} />
                  <TextField label="Country" {...plain("addressCountry")} />
                </fieldset>
              ) : null}
            </div>
            <SeoFields
              title={f.seoTitle}
              description={f.seoDescription}
              fallbackTitle={f.title || `The ${noun}'s title`}
              fallbackDescription={f.excerpt.replace(/<[^>]*>/g, "").trim()}
              siteTitle={site.data?.title ?? ""}
              url={`${(site.data?.url ?? "").replace(/\/+$/, "")}${url}/${f.urlId || item?.urlId || "…"}`}
              imageUrl={image?.assetUrl}
              errors={errors}
              hidden={f.seoHidden}
              onChange={set}
            />
          </>
        }
        side={
          <>
            <Card title="Image">
              {image ? (
                <img
                  src={`${image.assetUrl}?format=300w`}
                  alt={image.title}
                  style={{ width: "100%", borderRadius: 8, marginBottom: 8 }}
                />
              ) : null}
              {errors.mainImageId ? <p className="error small">{errors.mainImageId}</p> : null}
              <div className="btn-row">
                <button type="button" className="btn small" onClick={() => setPicking(true)}>
                  {f.mainImageId ? "Change image" : "Choose image"}
                </button>
                {f.mainImageId && kind !== "gallery" ? (
                  <button type="button" className="btn ghost small" onClick={() => set({ mainImageId: "" })}>
                    Remove image
                  </button>
                ) : null}
              </div>
            </Card>
            <Card title="Publishing">
              <CheckboxField label="Published" value={f.visible} onChange={(visible) => set({ visible })} />
              {kind === "blog" ? (
                <>
                  <TextField label="Publish on" type="datetime-local" {...plain("publishOn")} />
                  <TextField label="Author" value={f.authorName} onChange={(v) => set({ authorName: v })} />
                  <CheckboxField label="Comments on" {...plain("commentsOn")} />
                </>
              ) : null}
              <TextField
                label="URL slug"
                {...field("urlId")}
                help={f.urlId ? undefined : "Made from the title when empty"}
              />
              <CategoryTagFields categories={field("categories")} tags={field("tags")} />
              {item ? deleteItem.button : null}
            </Card>
            {item ? (
              <HistoryCard
                entity={`item:${item.id}`}
                label={item.title}
                write="content.write"
                invalidate={[["items", siteId, pageId]]}
                onRestored={onRestored}
              />
            ) : null}
          </>
        }
        footer={
          <DraftSaveBar
            draft={form}
            save={save}
            saved="Saved. It is live on the site."
            savedEarlier={createdJustNow}
            saveLabel={`Save ${noun}`}
          />
        }
      />
      {picking ? (
        <MediaPicker
          value={f.mainImageId ? [f.mainImageId] : []}
          onChange={(ids) => set({ mainImageId: ids[0] ?? "" })}
          onClose={() => setPicking(false)}
        />
      ) : null}
      {item ? deleteItem.dialog : null}
    </>
  );
}
