/** The site's media library: the list, uploads, and the picker dialog that chooses images from it. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ButtonHTMLAttributes, useId, useRef, useState } from "react";
import { type MediaItem, api } from "../api.js";
import { errorText } from "./form/errors.js";
import { ActionDialog, Loaded, useSiteId, useSiteQuery } from "./ui.js";
import { SampleBadge } from "./SampleBadge.js";

export function useMedia() {
  return useSiteQuery(
    "media",
    (siteId) => `/api/owner/websites/${siteId}/media`,
    (r: { media: MediaItem[] }) => r.media,
  );
}

function useUpload() {
  const siteId = useSiteId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append("title", file.name.replace(/\.[^.]+$/, ""));
      form.append("file", file);
      return api<{ media: MediaItem }>(`/api/owner/websites/${siteId}/media`, { method: "POST", form }).then(
        (r) => r.media,
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["media", siteId] }),
  });
}

export function UploadButton({
  onUploaded,
  label = "Upload image",
}: {
  onUploaded?: (m: MediaItem) => void;
  label?: string;
}) {
  const upload = useUpload();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <span>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        ref={input}
        type="file"
        accept="image/*"
        style={{ display: "none" }}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) upload.mutate(file, { onSuccess: (m) => onUploaded?.(m) });
          e.target.value = "";
        }}
      />
      <button
        type="button"
        className="btn small"
        onClick={() => input.current?.click()}
        disabled={upload.isPending}
      >
        {upload.isPending ? "Uploading…" : label}
      </button>
      {upload.error ? (
        <span className="error small" role="alert">
          {" "}
          {errorText(upload.error)}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The library's images (loading, or its error) as a grid of buttons, each its picture and its title
 * (or file name), with what `tile` gives it (its click, its name); the `empty` line when there are none.
 */
export function MediaGrid({
  media,
  empty,
  tile,
}: {
  media: ReturnType<typeof useMedia>;
  empty: string;
  tile: (item: MediaItem) => ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  return (
    <Loaded query={media}>
      {(items) => (
        <>
          <div className="media-grid">
            {items.map((m) => (
              <button type="button" key={m.id} className="media-tile" {...tile(m)}>
                <img src={`${m.assetUrl}?format=300w`} alt="" loading="lazy" />
                <span>
                  {m.title || m.filename} <SampleBadge sample={m.isSample} />
                </span>
              </button>
            ))}
          </div>
          {items.length ? null : <p className="empty">{empty}</p>}
        </>
      )}
    </Loaded>
  );
}

/** Chooses one image (or several) from the media library, with upload. */
export function MediaPicker({
  multiple,
  value,
  onChange,
  onClose,
}: {
  multiple?: boolean;
  value: string[];
  onChange: (ids: string[]) => void;
  onClose: () => void;
}) {
  const media = useMedia();
  const [chosen, setChosen] = useState<string[]>(value);
  const toggle = (id: string) => {
    if (!multiple) setChosen([id]);
    else setChosen(chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id]);
  };
  return (
    <ActionDialog
      title={multiple ? "Choose images" : "Choose an image"}
      onClose={onClose}
      wide
      action={`Use ${multiple ? `${chosen.length} image${chosen.length === 1 ? "" : "s"}` : "image"}`}
      onAction={() => {
        onChange(chosen);
        onClose();
      }}
      before={
        <>
          <UploadButton onUploaded={(m) => toggle(m.id)} />
          <span style={{ flex: 1 }} />
        </>
      }
    >
      <MediaGrid
        media={media}
        empty="No images yet: upload one."
        tile={(m) => ({
          "aria-pressed": chosen.includes(m.id),
          onClick: () => toggle(m.id),
          title: m.title || m.filename,
        })}
      />
    </ActionDialog>
  );
}
